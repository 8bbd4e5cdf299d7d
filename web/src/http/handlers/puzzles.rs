//! Puzzles mined from games: the next one for me, a try at one, one by id, my puzzle rating,
//! and a puzzle as an OpenTafl puzzle record.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::ApiResult;
use crate::AppState;
use crate::domain::PuzzleId;
use crate::http::auth::{Authed, Viewer};
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::service::puzzles::{AttemptView, PuzzleRatingView, PuzzleView};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct NextPuzzleQuery {
    /// A preset's id from /variants, or `custom` (absent: any variant).
    #[param(example = "brandubh")]
    variant: Option<String>,
}

/// A try at a puzzle.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AttemptBody {
    /// The solver's moves so far, first to last (not the replies), in OpenTafl notation.
    #[schema(example = json!(["d4-d1"]), min_items = 1, max_items = 32)]
    moves: Vec<String>,
}

/// The next puzzle for me: the one nearest my puzzle rating that I have not tried
#[utoipa::path(
    get, path = "/puzzles/next", tag = "puzzles", security(("bearer" = [])),
    params(NextPuzzleQuery),
    responses(
        (status = 200, description = "A puzzle", body = PuzzleView),
        (status = 404, description = "No such variant, or no puzzle left that I have not tried (`not_found`)", body = ErrorBody),
    )
)]
pub async fn next_puzzle(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiQuery(q): ApiQuery<NextPuzzleQuery>,
) -> ApiResult<Response> {
    Ok(Json(state.service.puzzles().next(me, q.variant).await?).into_response())
}

/// A puzzle
#[utoipa::path(
    get, path = "/puzzles/{id}", tag = "puzzles", security((), ("bearer" = [])),
    params(("id" = PuzzleId, Path, description = "The puzzle's id")),
    responses(
        (status = 200, description = "The puzzle (without its solution)", body = PuzzleView),
        (status = 404, description = "No such puzzle", body = ErrorBody),
    )
)]
pub async fn get_puzzle(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath(id): ApiPath<PuzzleId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.puzzles().get(id).await?).into_response())
}

/// Try a puzzle: my moves so far
///
/// Each move is checked against the puzzle's line. `continue`: every move right so far, the
/// opponent's replies given, send the moves again with the next one. `correct`: solved.
/// `wrong`: the engine's reply to the wrong move (`refutation`) and the line. My first finished
/// try at a puzzle is rated (Glicko-2, me against the puzzle); later ones change nothing.
#[utoipa::path(
    post, path = "/puzzles/{id}/attempts", tag = "puzzles", security(("bearer" = [])),
    params(("id" = PuzzleId, Path, description = "The puzzle's id")),
    request_body = AttemptBody,
    responses(
        (status = 200, description = "How the try went", body = AttemptView),
        (status = 404, description = "No such puzzle", body = ErrorBody),
        (status = 422, description = "A move is unreadable or illegal, none or too many sent, or more than the line takes", body = ErrorBody),
    )
)]
pub async fn attempt_puzzle(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<PuzzleId>,
    ApiJson(body): ApiJson<AttemptBody>,
) -> ApiResult<Response> {
    Ok(Json(state.service.puzzles().attempt(me, id, body.moves).await?).into_response())
}

/// My puzzle rating (one for every variant)
#[utoipa::path(
    get, path = "/puzzles/rating", tag = "puzzles", security(("bearer" = [])),
    responses((status = 200, description = "My puzzle rating", body = PuzzleRatingView))
)]
pub async fn puzzle_rating(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.puzzles().rating(me).await?).into_response())
}

/// A puzzle as an OpenTafl puzzle record (.otg, `puzzle-mode:strict`)
///
/// With its line (the solution) only for a player who has tried the puzzle; anyone else gets
/// the position to solve, without the line or the puzzle mode.
#[utoipa::path(
    get, path = "/puzzles/{id}/export", tag = "puzzles", security((), ("bearer" = [])),
    params(("id" = PuzzleId, Path, description = "The puzzle's id")),
    responses(
        (status = 200, description = "The record", body = String, content_type = "text/plain",
            headers(("Content-Disposition" = String, description = "attachment; filename=\"taflbot-puzzle-<id>.otg\""))),
        (status = 404, description = "No such puzzle", body = ErrorBody),
    )
)]
pub async fn export_puzzle(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<PuzzleId>,
) -> ApiResult<Response> {
    let text = state.service.puzzles().export_otg(id, viewer).await?;
    Ok(super::otg_attachment(
        &format!("taflbot-puzzle-{id}.otg"),
        text,
    ))
}
