//! `GET /me/turns`: the games where it is the signed-in player's move, as JSON for every page's
//! script (`assets/turns.js`): the count goes in the tab's title and icon, and a game that
//! starts waiting while the tab is hidden may raise a browser notification.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use tafl_engine::Side;

use crate::AppState;
use crate::domain::GameId;
use crate::service::{GameSummary, SeatView, variant_label};

use super::super::error::Plain;
use super::super::session::SignedIn;

/// What the script needs: how many, and enough of each to name it in a notification.
#[derive(Debug, Serialize)]
pub struct TurnsPart {
    count: usize,
    games: Vec<WaitingGame>,
}

#[derive(Debug, Serialize)]
struct WaitingGame {
    id: GameId,
    /// Who made the last move, in words ("Bob", "the AI").
    opponent: String,
    variant: String,
    /// Moves played so far.
    ply: u32,
}

pub async fn my_turns(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Json<TurnsPart>, Plain> {
    let games = state.service.games().games_to_move(session.player).await?;
    Ok(Json(TurnsPart {
        count: games.len(),
        games: games.iter().map(waiting_game).collect(),
    }))
}

fn waiting_game(g: &GameSummary) -> WaitingGame {
    let opponent = match g.your_side {
        Some(Side::Attackers) => &g.defenders,
        _ => &g.attackers,
    };
    WaitingGame {
        id: g.id,
        opponent: seat_name(opponent),
        variant: variant_label(g.variant.as_deref()).to_owned(),
        ply: g.ply,
    }
}

fn seat_name(seat: &SeatView) -> String {
    match seat.ai_level {
        Some(level) if seat.player_id.is_none() => format!("the AI (level {level})"),
        _ => seat.name.clone(),
    }
}
