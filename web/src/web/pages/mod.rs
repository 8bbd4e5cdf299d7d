//! The pages, one file per kind: each handler parses, calls the games service, renders.

pub mod analysis_board;
mod analysis_notes;
pub mod analysis_plan;
pub mod challenges;
pub mod explorer;
pub mod explorer_balance;
mod followed_live;
pub mod game;
pub mod game_analysis;
pub mod home;
pub mod leaderboards;
pub mod live;
pub mod mail_settings;
pub mod match_live;
mod page_action;
pub mod players;
pub mod public_games;
pub mod puzzles;
pub mod sessions;
pub mod sign_in;
pub mod sign_up;
pub mod study;
pub mod team_match;
pub mod tournament;
pub mod tournament_live;
mod tournament_words;
pub mod tournaments;
pub mod turns;
pub mod vacation;
pub mod variants;
pub mod welcome;

use crate::AppState;

use super::error::WebError;
use super::layout::Me;
use super::session::SignedIn;

/// The signed-in visitor as the page bar shows them.
async fn me_of(state: &AppState, session: Option<&SignedIn>) -> Result<Option<Me>, WebError> {
    let Some(session) = session else {
        return Ok(None);
    };
    let player = state.service.accounts().player(session.player).await?;
    Ok(Some(Me {
        player,
        csrf_token: session.csrf_token.clone(),
    }))
}
