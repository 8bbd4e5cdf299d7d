//! Players: registration, the token's own player, handles, finding players.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{ApiResult, page_number};
use crate::http::auth::{Authed, Viewer};
use crate::http::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::http::{AppState, ClientKey};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    name: String,
    /// Made from the name when absent.
    handle: Option<String>,
}

pub async fn register_player(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    ApiJson(body): ApiJson<NewPlayerBody>,
) -> ApiResult<Response> {
    if !state.config.allow_registration {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "registration_closed",
            "registration over HTTP is turned off here; ask the Discord bot for a token with /token",
        ));
    }
    // Registration needs no token: counted per client address, so one client cannot lock
    // everyone else out.
    if let Err(secs) = state.registrations.check(client) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many registrations from your address; retry in {secs} s"),
        );
        e.retry_after_secs = Some(secs);
        return Err(e);
    }
    let issued = state
        .service
        .register_player(&body.name, body.handle.as_deref())
        .await?;
    Ok((StatusCode::CREATED, Json(issued)).into_response())
}

pub async fn me(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.player(me).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateMeBody {
    handle: String,
}

pub async fn update_me(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<UpdateMeBody>,
) -> ApiResult<Response> {
    Ok(Json(state.service.change_handle(me, &body.handle).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersQuery {
    prefix: Option<String>,
    page: Option<u32>,
}

pub async fn list_players(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiQuery(q): ApiQuery<PlayersQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    let found = state
        .service
        .players_by_prefix(q.prefix.as_deref().unwrap_or_default(), page)
        .await?;
    Ok(Json(found).into_response())
}

pub async fn get_player(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(handle): ApiPath<String>,
) -> ApiResult<Response> {
    Ok(Json(state.service.player_profile(&handle, viewer).await?).into_response())
}
