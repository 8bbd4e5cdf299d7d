//! Computer analysis of a game: ask for one, read it.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::domain::{AnalysisStatus, GameId};
use crate::http::auth::{Authed, Viewer};
use crate::http::error::ErrorBody;
use crate::http::extract::ApiPath;
use crate::service::{AnalysisView, Asker};
use crate::{AppState, ClientKey};

use super::ApiResult;

/// Ask for the computer analysis of a game
///
/// Every position of the game is searched (`games.analysis_ms_per_ply` each) in a queue shared
/// by every game; an `analysis_done` event follows. A finished game may be analysed by anyone
/// who can see it; a game still going only by its player, and only against the AI.
/// Asking again for the same game, at the same length, answers the same analysis.
#[utoipa::path(
    post, path = "/games/{id}/analysis", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The analysis, done", body = AnalysisView),
        (status = 202, description = "The analysis, queued or running: see `queue_position`", body = AnalysisView),
        (status = 403, description = "A game still being played against a person, or not my game", body = ErrorBody),
        (status = 404, description = "No such game, or a private game and not one of its players", body = ErrorBody),
        (status = 422, description = "The game has no move yet", body = ErrorBody),
        (status = 429, description = "More than the asker's share of the queue: their own analyses waiting (`games.analysis_max_queued_per_player`, a new account's `games.analysis_max_queued_new_account`), or those asked from their address (`games.analysis_max_queued_per_address`); or within the cooldown (`rate_limited`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The analysis queue is full for now", body = ErrorBody),
    )
)]
pub async fn request_analysis(
    State(state): State<AppState>,
    Authed(me): Authed,
    client: ClientKey,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    let asker = Asker {
        player: me,
        from: client.network(),
    };
    let view = state.service.analysis().request(asker, id).await?;
    let status = match view.status {
        AnalysisStatus::Done => StatusCode::OK,
        AnalysisStatus::Queued | AnalysisStatus::Running => StatusCode::ACCEPTED,
    };
    Ok((status, Json(view)).into_response())
}

/// A game's computer analysis: its place in the queue, then every ply judged
///
/// Each ply has the defenders' winning chance before and after it, the move the search
/// preferred and its line, a result the search proved, and a mark (best, good, inaccuracy,
/// mistake, blunder, missed win); the summary has each side's accuracy and the worst moves.
#[utoipa::path(
    get, path = "/games/{id}/analysis", tag = "games", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The latest analysis of the game", body = AnalysisView),
        (status = 403, description = "A game still being played, and not my game", body = ErrorBody),
        (status = 404, description = "No such game or no analysis yet (or a private game and not one of its players)", body = ErrorBody),
    )
)]
pub async fn get_analysis(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.analysis().get(viewer, id).await?).into_response())
}
