//! `/matches/{id}`: a team match's page, read-only: its terms, the two teams with their
//! players and points, each board with its two games (linked) and their scores, the winner.
//! Matches are made over HTTP (`POST /api/v1/matches`) or from Discord (`/match create`).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use crate::domain::{MatchStatus, PlayerId, TeamMatchId, TeamSide};
use crate::server::AppState;
use crate::service::matches::TeamMatchView;
use crate::service::{SeatView, variant_label};

use super::super::error::WebError;
use super::super::layout::page;
use super::super::session::MaybeSignedIn;
use super::game::{game_link, seat};
use super::me_of;
use super::tournament_words::{points_words, score_words};

/// `GET /matches/{id}`.
pub async fn match_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<TeamMatchId>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let m = state.service.matches().get(id).await?;
    Ok(page(&m.name, me.as_ref(), body(&m)).into_response())
}

fn body(m: &TeamMatchView) -> Markup {
    let names: HashMap<PlayerId, &SeatView> = m
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .filter_map(|p| p.player_id.map(|id| (id, p)))
        .collect();
    let who = |id: PlayerId| match names.get(&id) {
        Some(s) => seat(s),
        None => html! { "player " (id) },
    };
    let team_name = |team: TeamSide| {
        m.teams
            .iter()
            .find(|t| t.team == team)
            .map_or_else(|| team.to_string(), |t| t.name.clone())
    };
    html! {
        div #team-match data-match=(m.id) data-status=(m.status) {
            h1 { (m.name) }
            p.status #match-state { (status_words(m.status)) }
            @if m.status == MatchStatus::Finished {
                p.notice #winner {
                    @match m.winner {
                        Some(team) => { "Winner: " (team_name(team)) },
                        None => { "A draw." },
                    }
                }
            }
            p {
                (m.max_boards) " boards, each pair playing both sides"
                " · " (variant_label(m.variant.as_deref()))
                " · clock: " (m.clock)
                " · " @if m.rated { "rated" } @else { "casual" }
                " · organised by " (seat(&m.organiser))
            }
            h2 { "Score" }
            table #score {
                thead { tr { th { "Team" } th { "Players" } th { "Points" } } }
                tbody {
                    @for t in &m.teams {
                        tr data-team=(t.team) data-points=(t.points) {
                            td { (t.name) }
                            td {
                                @if t.players.is_empty() { "nobody yet" }
                                @for (n, p) in t.players.iter().enumerate() {
                                    @if n > 0 { ", " }
                                    (seat(p))
                                }
                            }
                            td.points { (points_words(t.points)) }
                        }
                    }
                }
            }
            @if !m.boards.is_empty() {
                h2 { "Boards" }
                ol #boards {
                    @for b in &m.boards {
                        li data-board=(b.board) {
                            (who(b.home)) " (" (team_name(TeamSide::Home)) ") vs "
                            (who(b.away)) " (" (team_name(TeamSide::Away)) ")"
                            ul {
                                @for g in &b.games {
                                    li data-game=(g.game_id) {
                                        (who(g.attackers)) " (attackers) vs " (who(g.defenders))
                                        " (defenders) · " (game_link(g.game_id)) " · "
                                        span.score { (score_words(g.result)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn status_words(status: MatchStatus) -> &'static str {
    match status {
        MatchStatus::SignUp => "Open for sign-up",
        MatchStatus::Running => "Being played",
        MatchStatus::Finished => "Finished",
    }
}
