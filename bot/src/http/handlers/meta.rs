//! Service-level endpoints: health, the OpenAPI document, variants.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::ApiResult;
use crate::discord::DiscordState;
use crate::http::AppState;
use axum::http::StatusCode;

/// Alive, and whether Discord is connected. With Discord configured and given up (a refused
/// token, failed command registration) the service is not what it claims to be: 503.
pub async fn health(State(state): State<AppState>) -> Response {
    let discord = state.discord.get();
    let (code, status) = match &discord {
        DiscordState::Failed { .. } => (StatusCode::SERVICE_UNAVAILABLE, "failing"),
        DiscordState::Off | DiscordState::Connected => (StatusCode::OK, "ok"),
        DiscordState::Connecting | DiscordState::Reconnecting { .. } => {
            (StatusCode::OK, "degraded")
        }
    };
    (code, Json(json!({ "status": status, "discord": discord }))).into_response()
}

pub async fn openapi_json() -> Json<Value> {
    Json(crate::http::openapi_document())
}

pub async fn list_variants(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.variants()).into_response())
}
