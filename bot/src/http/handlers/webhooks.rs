//! Webhooks: register, list, remove.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::domain::WebhookId;

use super::ApiResult;
use crate::http::AppState;
use crate::http::auth::Authed;
use crate::http::extract::{ApiJson, ApiPath};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewWebhookBody {
    url: String,
    secret: String,
}

pub async fn add_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewWebhookBody>,
) -> ApiResult<Response> {
    let hook = state
        .service
        .add_webhook(me, &body.url, &body.secret)
        .await?;
    Ok((StatusCode::CREATED, Json(hook)).into_response())
}

pub async fn list_webhooks(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.webhooks(me).await?).into_response())
}

pub async fn remove_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<WebhookId>,
) -> ApiResult<Response> {
    state.service.remove_webhook(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
