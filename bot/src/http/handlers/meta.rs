//! Service-level endpoints: health, the OpenAPI document, variants.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::ApiResult;
use crate::discord::DiscordState;
use crate::http::AppState;
use crate::service::Clock;
use axum::http::StatusCode;

/// Alive, and whether Discord is connected. With Discord configured and given up (a refused
/// token, failed command registration) the service is not what it claims to be: 503.
pub async fn health(State(state): State<AppState>) -> Response {
    let discord = state.ops.discord.get();
    let (code, status) = match &discord {
        DiscordState::Failed { .. } => (StatusCode::SERVICE_UNAVAILABLE, "failing"),
        DiscordState::Off | DiscordState::Connected => (StatusCode::OK, "ok"),
        DiscordState::Connecting | DiscordState::Reconnecting { .. } => {
            (StatusCode::OK, "degraded")
        }
    };
    (code, Json(json!({ "status": status, "discord": discord }))).into_response()
}

/// Ready to serve: the store takes a write and answers a read, the scheduler has run lately
/// (when it runs), and Discord is connected (when configured). 503 when any is not.
pub async fn ready(State(state): State<AppState>) -> Response {
    let started = std::time::Instant::now();
    let database = match state.service.probe_store().await {
        Ok(()) => json!({ "ok": true, "ms": started.elapsed().as_millis() as u64 }),
        Err(e) => json!({ "ok": false, "error": e.to_string() }),
    };
    let scheduler = match state.ops.scheduler_every {
        None => json!({ "ok": true, "state": "off" }),
        Some(every) => {
            let last = state.service.last_scheduler_pass_ms();
            let age_ms = last.map(|at| crate::service::SystemClock.now_ms() - at);
            // Three missed passes, and a few seconds for a slow one.
            let limit_ms = i64::try_from(every.as_millis() * 3).unwrap_or(i64::MAX) + 5_000;
            json!({ "ok": age_ms.is_some_and(|age| age <= limit_ms), "last_pass_ms_ago": age_ms })
        }
    };
    let discord = state.ops.discord.get();
    let discord_ok = matches!(discord, DiscordState::Off | DiscordState::Connected);
    let ready = database["ok"] == true && scheduler["ok"] == true && discord_ok;
    let code = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({
        "ready": ready,
        "checks": {
            "database": database,
            "scheduler": scheduler,
            "discord": { "ok": discord_ok, "status": discord },
        }
    });
    (code, Json(body)).into_response()
}

/// Prometheus metrics (text format), with the outbox depths read at the moment.
pub async fn metrics(State(state): State<AppState>) -> Response {
    let Some(handle) = crate::telemetry::handle() else {
        return (StatusCode::NOT_FOUND, "metrics are off in this process").into_response();
    };
    match state.service.outbox_depths().await {
        Ok((discord, webhooks)) => {
            metrics::gauge!(crate::telemetry::OUTBOX_PENDING, "outbox" => "discord")
                .set(discord as f64);
            metrics::gauge!(crate::telemetry::OUTBOX_PENDING, "outbox" => "webhooks")
                .set(webhooks as f64);
        }
        Err(e) => tracing::warn!("outbox depths not read: {e}"),
    }
    metrics::counter!(crate::telemetry::LOG_LINES_DROPPED)
        .absolute(crate::logging::dropped_lines() as u64);
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle.render(),
    )
        .into_response()
}

pub async fn openapi_json() -> Json<Value> {
    Json(crate::http::openapi_document())
}

pub async fn list_variants(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.variants()).into_response())
}
