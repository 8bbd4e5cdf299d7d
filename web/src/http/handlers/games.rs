//! Games: list, view, legal moves, moves, resign, abort, draws, export.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tafl_engine::Side;
use utoipa::{IntoParams, ToSchema};

use crate::domain::GameId;
use crate::service::{GameSummary, GameView, LegalMovesView, MovePlayed, MoveRequest};

use super::ApiResult;
use crate::AppState;
use crate::http::auth::{Authed, Viewer};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};

/// My games: my turn first, most urgent deadline first
#[utoipa::path(
    get, path = "/games", tag = "games", security(("bearer" = [])),
    responses((status = 200, description = "My games", body = Vec<GameSummary>))
)]
pub async fn list_games(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.games().list_games(me).await?).into_response())
}

/// One game with position, moves, clock and ratings (no token needed for a public game)
///
/// `board` lists the rows top rank first; `position`, an OpenTafl record, runs the other
/// way, its first row rank 1.
///
/// A public game (the default) can be read by anyone without a token; a private one
/// (`private: true` on its challenge) answers 404 to anyone but its players, who send their
/// token. Anonymous readers are limited per client address (`http.anonymous_per_second`).
#[utoipa::path(
    get, path = "/games/{id}", tag = "games", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game", body = GameView),
        (status = 404, description = "No such game, or a private game and not one of its players", body = ErrorBody),
    )
)]
pub async fn get_game(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().visible_game(viewer, id).await?).into_response())
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LegalQuery {
    /// Only the moves from this square (file letter, rank number).
    #[param(pattern = r"^\s*[A-Za-z][0-9]{1,2}\s*$", example = "e5")]
    from: Option<String>,
    /// Whose moves (default: the side to move); the answer names the side and whether it is
    /// to move.
    #[param(value_type = Option<crate::domain::SideSchema>)]
    side: Option<Side>,
}

/// Legal moves of a side (?side=, default the side to move), optionally from one square (?from=e5)
///
/// The side not to move gets the moves it could play were it its turn; none once the game
/// is over.
#[utoipa::path(
    get, path = "/games/{id}/legal-moves", tag = "games", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id"), LegalQuery),
    responses(
        (status = 200, description = "The moves", body = LegalMovesView),
        (status = 422, description = "`from` is not a square of this board", body = ErrorBody),
    )
)]
pub async fn legal_moves(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<LegalQuery>,
) -> ApiResult<Response> {
    state.service.games().ensure_visible(viewer, id).await?;
    let legal = state
        .service
        .games()
        .legal_moves_of(id, q.side, q.from.as_deref())
        .await?;
    Ok(Json(legal).into_response())
}

/// A move.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewMoveBody {
    /// From square to square, forgiving: "e5-e8", "E5 e8", "e5e8".
    #[serde(rename = "move")]
    #[schema(example = "e5-e8")]
    mv: String,
    /// The game's current ply (moves played so far), as last seen: a move made against a
    /// stale ply is refused with 409 and the current game.
    ply: u32,
}

