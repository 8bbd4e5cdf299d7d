//! Service-level endpoints: health, the OpenAPI document, variants.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::ApiResult;
use crate::http::AppState;

pub async fn health() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

pub async fn openapi_json() -> Json<Value> {
    Json(crate::http::openapi_document())
}

pub async fn list_variants(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.variants()).into_response())
}
