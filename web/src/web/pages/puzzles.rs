//! `/puzzles`: puzzles mined from real games, solved on the web. The page shows the board, what
//! to find, a hint behind a fold, the puzzle's and my rating, and the solver's legal moves
//! grouped by piece; a move is sent as a try (the same service call as the API), and the answer
//! shows the reply and the next move to find, or the result with the refutation of a wrong
//! move, the line and the rating changes. A move is made by clicks on the board (a piece, then
//! where it goes: `assets/puzzle.js` fills in and sends the form) or, without a script, with
//! the form itself: each move is a form post.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use crate::AppState;
use crate::domain::PuzzleId;
use crate::service::puzzles::{AttemptResult, AttemptView, PuzzleView};

use super::super::board_svg::{BoardLook, start_svg};
use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, page_with};
use super::super::session::SignedIn;
use super::me_of;

#[derive(Debug, Default, Deserialize)]
pub struct NextQuery {
    variant: Option<String>,
}

/// A try from the page: the moves made so far (`.` between two) and the one chosen now.
#[derive(Debug, Deserialize)]
pub struct TryForm {
    csrf: Option<String>,
    #[serde(default)]
    moves: String,
    #[serde(rename = "move")]
    mv: String,
}

/// `GET /puzzles`: the next puzzle for me (nearest my rating, not tried yet).
pub async fn next_puzzle_page(
    State(state): State<AppState>,
    session: SignedIn,
    Query(q): Query<NextQuery>,
) -> Result<Response, WebError> {
    let variant = q.variant.filter(|v| !v.trim().is_empty());
    let view = state
        .service
        .puzzles()
        .next(session.player, variant)
        .await?;
    Ok(Redirect::to(&format!("/puzzles/{}", view.id)).into_response())
}

/// `GET /puzzles/{id}`: a puzzle, from its start.
pub async fn puzzle_page(
    State(state): State<AppState>,
    session: SignedIn,
    Path(id): Path<PuzzleId>,
) -> Result<Response, WebError> {
    render(&state, &session, id, Vec::new(), None).await
}

/// `POST /puzzles/{id}`: a move tried; the answer, and the next move to find if any.
pub async fn try_move(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<PuzzleId>,
    WebForm(form): WebForm<TryForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let mut moves: Vec<String> = form
        .moves
        .split('.')
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    moves.push(form.mv);
    let answer = state
        .service
        .puzzles()
        .attempt(session.player, id, moves.clone())
        .await?;
    render(&state, &session, id, moves, Some(answer)).await
}

async fn render(
    state: &AppState,
    session: &SignedIn,
    id: PuzzleId,
    moves: Vec<String>,
    answer: Option<AttemptView>,
) -> Result<Response, WebError> {
    let me = me_of(state, Some(session))
        .await?
        .ok_or(WebError::SignInNeeded)?;
    let puzzles = state.service.puzzles();
    let view = puzzles.get(id).await?;
    let going_on = answer
        .as_ref()
        .is_none_or(|a| a.result == AttemptResult::Continue);
    // A finished try shows the position it was tried from; one going on, the next to solve.
    let shown = if going_on {
        moves.clone()
    } else {
        moves[..moves.len().saturating_sub(1)].to_vec()
    };
    let (rules, position) = puzzles.board(id, shown.clone()).await?;
    let legal = if going_on {
        puzzles.legal_moves(id, shown.clone(), None).await?
    } else {
        Vec::new()
    };
    let rating = puzzles.rating(session.player).await?;
    let hint = match &answer {
        Some(a) => a.next_hint.clone().unwrap_or_default(),
        None => view.hint.clone(),
    };
    let board = start_svg(&position, &rules, BoardLook::default());
    let body = html! {
        h1 { "Puzzle #" (view.id) }
        p #puzzle-goal { (goal(&view)) }
        p.ratings {
            "Puzzle rating " (format!("{:.0}", view.rating))
            " · my puzzle rating " span #my-puzzle-rating { (format!("{:.0}", rating.rating)) }
            " (" (rating.solved) " solved of " (rating.attempts) ")"
        }
        @if let Some(a) = &answer { (answer_part(a)) }
        div #puzzle-board .board { (PreEscaped(board)) }
        @if going_on { p { small { "Click a piece, then where it goes; or choose the move below." } } }
        @if going_on {
            (move_form(&me, id, &shown, &legal))
            details #puzzle-hint {
                summary { "Hint" }
                p { "Move the piece on " strong { (hint) } "." }
            }
        } @else {
            p { a #next-puzzle href="/puzzles" { "Next puzzle" } }
        }
        p.source {
            "From " a href={ "/games/" (view.game_id) } { "game #" (view.game_id) }
            ", after move " (view.ply) ". "
            a href={ "/api/v1/puzzles/" (view.id) "/export" } { "OpenTafl puzzle record" }
        }
    };
    Ok(page_with(
        &format!("Puzzle #{}", view.id),
        Some(&me),
        body,
        Some(super::super::assets::PUZZLE_URL),
    )
    .into_response())
}

fn goal(view: &PuzzleView) -> String {
    let goal = match view.theme.as_str() {
        "escape" => "the king escapes",
        "capture_king" => "the king is captured",
        _ => "win material",
    };
    format!(
        "{} to move: {goal} in {} ({}).",
        view.side_to_move, view.moves_to_find, view.variant
    )
}

fn answer_part(a: &AttemptView) -> Markup {
    html! {
        div #puzzle-answer role="status" {
            @match a.result {
                AttemptResult::Continue => p.right {
                    "Right! The answer: " strong { (a.replies.last().cloned().unwrap_or_default()) }
                    ". Your next move."
                },
                AttemptResult::Correct => p.right { strong { "Solved!" } },
                AttemptResult::Wrong => p.wrong {
                    strong { "Not this time: " (a.wrong_move.clone().unwrap_or_default()) }
                    @if let Some(r) = &a.refutation { " is answered by " strong.refutation { (r) } }
                    "."
                },
            }
            @if let Some(line) = &a.solution { p { "The line: " (line.join(" ")) } }
            @if let Some(change) = &a.player_rating {
                p #rating-change {
                    "My puzzle rating: " (format!("{:.0} → {:.0} ({:+.0})", change.before, change.after, change.change))
                }
            } @else if a.result != AttemptResult::Continue {
                p { "Tried before: my rating stays." }
            }
        }
    }
}

/// The solver's legal moves, grouped by the piece that moves.
fn move_form(me: &Me, id: PuzzleId, moves: &[String], legal: &[String]) -> Markup {
    let mut groups: Vec<(String, Vec<&String>)> = Vec::new();
    for mv in legal {
        let from = mv.split('-').next().unwrap_or(mv).to_owned();
        match groups.iter_mut().find(|(f, _)| *f == from) {
            Some((_, list)) => list.push(mv),
            None => groups.push((from, vec![mv])),
        }
    }
    html! {
        form #puzzle-move method="post" action={ "/puzzles/" (id) } {
            (csrf_field(me))
            input type="hidden" name="moves" value=(moves.join("."));
            label for="puzzle-move-choice" { "My move " }
            select #puzzle-move-choice name="move" {
                @for (from, list) in &groups {
                    optgroup label={ "From " (from) } {
                        @for mv in list { option value=(mv) { (mv) } }
                    }
                }
            }
            " "
            button type="submit" { "Play" }
        }
    }
}
