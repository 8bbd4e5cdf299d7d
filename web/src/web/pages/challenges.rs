//! New games: the challenge form (a friend by handle, anyone, or the AI), and the answers to a
//! challenge (accept, decline, cancel).

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;

use crate::AppState;
use crate::domain::ChallengeId;
use crate::service::{
    ClockSpec, DEFAULT_AI_LEVEL, DEFAULT_VARIANT, NewChallenge, Opponent, RulesChoice, SideChoice,
    parse_clock_text,
};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{csrf_field, page};
use super::super::session::SignedIn;
use super::me_of;
use super::variants::{one_line, start_here, variant_title};

/// What `/challenges/new?opponent=ai&variant=brandubh` chooses beforehand (a link from the
/// welcome page, a variant's page).
#[derive(Debug, Default, Deserialize)]
pub struct NewChallengeQuery {
    opponent: Option<OpponentKind>,
    variant: Option<String>,
}

/// `GET /challenges/new`.
pub async fn new_challenge(
    State(state): State<AppState>,
    session: SignedIn,
    Query(q): Query<NewChallengeQuery>,
) -> Result<Response, WebError> {
    let against = q.opponent.unwrap_or(OpponentKind::Player);
    let me = me_of(&state, Some(&session)).await?;
    let Some(me) = me else {
        return Err(WebError::SignInNeeded);
    };
    let variants = state.service.games().variants();
    let chosen = q
        .variant
        .filter(|id| variants.iter().any(|v| &v.id == id))
        .unwrap_or_else(|| DEFAULT_VARIANT.to_owned());
    let max_ai = state.service.config().max_ai_level;
    let body = html! {
        h1 { "New game" }
        (start_here())
        form.stack #challenge-form method="post" action="/challenges" {
            (csrf_field(&me))
            fieldset {
                legend { "Opponent" }
                label { input type="radio" name="opponent" value="player" checked[against == OpponentKind::Player]; " A player, by handle:" }
                input name="handle" aria-label="Opponent's handle" placeholder="handle" autocomplete="off";
                label { input type="radio" name="opponent" value="open" checked[against == OpponentKind::Open]; " Anyone (an open challenge)" }
                label { input type="radio" name="opponent" value="ai" checked[against == OpponentKind::Ai]; " The AI, level "
                    select name="ai_level" aria-label="AI level" {
                        @for level in 1..=max_ai {
                            option value=(level) selected[level == DEFAULT_AI_LEVEL] { (level) }
                        }
                    }
                }
                // Casual unless asked: the level's rating is measured from its rated games.
                label.check { input type="checkbox" name="ai_rated" value="true"; " Rated against the AI (levels 1 to 4, with a clock: 3 days a move unless set below)" }
            }
            label { "Variant"
                select name="variant" data-preview="variant-start" data-summary="variant-summary" {
                    @for v in &variants {
                        option value=(v.id) data-summary=(one_line(v)) selected[v.id == chosen] { (variant_title(v)) }
                    }
                }
            }
            @if let Some(v) = variants.iter().find(|v| v.id == chosen) {
                div.variant-preview {
                    img #variant-start src={ "/variants/" (v.id) "/start.svg" } alt={ "The start of " (v.name) } width="180" height="180";
                    p #variant-summary aria-live="polite" { (one_line(v)) }
                }
            }
            label { "My side"
                select name="side" {
                    option value="random" { "random" }
                    option value="attackers" { "attackers" }
                    option value="defenders" { "defenders" }
                }
            }
            label { "Clock: days per move (empty: 3 against a player, none against the AI; 0: none), or a bank: 7d+1d, 10d+12h shrinking 25% every 10 to 3h"
                input type="text" name="days" maxlength="80" placeholder="3 (none against the AI)";
            }
            label.check { input type="checkbox" name="rated" value="true" checked; " Rated (between two players, with a clock)" }
            label.check { input type="checkbox" name="private" value="true"; " Private (only the players see it)" }
            button.primary type="submit" { "Challenge" }
        }
    };
    Ok(page("New game", Some(&me), body).into_response())
}