const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// Make a move; 'ply' is the game's current ply (optional Idempotency-Key header)
///
/// The answer names the move's `captures` (squares of the soldiers taken off the board) and
/// `king_captured`: the king's square when this move captured him, else null. The king is
/// never in `captures`: he stays on his square, and under rescue rules the defenders may yet
/// free him; `result` says whether the game is over. The move_played event carries both
/// fields too.
#[utoipa::path(
    post, path = "/games/{id}/moves", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id"),
        ("Idempotency-Key" = Option<String>, Header, pattern = r"^[ \t]*[!-~](?:[ -~\t]{0,198}[!-~])?[ \t]*$",
            description = "1 to 200 visible ASCII characters: a repeat of the same request with the same key gets the first answer again")),
    request_body = NewMoveBody,
    responses(
        (status = 200, description = "The move, and the game after it", body = MovePlayed),
        (status = 400, description = "The Idempotency-Key is not 1 to 200 visible ASCII characters", body = ErrorBody),
        (status = 403, description = "Not my game (`forbidden`), or not my turn (`not_your_turn`)", body = ErrorBody),

        (status = 409, description = "`ply` is stale (`conflict`, with `error.game` the game as it is now), or the game is over (`game_over`)", body = ErrorBody),
        (status = 422, description = "An illegal move (`illegal_move`, with the engine's reason), or an Idempotency-Key already used for another request", body = ErrorBody),
    )
)]
pub async fn play_move(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewMoveBody>,
) -> ApiResult<Response> {
    let key = match headers.get(IDEMPOTENCY_KEY) {
        None => None,
        Some(v) => {
            let key = v
                .to_str()
                .ok()
                .map(str::trim)
                .filter(|k| !k.is_empty() && k.len() <= 200);
            Some(key.map(str::to_owned).ok_or_else(|| {
                ApiError::bad_request("Idempotency-Key must be 1 to 200 visible ASCII characters")
            })?)
        }
    };
    let played = state
        .service
        .games()
        .play(
            me,
            id,
            MoveRequest {
                text: body.mv,
                expected_ply: Some(body.ply),
                idempotency_key: key,
            },
        )
        .await?;
    Ok(Json(played).into_response())
}

/// Resign
#[utoipa::path(
    post, path = "/games/{id}/resign", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game, over", body = GameView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 409, description = "The game is over (`game_over`)", body = ErrorBody),
    )
)]
pub async fn resign(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().resign(me, id).await?).into_response())
}

/// Abort before both sides have moved
#[utoipa::path(
    post, path = "/games/{id}/abort", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game, aborted", body = GameView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 409, description = "The game is over (`game_over`); or both sides have moved already (resign instead)", body = ErrorBody),
    )
)]
pub async fn abort(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().abort(me, id).await?).into_response())
}

/// Offer a draw
#[utoipa::path(
    post, path = "/games/{id}/draw/offer", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game, with my offer open", body = GameView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 409, description = "The game is over (`game_over`); or a draw offer is open already", body = ErrorBody),
        (status = 422, description = "The opponent is the AI, which does not agree to draws", body = ErrorBody),
    )
)]
pub async fn offer_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().offer_draw(me, id).await?).into_response())
}

/// Accept the opponent's draw offer
#[utoipa::path(
    post, path = "/games/{id}/draw/accept", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game, drawn", body = GameView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 409, description = "The game is over (`game_over`); or the opponent has no draw offer open", body = ErrorBody),
    )
)]
pub async fn accept_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().accept_draw(me, id).await?).into_response())
}

/// Decline the opponent's draw offer
#[utoipa::path(
    post, path = "/games/{id}/draw/decline", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game, the offer gone", body = GameView),
        (status = 403, description = "Not my game", body = ErrorBody),
        (status = 409, description = "The game is over (`game_over`); or the opponent has no draw offer open", body = ErrorBody),
    )
)]
pub async fn decline_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.games().decline_draw(me, id).await?).into_response())
}

/// The game as an OpenTafl .otg record
///
/// Anyone may read a public game's; a private game answers 404 to anyone but its players.
///
/// The engine's writer, with a `date` tag (the day the game started, UTC, `YYYY-MM-DD`);
/// resignations, timeouts and agreed draws add `result` and `termination` tags.
#[utoipa::path(
    get, path = "/games/{id}/export", tag = "games", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses((status = 200, description = "The record", body = String, content_type = "text/plain",
        headers(("Content-Disposition" = String, description = "attachment; filename=\"taflbot-game-<id>.otg\""))))
)]
pub async fn export_game(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    state.service.games().ensure_visible(viewer, id).await?;
    let text = state.service.games().export_otg(id).await?;
    Ok(super::otg_attachment(
        &format!("taflbot-game-{id}.otg"),
        text,
    ))
}
