//! `/tournaments/{id}`: a tournament's page: its terms, players, standings with the
//! tie-breaks, the crosstable, the rounds with their games, the winner; join and leave for a
//! signed-in player, start for the organiser. The page follows the tournament live
//! (`tournament_live`): a round that starts or a game of it that ends redraws it. A refusal
//! (full, already running, not the organiser) is shown on the page, in place.

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::{PlayerId, TournamentId, TournamentStatus};
use crate::service::tournaments::{FormatKind, TournamentView};
use crate::service::{SeatView, variant_label};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, local_time, page};
use super::super::session::{MaybeSignedIn, SignedIn};
use super::game::{game_link, seat};
use super::me_of;
use super::page_action::answer_action;
use super::tournament_words::{format_words, score_words, status_words};
use crate::service::tournaments::score_text;

/// `GET /tournaments/{id}`.
pub async fn tournament_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<TournamentId>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let t = state.service.tournaments().get(id).await?;
    Ok(page(&t.name, me.as_ref(), body(&t, me.as_ref(), None)).into_response())
}

/// What a player can do with a tournament from its page.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentAction {
    Join,
    Leave,
    Start,
}

/// `POST /tournaments/{id}/{action}`: back to the page, with the refusal on it if there is one.
pub async fn tournament_action(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path((id, action)): Path<(TournamentId, TournamentAction)>,
    WebForm(form): WebForm<super::game::CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let tournaments = state.service.tournaments();
    let me = session.player;
    let done = match action {
        TournamentAction::Join => tournaments.join(me, id).await,
        TournamentAction::Leave => tournaments.leave(me, id).await,
        TournamentAction::Start => tournaments.start(me, id).await,
    };
    answer_action(done, &format!("/tournaments/{id}"), async |words| {
        let me = me_of(&state, Some(&session)).await?;
        let t = tournaments.get(id).await?;
        Ok(page(
            &t.name,
            me.as_ref(),
            body(&t, me.as_ref(), Some(&words)),
        ))
    })
    .await
}

fn body(t: &TournamentView, me: Option<&Me>, refusal: Option<&str>) -> Markup {
    let names: HashMap<PlayerId, &SeatView> = t
        .players
        .iter()
        .filter_map(|p| p.player.player_id.map(|id| (id, &p.player)))
        .collect();
    let who = |id: PlayerId| match names.get(&id) {
        Some(s) => seat(s),
        None => html! { "player " (id) },
    };
    html! {
        div #tournament data-tournament=(t.id) data-status=(status_key(t.status)) data-round=(t.round)
            data-live-list={ "/tournaments/" (t.id) "/live" } {
            h1 { (t.name) }
            p.status #tournament-state { (status_words(t.status, t.round)) }
            @if let Some(winner) = t.winner {
                p.notice #winner { "Winner: " (who(winner)) }
            }
            p {
                (format_words(t.format))
                @if let Some(rounds) = t.planned_rounds { ", " (rounds) " rounds" }
                " · " (variant_label(t.variant.as_deref()))
                " · clock: " (t.clock)
                " · " span #tournament-vacation { (t.vacation) }
                " · " span #tournament-withdrawal { (t.withdrawal.sentence()) }
                " · " @if t.rated { "rated" } @else { "casual" }
                " · " (t.min_players) " to " (t.max_players) " players"
                " · organised by " (seat(&t.organiser))
                @if let (TournamentStatus::SignUp, Some(at)) = (t.status, t.starts_at) {
                    " · starts by itself " (local_time(at))
                }
            }
            @if let Some(me) = me { (actions(t, me, refusal)) }
            @else if t.status == TournamentStatus::SignUp {
                p { a href="/" { "Sign in" } " to join." }
            }
            h2 { "Players (" (t.players.len()) ")" }
            @if t.players.is_empty() { p { "Nobody yet." } } @else {
                ol #players {
                    @for p in &t.players {
                        li {
                            (seat(&p.player)) " (" (p.seed_rating) ")"
                            @if p.games_annulled { " · withdrawn, games annulled (unranked)" }
                            @else if p.withdrawn { " · withdrawn" }
                        }
                    }
                }
            }
            @if t.status != TournamentStatus::SignUp {
                h2 { "Standings" }
                (standings(t, &who))
                @if t.players.iter().any(|p| p.games_annulled) {
                    p #unranked {
                        "Not ranked (withdrew, games annulled): "
                        @for (n, p) in t.players.iter().filter(|p| p.games_annulled).enumerate() {
                            @if n > 0 { ", " }
                            (seat(&p.player))
                        }
                    }
                }
                h2 { "Crosstable" }
                (crosstable(t, &who))
                h2 { "Rounds" }
                (rounds(t, &who))
            }
        }
    }
}

