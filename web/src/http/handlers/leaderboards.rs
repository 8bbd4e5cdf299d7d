//! Leaderboards (a variant's rated players, best first) and a player's rating history.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{ApiResult, page_number};
use crate::AppState;
use crate::domain::Handle;
use crate::http::auth::Viewer;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::service::{LeaderboardEntry, Page, RatingHistoryEntry};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// Which page (from 1; default 1); the answer's `next_page` is null on the last.
    #[param(minimum = 1)]
    page: Option<u32>,
}

/// A variant, in a path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct VariantPath {
    /// A preset's id from /variants.
    #[param(schema_with = crate::service::variant_path_schema, required = true)]
    pub variant: String,
}

/// A player and a variant, in a path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PlayerVariantPath {
    /// The player's handle (any case).
    #[param(value_type = Handle)]
    handle: String,
    /// A preset's id from /variants.
    #[param(schema_with = crate::service::variant_path_schema, required = true)]
    variant: String,
}

/// A player's rating changes in a variant, latest first, each with its game (null for a private game of others), 50 a page (?page=)
#[utoipa::path(
    get, path = "/players/{handle}/ratings/{variant}", tag = "players", security((), ("bearer" = [])),
    params(PlayerVariantPath, LeaderboardQuery),
    responses(
        (status = 200, description = "A page of rating changes", body = Page<RatingHistoryEntry>),
        (status = 404, description = "No player has this handle, or no preset this id (`not_found`)", body = ErrorBody),
    )
)]
pub async fn rating_history(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(PlayerVariantPath { handle, variant }): ApiPath<PlayerVariantPath>,
    ApiQuery(q): ApiQuery<LeaderboardQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    let player = state.service.accounts().player_by_handle(&handle).await?;
    let history = state
        .service
        .ratings()
        .rating_history(player.id, &variant, page, viewer)
        .await?;
    Ok(Json(history).into_response())
}

/// A variant's rated players, best first, 50 a page (?page=); provisional ratings left out
#[utoipa::path(
    get, path = "/leaderboards/{variant}", tag = "players", security((), ("bearer" = [])),
    params(VariantPath, LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Page<LeaderboardEntry>),
        (status = 404, description = "No preset has this id (`not_found`)", body = ErrorBody),
    )
)]
pub async fn leaderboard(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath(VariantPath { variant }): ApiPath<VariantPath>,
    ApiQuery(q): ApiQuery<LeaderboardQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    Ok(Json(
        state
            .service
            .ratings()
            .leaderboard(&variant, None, page)
            .await?,
    )
    .into_response())
}
