//! `/`: my games (my turn first) and my challenges; signed out, the welcome page (`welcome.rs`).

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::GameStatus;
use crate::service::{ChallengeView, GameSummary, variant_label};

use super::super::error::WebError;
use super::super::layout::{Me, csrf_field, local_time, page};
use super::super::result_words::result_in_words;
use super::super::session::MaybeSignedIn;
use super::super::signed_out_csrf::form_token;
use super::game::{game_link, pairing, seat};
use super::me_of;
use super::welcome::{Welcome, welcome_response};

#[derive(Debug, Default, Deserialize)]
pub struct HomeQuery {
    /// `needed`: sent here from a page that needs a session.
    signin: Option<String>,
}

pub async fn home(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    headers: HeaderMap,
    Query(q): Query<HomeQuery>,
) -> Result<Response, WebError> {
    let Some(me) = me_of(&state, session.as_ref()).await? else {
        let (form_token, set_cookie) = form_token(&state, &headers)?;
        let welcome = Welcome {
            needed: q.signin.is_some(),
            form_token,
            ..Welcome::default()
        };
        return Ok(welcome_response(&welcome, None, set_cookie));
    };
    let games = state.service.games().list_games(me.player.id).await?;
    let challenges = state.service.challenges().list(me.player.id).await?;
    let body = html! {
        div #my-games data-live-list="/me/live" {
        h1 { "My games" }
        @if games.is_empty() {
            p { "No games yet. " a href="/challenges/new" { "Start one" } "." }
        } @else {
            (games_table(&games))
        }
        h2 { "Challenges to me" }
        (challenge_list(&me, &challenges.incoming, true))
        h2 { "My challenges" }
        (challenge_list(&me, &challenges.outgoing, false))
        }
    };
    Ok(page("My games", Some(&me), body).into_response())
}

fn games_table(games: &[GameSummary]) -> Markup {
    html! {
        table.games {
            thead { tr { th { "Game" } th { "Players" } th { "Turn" } th { "Deadline" } th { "Variant" } th { "Moves" } } }
            tbody {
                @for g in games {
                    tr.mine[g.your_turn] data-game=(g.id) {
                        td { (game_link(g.id)) }
                        td { (pairing(&g.attackers, &g.defenders)) }
                        td {
                            @if g.your_turn { span.turn aria-label="your turn" { "● Your turn" } }
                            @else if g.status == GameStatus::Active {
                                @if let Some(side) = g.side_to_move { (side) " to move" }
                            } @else {
                                @match &g.result {
                                    Some(r) => (result_in_words(r, g.your_side)),
                                    None => (g.status),
                                }
                            }
                        }
                        td { @if let Some(d) = g.deadline_at { (local_time(d)) } @else { "—" } }
                        td { (variant_label(g.variant.as_deref())) }
                        td { (g.ply) }
                    }
                }
            }
        }
    }
}

fn challenge_list(me: &Me, list: &[ChallengeView], incoming: bool) -> Markup {
    html! {
        @if list.is_empty() {
            p { "None." }
        } @else {
            ul.challenges {
                @for c in list {
                    li data-challenge=(c.id) {
                        @if incoming { (seat(&c.challenger)) } @else {
                            @match &c.opponent { Some(o) => (seat(o)), None => "anyone (open)" }
                        }
                        ": " (variant_label(c.variant.as_deref()))
                        ", " (c.clock)
                        ", " @if c.rated { "rated" } @else { "casual" }
                        ", challenger plays " (c.challenger_side)
                        ". Expires " (local_time(c.expires_at)) ". "
                        @if incoming {
                            (challenge_button(me, c, "accept", "Accept"))
                            @if c.opponent.is_some() { (challenge_button(me, c, "decline", "Decline")) }
                        } @else {
                            (challenge_button(me, c, "cancel", "Cancel"))
                        }
                    }
                }
            }
        }
    }
}

fn challenge_button(me: &Me, c: &ChallengeView, action: &str, label: &str) -> Markup {
    html! {
        form.inline method="post" action={ "/challenges/" (c.id) "/" (action) } {
            (csrf_field(me))
            button type="submit" { (label) }
        }
    }
}
