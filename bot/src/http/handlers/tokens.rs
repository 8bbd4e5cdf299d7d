//! API tokens: list, create (the token is shown once), revoke.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::domain::TokenId;

use super::ApiResult;
use crate::http::AppState;
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTokenBody {
    name: String,
}

pub async fn list_tokens(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.tokens(me).await?).into_response())
}

pub async fn create_token(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewTokenBody>,
) -> ApiResult<Response> {
    let created = state.service.create_token(me, &body.name).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

pub async fn revoke_token(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TokenId>,
) -> ApiResult<Response> {
    state.service.revoke_token(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
