//! `/matches/{id}`: a team match's page: its terms, the two teams with their players and
//! points, each board with its two games (linked) and their scores, the winner. Before the
//! start a signed-in player joins a team or leaves it, and the organiser starts the match or
//! calls it off. The page follows the match live (`match_live`): a join, the start, a board's
//! result and the end redraw it. A refusal is shown on the page, in place. Matches are made
//! over HTTP (`POST /api/v1/matches`) or from Discord (`/match create`).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::{MatchStatus, PlayerId, TeamMatchId, TeamSide};
use crate::service::matches::TeamMatchView;
use crate::service::{SeatView, variant_label};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, page};
use super::super::session::{MaybeSignedIn, SignedIn};
use super::game::{CsrfForm, game_link, seat};
use super::me_of;
use super::page_action::answer_action;
use super::tournament_words::score_words;
use crate::service::tournaments::score_text;

/// `GET /matches/{id}`.
pub async fn match_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<TeamMatchId>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let m = state.service.matches().get(id).await?;
    Ok(page(&m.name, me.as_ref(), body(&m, me.as_ref(), None)).into_response())
}

/// What a player can do with a team match from its page.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchAction {
    JoinHome,
    JoinAway,
    Leave,
    Start,
    Cancel,
}

/// `POST /matches/{id}/{action}`: back to the page, with the refusal on it if there is one.
pub async fn match_action(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path((id, action)): Path<(TeamMatchId, MatchAction)>,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let matches = state.service.matches();
    let me = session.player;
    let done = match action {
        MatchAction::JoinHome => matches.join(me, id, TeamSide::Home).await,
        MatchAction::JoinAway => matches.join(me, id, TeamSide::Away).await,
        MatchAction::Leave => matches.leave(me, id).await,
        MatchAction::Start => matches.start(me, id).await,
        MatchAction::Cancel => matches.cancel(me, id).await,
    };
    answer_action(done, &format!("/matches/{id}"), async |words| {
        let me = me_of(&state, Some(&session)).await?;
        let m = matches.get(id).await?;
        Ok(page(
            &m.name,
            me.as_ref(),
            body(&m, me.as_ref(), Some(&words)),
        ))
    })
    .await
}

fn body(m: &TeamMatchView, me: Option<&Me>, refusal: Option<&str>) -> Markup {
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
        div #team-match data-match=(m.id) data-status=(m.status)
            data-live-list={ "/matches/" (m.id) "/live" } {
            h1 { (m.name) }
            p.status #match-state data-status=(m.status) { (status_words(m.status)) }
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
            @if let Some(me) = me { (actions(m, me, refusal)) }
            @else if m.status == MatchStatus::SignUp {
                p { a href="/" { "Sign in" } " to join a team." }
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
                            td.points { (score_text(t.points)) }
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

/// The buttons a signed-in player has before the start: join a team or leave it; for the
/// organiser, start or call off.
fn actions(m: &TeamMatchView, me: &Me, refusal: Option<&str>) -> Markup {
    let id = m.id;
    let playing = m
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .any(|p| p.player_id == Some(me.player.id));
    let organiser = m.organiser.player_id == Some(me.player.id);
    let open = m.status == MatchStatus::SignUp;
    // A Discord match's teams are its servers' members, who join from there.
    let discord = m.teams.iter().any(|t| t.discord_server);
    let button = |action: &str, id_attr: &str, words: String, confirm: Option<&str>| {
        html! {
            form.inline method="post" action={ "/matches/" (id) "/" (action) } data-confirm=[confirm] {
                (csrf_field(me)) button #(id_attr) type="submit" { (words) }
            }
        }
    };
    html! {
        p.error #match-error role="alert" { @if let Some(r) = refusal { (r) } }
        @if open {
            div.controls {
                @if !playing && discord {
                    p #join-from-discord {
                        "Members of the servers join from their Discord server with "
                        code { "/match join" } "."
                    }
                } @else if !playing {
                    @for t in &m.teams {
                        @let (action, id_attr) = match t.team {
                            TeamSide::Home => ("join_home", "join-home"),
                            TeamSide::Away => ("join_away", "join-away"),
                        };
                        (button(action, id_attr, format!("Join {}", t.name), None))
                    }
                } @else {
                    (button("leave", "leave", "Leave my team".into(), None))
                }
                @if organiser {
                    (button("start", "start", "Start now".into(), None))
                    (button("cancel", "cancel", "Call off".into(),
                        Some("Call the match off? No game of it will be played.")))
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
        MatchStatus::Cancelled => "Called off by its organiser",
    }
}
