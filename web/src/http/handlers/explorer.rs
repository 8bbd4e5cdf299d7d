//! The opening explorer over HTTP: a preset's position after some moves, and the moves
//! finished games played from it (mirror images folded together).

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{ApiResult, VariantPath};
use crate::AppState;
use crate::http::auth::Viewer;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::service::explorer::{BalanceView, ExplorerView};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExplorerQuery {
    /// The moves from the start, comma-separated (`d1-d3,e5-e7`); none for the start itself.
    /// At most 30.
    moves: Option<String>,
}

/// A position of the opening explorer: how finished games through it ended, and each move
/// played from it (its mirror images on a symmetric board counted with it)
///
/// Positions are those finished games of the preset reached in their first 30 moves, with
/// the board's rotations and mirrors folded together; the moves are shown in the orientation
/// asked. `analysis_board` opens the position on the web client's analysis board, where the
/// engine's line is.
#[utoipa::path(
    get, path = "/explorer/{variant}", tag = "games", security((), ("bearer" = [])),
    params(VariantPath, ExplorerQuery),
    responses(
        (status = 200, description = "The position and its moves", body = ExplorerView),
        (status = 404, description = "No preset has this id (`not_found`)", body = ErrorBody),
        (status = 422, description = "A move that cannot be played there, with the reason, or more than 30 (`invalid`)", body = ErrorBody),
    )
)]
pub async fn explorer(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath(VariantPath { variant }): ApiPath<VariantPath>,
    ApiQuery(q): ApiQuery<ExplorerQuery>,
) -> ApiResult<Response> {
    let view = state
        .service
        .explorer()
        .position(&variant, q.moves.as_deref().unwrap_or_default())
        .await?;
    Ok(Json(view).into_response())
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BalanceQuery {
    /// One preset's balance (`brandubh`); every variant with finished games when left out.
    variant: Option<String>,
}

/// The variant balance: how often each side wins each preset, overall and per rating band
///
/// Over every finished game of the preset (played and imported). A band holds the games
/// whose players' average rating, before the game was rated, falls in it (`band_width`
/// wide); games where a side had no rating (the AI, an imported name, a player not rated in
/// the variant yet) have a band of their own, `rating_from` null, listed last.
#[utoipa::path(
    get, path = "/explorer/balance", tag = "games", security((), ("bearer" = [])),
    params(BalanceQuery),
    responses(
        (status = 200, description = "Each variant's results, overall and per band", body = BalanceView),
        (status = 404, description = "No preset has this id (`not_found`)", body = ErrorBody),
    )
)]
pub async fn explorer_balance(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiQuery(q): ApiQuery<BalanceQuery>,
) -> ApiResult<Response> {
    let view = state
        .service
        .explorer()
        .balance(q.variant.as_deref())
        .await?;
    Ok(Json(view).into_response())
}
