//! Webhooks: register, list, remove.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::WebhookId;

use super::ApiResult;
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath};
use crate::service::WebhookView;

/// A new webhook.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhookBody {
    /// An `https` URL whose host resolves only to public addresses (unless the operator
    /// allows more in `webhooks.allow_private`).
    #[schema(example = "https://example.org/taflbot-events")]
    url: String,
    /// The key of each delivery's `X-Taflbot-Signature`.
    #[schema(schema_with = crate::service::webhook_secret_schema)]
    secret: String,
}

/// Register a webhook (url, secret) for my events
///
/// Each of my events is then POSTed to `url` as the JSON `Event`, with the headers
/// `X-Taflbot-Event-Id`, `X-Taflbot-Timestamp` (Unix seconds) and
/// `X-Taflbot-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, retried
/// with backoff until a 2xx: delivery is at least once, so deduplicate by event id.
#[utoipa::path(
    post, path = "/webhooks", tag = "webhooks", security(("bearer" = [])),
    request_body = NewWebhookBody,
    responses(
        (status = 201, description = "Registered", body = WebhookView),
        (status = 422, description = "Not a URL, not `https`, a host in a private network, a secret not 8 to 256 characters, or 10 webhooks already", body = ErrorBody),
    )
)]
pub async fn add_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewWebhookBody>,
) -> ApiResult<Response> {
    let hook = state
        .service
        .webhooks()
        .add(me, &body.url, &body.secret)
        .await?;
    Ok((StatusCode::CREATED, Json(hook)).into_response())
}

/// My webhooks
#[utoipa::path(
    get, path = "/webhooks", tag = "webhooks", security(("bearer" = [])),
    responses((status = 200, description = "My webhooks, never their secrets", body = Vec<WebhookView>))
)]
pub async fn list_webhooks(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.webhooks().list(me).await?).into_response())
}

/// Remove a webhook
#[utoipa::path(
    delete, path = "/webhooks/{id}", tag = "webhooks", security(("bearer" = [])),
    params(("id" = WebhookId, Path, description = "The webhook's id")),
    responses((status = 204, description = "Removed"))
)]
pub async fn remove_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<WebhookId>,
) -> ApiResult<Response> {
    state.service.webhooks().remove(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