#[derive(Debug, Deserialize)]
pub struct ChallengeForm {
    csrf: Option<String>,
    opponent: OpponentKind,
    #[serde(default)]
    handle: String,
    ai_level: Option<u8>,
    variant: Option<String>,
    #[serde(default)]
    side: SideChoice,
    /// Empty: the default for the opponent (`default_clock`).
    #[serde(default)]
    days: String,
    rated: Option<bool>,
    /// A rated game against the AI (unticked, so absent: casual).
    #[serde(default)]
    ai_rated: bool,
    #[serde(default)]
    private: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OpponentKind {
    Player,
    Open,
    Ai,
}

/// `POST /challenges`: to the game at once against the AI, else back to my games.
pub async fn create_challenge(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<ChallengeForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let opponent = match form.opponent {
        OpponentKind::Player => {
            if form.handle.trim().is_empty() {
                return Err(WebError::BadInput(
                    "name the player you challenge by their handle".into(),
                ));
            }
            Opponent::Player(
                state
                    .service
                    .accounts()
                    .player_by_handle(&form.handle)
                    .await?
                    .id,
            )
        }
        OpponentKind::Open => Opponent::Open,
        OpponentKind::Ai => Opponent::Ai {
            level: form.ai_level.unwrap_or(DEFAULT_AI_LEVEL),
        },
    };
    let clock = match form.days.trim() {
        "" => default_clock(form.opponent, form.ai_rated),
        days => match days.parse::<u32>() {
            Ok(0) => ClockSpec::Unlimited {},
            Ok(days) => ClockSpec::days_per_move(days),
            // Not a number of days: a clock in words (a bank, maybe shrinking), as Discord's.
            Err(_) => parse_clock_text(days).map_err(|e| WebError::BadInput(e.to_string()))?,
        },
    };
    let created = state
        .service
        .challenges()
        .create(
            session.player,
            NewChallenge {
                opponent,
                rules: form
                    .variant
                    .map_or_else(RulesChoice::default, RulesChoice::Variant),
                side: form.side,
                clock,
                context: None,
                // An unticked box is not sent: casual. Against the AI, its own box.
                rated: match form.opponent {
                    OpponentKind::Ai => Some(form.ai_rated),
                    _ => Some(form.rated.unwrap_or(false)),
                },
                private: form.private,
            },
        )
        .await?;
    Ok(match created.game {
        Some(game) => Redirect::to(&format!("/games/{}", game.id)),
        None => Redirect::to("/"),
    }
    .into_response())
}

/// The clock when the form leaves it empty: none against the AI (it answers at once) unless
/// the game is rated (a rated game needs a clock), three days a move against a person.
fn default_clock(opponent: OpponentKind, ai_rated: bool) -> ClockSpec {
    match opponent {
        OpponentKind::Ai if !ai_rated => ClockSpec::Unlimited {},
        OpponentKind::Ai | OpponentKind::Player | OpponentKind::Open => ClockSpec::days_per_move(3),
    }
}

/// What can be done with a challenge.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeAction {
    Accept,
    Decline,
    Cancel,
}

/// `POST /challenges/{id}/{action}`: an accepted challenge goes to its game.
pub async fn answer_challenge(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path((id, action)): Path<(ChallengeId, ChallengeAction)>,
    WebForm(form): WebForm<super::game::CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let s = &state.service;
    let to = match action {
        ChallengeAction::Accept => format!(
            "/games/{}",
            s.challenges().accept(session.player, id).await?.id
        ),
        ChallengeAction::Decline => {
            s.challenges().decline(session.player, id).await?;
            "/".to_owned()
        }
        ChallengeAction::Cancel => {
            s.challenges().cancel(session.player, id).await?;
            "/".to_owned()
        }
    };
    Ok(Redirect::to(&to).into_response())
}
