//! `GET /games`: public games to watch, those being played (redrawn live as moves arrive) and
//! the last finished; no sign-in needed.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use crate::AppState;
use crate::service::{GameSummary, variant_label};

use super::super::error::WebError;
use super::super::layout::page;
use super::super::result_words::result_in_words;
use super::super::session::MaybeSignedIn;
use super::game::{game_link, pairing};
use super::me_of;

/// The Server-Sent Events that tell the list to redraw (`live::public_games_events`).
pub const PUBLIC_GAMES_LIVE_PATH: &str = "/games/live";

pub async fn public_games_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let games = state.service.games().public_games().await?;
    let body = html! {
        div #public-games data-live-list=(PUBLIC_GAMES_LIVE_PATH) {
            h1 { "Games to watch" }
            h2 { "Being played" }
            @if games.live.is_empty() { p { "None right now." } } @else { (games_table(&games.live, true)) }
            h2 { "Finished lately" }
            @if games.recent.is_empty() { p { "None yet." } } @else { (games_table(&games.recent, false)) }
        }
    };
    Ok(page("Games to watch", me.as_ref(), body).into_response())
}

fn games_table(games: &[GameSummary], live: bool) -> Markup {
    html! {
        table.games.public-games data-list=(if live { "live" } else { "recent" }) {
            thead { tr { th { "Game" } th { "Players" } th { "Variant" } th { "Moves" }
                        th { @if live { "To move" } @else { "Result" } } } }
            tbody {
                @for g in games {
                    tr data-game=(g.id) data-ply=(g.ply) {
                        td { (game_link(g.id)) }
                        td { (pairing(&g.attackers, &g.defenders)) }
                        td { (variant_label(g.variant.as_deref())) }
                        td { (g.ply) }
                        td {
                            @if let Some(side) = g.side_to_move.filter(|_| live) { (side) }
                            @else if let Some(r) = &g.result { (result_in_words(r, None)) }
                        }
                    }
                }
            }
        }
    }
}