fn actions(t: &TournamentView, me: &Me, refusal: Option<&str>) -> Markup {
    let id = t.id;
    let playing = t
        .players
        .iter()
        .any(|p| p.player.player_id == Some(me.player.id) && !p.withdrawn);
    let organiser = t.organiser.player_id == Some(me.player.id);
    let open = t.status == TournamentStatus::SignUp;
    let running = t.status == TournamentStatus::Running;
    html! {
        p.error #tournament-error role="alert" { @if let Some(r) = refusal { (r) } }
        div.controls {
            @if open && !playing {
                form.inline method="post" action={ "/tournaments/" (id) "/join" } {
                    (csrf_field(me)) button.primary #join type="submit" { "Join" }
                }
            }
            @if open && playing {
                form.inline method="post" action={ "/tournaments/" (id) "/leave" } {
                    (csrf_field(me)) button #leave type="submit" { "Leave" }
                }
            }
            @if running && playing {
                form.inline method="post" action={ "/tournaments/" (id) "/leave" }
                    data-confirm=(withdraw_warning(t)) {
                    (csrf_field(me)) button #leave type="submit" { "Withdraw" }
                }
            }
            @if open && organiser {
                form.inline method="post" action={ "/tournaments/" (id) "/start" } {
                    (csrf_field(me)) button.primary #start type="submit" { "Start now" }
                }
            }
        }
    }
}

/// What the withdraw button asks first: the tournament's rule, in the player's terms.
fn withdraw_warning(t: &TournamentView) -> String {
    format!(
        "Withdraw? Your game in progress is resigned and your later games forfeited; in this \
         tournament {}.",
        t.withdrawal.sentence()
    )
}

fn standings(t: &TournamentView, who: &impl Fn(PlayerId) -> Markup) -> Markup {
    let swiss = t.format == FormatKind::Swiss;
    html! {
        div.scroll tabindex="0" role="region" aria-label="Standings" {
            table.wide #standings {
                thead { tr {
                    th { "#" } th { "Player" } th { "Points" } th { "Played" } th { "Won" } th { "Drawn" } th { "Lost" }
                    @if swiss { th { abbr title="Buchholz" { "Buch." } } }
                    th { abbr title="Sonneborn-Berger" { "SB" } }
                    th { abbr title="Direct encounter" { "DE" } }
                } }
                tbody {
                    @for s in &t.standings {
                        tr data-player=(s.player) data-points=(s.points) {
                            td { (s.rank) } td { (who(s.player)) } td.points { (score_text(s.points)) }
                            td { (s.played) } td { (s.wins) } td { (s.draws) } td { (s.losses) }
                            @if swiss { td { (score_text(s.buchholz)) } }
                            td { (score_text(s.sonneborn_berger)) }
                            td { (score_text(s.direct_encounter)) }
                        }
                    }
                }
            }
        }
    }
}

fn crosstable(t: &TournamentView, who: &impl Fn(PlayerId) -> Markup) -> Markup {
    html! {
        div.scroll tabindex="0" role="region" aria-label="Crosstable" {
            table.wide.crosstable #crosstable {
                thead { tr {
                    th { "#" } th { "Player" }
                    @for (n, _) in t.crosstable.iter().enumerate() { th { (n + 1) } }
                } }
                tbody {
                    @for (n, row) in t.crosstable.iter().enumerate() {
                        tr data-player=(row.player) {
                            td { (n + 1) } td { (who(row.player)) }
                            @for (m, games) in row.against.iter().enumerate() {
                                td {
                                    @if m == n { "×" }
                                    @else { (games.iter().map(|p| score_text(*p)).collect::<Vec<_>>().join(" ")) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn rounds(t: &TournamentView, who: &impl Fn(PlayerId) -> Markup) -> Markup {
    html! {
        @for round in t.rounds.iter().rev() {
            section.round data-round=(round.number) {
                h3 { "Round " (round.number) }
                ul {
                    @for g in &round.games {
                        li data-game=[g.game_id] {
                            (who(g.attackers)) " vs " (who(g.defenders)) " · "
                            @if let Some(game) = g.game_id { (game_link(game)) " · " }
                            @else { "forfeit · " }
                            span.score { (score_words(g.result)) }
                            @if !g.counted { " · " span.annulled { "not counted" } }
                        }
                    }
                    @if let Some(bye) = round.bye { li { (who(bye)) ": a bye (1 point)" } }
                }
            }
        }
    }
}

fn status_key(status: TournamentStatus) -> &'static str {
    match status {
        TournamentStatus::SignUp => "sign_up",
        TournamentStatus::Running => "running",
        TournamentStatus::Finished => "finished",
        TournamentStatus::Cancelled => "cancelled",
    }
}
