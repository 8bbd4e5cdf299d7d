//! Conditional moves from the analysis board: a player whose opponent is to move opens the
//! board at the game's position now (`/analysis?plan=ID`), plays their opponent's move and
//! their answer (and on), and queues the line shown; the box beside the board lists their
//! queued lines, each with a Delete button. Queueing goes through the games service, with the
//! checks of `PUT /api/v1/games/{id}/conditional-moves` (the referee, the turn, the ply seen),
//! so only the player sees their lines. While the box is open the engine is off: the game is
//! still being played against a person.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::GameId;
use crate::service::ConditionalPlan;
use crate::service::analysis::board::{BoardStart, StartAsked};

use super::super::error::{Plain, WebError};
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field};
use super::super::session::SignedIn;
use super::analysis_board::{BoardAddress, numbered};

/// Where the board of a plan starts: the game's position now.
pub(super) fn plan_start(plan: &ConditionalPlan) -> StartAsked {
    BoardStart {
        variant: plan.variant,
        rules: plan.rules.clone(),
        position: plan.position,
    }
    .asked()
}

/// The box of a plan: the button that queues the line shown, and the lines queued.
pub(super) fn plan_box(me: &Me, plan: &ConditionalPlan) -> Markup {
    let game = plan.game_id;
    html! {
        section #conditional data-game=(game) data-ply=(plan.ply) aria-labelledby="conditional-title" {
            h2 #conditional-title { "Conditional moves in " a href={ "/games/" (game) } { "game " (game) } }
            p { small { "Play your opponent's move on the board, then your answer (and on, as deep as you like), and queue the line: if they play it, your answer is played at once. Only you see your lines; a move none expected drops them all." } }
            form #plan-add method="post" action={ "/analysis/plan/" (game) "/add" } {
                (csrf_field(me))
                input type="hidden" name="ply" value=(plan.ply);
                button.primary type="submit" { "Queue the line shown" }
            }
            p #plan-error .error role="alert" aria-live="assertive" {}
            @if plan.lines.is_empty() {
                p #plan-none { "No lines queued." }
            } @else {
                ol #plan-lines {
                    @for (i, line) in plan.lines.iter().enumerate() {
                        li data-line=(i + 1) {
                            span.line { (numbered(line, plan.ply)) }
                            " "
                            form.inline method="post" action={ "/analysis/plan/" (game) "/drop" } {
                                (csrf_field(me))
                                input type="hidden" name="line" value=(i + 1);
                                button type="submit" aria-label={ "Delete line " (i + 1) } { "Delete" }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct AddLineForm {
    csrf: Option<String>,
    /// The game's ply as the page saw it (text: the board's address is flattened in, and a
    /// flattened form reads every field as text).
    ply: Option<String>,
    #[serde(flatten)]
    address: BoardAddress,
}

/// `POST /analysis/plan/{id}/add`: queues the line from the board's start (the game's
/// position now) to the move shown. Answers the box again, or the refusal in words.
pub async fn add_line(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<GameId>,
    WebForm(form): WebForm<AddLineForm>,
) -> Result<Response, Plain> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let ply = match form.ply.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(text.parse::<u32>().map_err(|_| {
            WebError::BadInput(format!("the ply seen must be a number, not {text:?}"))
        })?),
    };
    let board = state
        .service
        .analysis()
        .board(Some(session.player), form.address.ask()?)
        .await?;
    let plan = state
        .service
        .games()
        .conditional_plan(session.player, id)
        .await?;
    if board.start.asked() != plan_start(&plan) {
        return Err(WebError::BadInput(format!(
            "this board does not start at game {id}'s position now (it has moved on): open the \
             plan again from the game's page"
        ))
        .into());
    }
    let line: Vec<String> = board
        .tree
        .line_to(board.at)
        .into_iter()
        .filter_map(|node| board.tree.node(node).map(|n| n.text.clone()))
        .collect();
    state
        .service
        .games()
        .add_conditional_line(session.player, id, ply, line)
        .await?;
    box_again(&state, &session, id).await
}

#[derive(Debug, Deserialize)]
pub struct DropLineForm {
    csrf: Option<String>,
    line: usize,
}

/// `POST /analysis/plan/{id}/drop`: drops one queued line. Answers the box again.
pub async fn drop_line(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<GameId>,
    WebForm(form): WebForm<DropLineForm>,
) -> Result<Response, Plain> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    state
        .service
        .games()
        .drop_conditional_line(session.player, id, form.line)
        .await?;
    box_again(&state, &session, id).await
}

async fn box_again(state: &AppState, session: &SignedIn, id: GameId) -> Result<Response, Plain> {
    let plan = state
        .service
        .games()
        .conditional_plan(session.player, id)
        .await?;
    let me = Me {
        player: state.service.accounts().player(session.player).await?,
        csrf_token: session.csrf_token.clone(),
    };
    Ok(Html(plan_box(&me, &plan).into_string()).into_response())
}
