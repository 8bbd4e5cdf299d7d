//! Leaderboards (a variant's rated players, best first) and a player's rating history.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{ApiResult, page_number};
use crate::http::AppState;
use crate::http::auth::Viewer;
use crate::http::extract::{ApiPath, ApiQuery};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    page: Option<u32>,
}

pub async fn rating_history(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath((handle, variant)): ApiPath<(String, String)>,
    ApiQuery(q): ApiQuery<LeaderboardQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    let player = state.service.player_by_handle(&handle).await?;
    let history = state
        .service
        .rating_history(player.id, &variant, page)
        .await?;
    Ok(Json(history).into_response())
}

pub async fn leaderboard(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath(variant): ApiPath<String>,
    ApiQuery(q): ApiQuery<LeaderboardQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    Ok(Json(state.service.leaderboard(&variant, None, page).await?).into_response())
}
