//! Conditional moves: my queued answers to my opponent's next moves, hidden from them.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::domain::GameId;
use crate::service::{ConditionalMovesRequest, ConditionalMovesView};

use super::ApiResult;
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath};

/// My queued conditional moves in a game (never my opponent's)
#[utoipa::path(
    get, path = "/games/{id}/conditional-moves", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "My lines (empty when none wait for the position now)", body = ConditionalMovesView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    )
)]
pub async fn get_conditional_moves(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    let view = state.service.games().conditional_moves(me, id).await?;
    Ok(Json(view).into_response())
}

/// Queue conditional moves: lines of my opponent's move and my answer, alternating
///
/// Sent while my opponent is to move; replaces any lines queued before. Every move of every
/// line is checked by the referee now; when my opponent plays the first move of a line, its
/// answer is played for me in the same commit and the rest of the line waits for their next
/// move; a move no line expected drops them all. Lines are for games against people.
#[utoipa::path(
    put, path = "/games/{id}/conditional-moves", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    request_body = ConditionalMovesRequest,
    responses(
        (status = 200, description = "The lines as queued", body = ConditionalMovesView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 409, description = "It is my move, `ply` is stale (`conflict`), or the game is over (`game_over`)", body = ErrorBody),
        (status = 422, description = "An illegal move in a line (`illegal_move`, naming the line and the move), an odd line, two answers to one position, too many lines, or a game against the AI (`invalid`)", body = ErrorBody),
    )
)]
pub async fn queue_conditional_moves(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
    ApiJson(body): ApiJson<ConditionalMovesRequest>,
) -> ApiResult<Response> {
    let view = state
        .service
        .games()
        .queue_conditional_moves(me, id, body)
        .await?;
    Ok(Json(view).into_response())
}

/// Drop my conditional moves in a game
#[utoipa::path(
    delete, path = "/games/{id}/conditional-moves", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 204, description = "No lines remain"),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    )
)]
pub async fn drop_conditional_moves(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    state.service.games().drop_conditional_moves(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
