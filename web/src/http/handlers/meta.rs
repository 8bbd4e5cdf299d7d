//! Service-level endpoints: health, the OpenAPI document, variants.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use super::ApiResult;
use crate::AppState;
use crate::health::DiscordState;
use crate::logging::ErrorChain;
use crate::service::{Clock, VariantView};
use crate::shard_health::{ShardReport, ShardStateName};
use axum::http::StatusCode;

/// Whether the service is alive, and the Discord front end's state.
#[derive(Serialize, ToSchema)]
pub struct Health {
    pub status: HealthStatus,
    pub discord: DiscordState,
    /// This instance's gateway shards (empty without Discord): each one's state and how long
    /// since Discord last sent on it. A shard `silent`, `stopped` or not yet connected makes
    /// the status `degraded`.
    pub shards: Vec<ShardReport>,
}

/// `ok`; `degraded` while Discord (re)connects; `failing` once Discord has given up.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Ok,
    Degraded,
    Failing,
}

/// Alive, and whether Discord is connected
///
/// With Discord configured and given up (a refused token, failed command registration) the
/// service is not what it claims to be: 503.
#[utoipa::path(
    get, path = "/health", tag = "operations",
    responses(
        (status = 200, description = "Alive", body = Health),
        (status = 503, description = "Discord is configured and has given up", body = Health),
    )
)]
pub async fn health(State(state): State<AppState>) -> Response {
    let discord = state.ops.discord.get();
    let shards = state.ops.discord.shards().reports();
    let every_shard_connected = shards
        .iter()
        .all(|shard| shard.state == ShardStateName::Connected);
    let (code, status) = match &discord {
        DiscordState::Failed { .. } => (StatusCode::SERVICE_UNAVAILABLE, HealthStatus::Failing),
        DiscordState::Off => (StatusCode::OK, HealthStatus::Ok),
        DiscordState::Connected if every_shard_connected => (StatusCode::OK, HealthStatus::Ok),
        DiscordState::Connected
        | DiscordState::Connecting
        | DiscordState::CommandsNotRegistered { .. }
        | DiscordState::Reconnecting { .. }
        | DiscordState::SessionStartsExhausted { .. } => (StatusCode::OK, HealthStatus::Degraded),
    };
    (
        code,
        Json(Health {
            status,
            discord,
            shards,
        }),
    )
        .into_response()
}

/// How long readiness waits for the store's probe at most: the whole answer comes within a
/// second.
const STORE_PROBE: std::time::Duration = std::time::Duration::from_millis(800);

/// Whether the service is ready to serve, and each check's result.
#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// Every check is ok.
    pub ready: bool,
    pub checks: ReadinessChecks,
}

#[derive(Serialize, ToSchema)]
pub struct ReadinessChecks {
    pub database: StoreCheck,
    pub scheduler: SchedulerCheck,
    pub discord: DiscordCheck,
}

/// A write through the store's writer and a read on a reader.
#[derive(Serialize, ToSchema)]
pub struct StoreCheck {
    pub ok: bool,
    /// How long the probe took (when ok).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    /// What failed (when not ok).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The scheduler's last pass: at most three intervals and 5 s ago, when it runs.
#[derive(Serialize, ToSchema)]
pub struct SchedulerCheck {
    pub ok: bool,
    /// `off` when this process runs no scheduler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<SchedulerState>,
    /// Milliseconds since its last pass; null before the first (absent when off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_pass_ms_ago: Option<Option<i64>>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SchedulerState {
    Off,
}

/// Discord connected, when configured.
#[derive(Serialize, ToSchema)]
pub struct DiscordCheck {
    pub ok: bool,
    pub status: DiscordState,
}

/// Readiness: store, scheduler and Discord (503 when not ready)
///
/// Ready to serve: the store takes a write and answers a read, the scheduler has run lately
/// (when it runs), and Discord is connected (when configured).
#[utoipa::path(
    get, path = "/health/ready", tag = "operations",
    responses(
        (status = 200, description = "Ready", body = Readiness),
        (status = 503, description = "Not ready: see which check failed", body = Readiness),
    )
)]
pub async fn ready(State(state): State<AppState>) -> Response {
    let started = std::time::Instant::now();
    // Time-boxed: a load balancer asking whether to send traffic here needs an answer at
    // once, above all when the database is stuck; and within the request's own deadline,
    // which would answer in the API's error shape instead.
    let probe = STORE_PROBE.min(std::time::Duration::from_millis(
        state.config.request_timeout_ms / 2,
    ));
    let database = match tokio::time::timeout(probe, state.service.probe_store()).await {
        Ok(Ok(())) => StoreCheck {
            ok: true,
            ms: Some(started.elapsed().as_millis() as u64),
            error: None,
        },
        Ok(Err(e)) => StoreCheck {
            ok: false,
            ms: None,
            error: Some(e.to_string()),
        },
        Err(_) => StoreCheck {
            ok: false,
            ms: None,
            error: Some(format!(
                "the database did not answer within {} ms",
                probe.as_millis()
            )),
        },
    };
    let scheduler = match state.ops.scheduler_every {
        None => SchedulerCheck {
            ok: true,
            state: Some(SchedulerState::Off),
            last_pass_ms_ago: None,
        },
        Some(every) => {
            let last = state.service.scheduler().last_pass_ms();
            let age_ms = last.map(|at| crate::service::SystemClock.now_ms() - at);
            // Three missed passes, and a few seconds for a slow one.
            let limit_ms = i64::try_from(every.as_millis() * 3).unwrap_or(i64::MAX) + 5_000;
            SchedulerCheck {
                ok: age_ms.is_some_and(|age| age <= limit_ms),
                state: None,
                last_pass_ms_ago: Some(age_ms),
            }
        }
    };
    let discord = state.ops.discord.get();
    let discord = DiscordCheck {
        ok: matches!(discord, DiscordState::Off | DiscordState::Connected),
        status: discord,
    };
    let ready = database.ok && scheduler.ok && discord.ok;
    let code = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = Readiness {
        ready,
        checks: ReadinessChecks {
            database,
            scheduler,
            discord,
        },
    };
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
        Err(e) => tracing::warn!(error = %ErrorChain(&e), "outbox depths not read"),
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

/// This OpenAPI document
#[utoipa::path(
    get, path = "/openapi.json", tag = "operations",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", body = Object))
)]
pub async fn openapi_json(State(state): State<AppState>) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        state.document.clone(),
    )
        .into_response()
}

/// Variants with rules summaries and start positions
#[utoipa::path(
    get, path = "/variants", tag = "games",
    responses((status = 200, description = "Every preset", body = Vec<VariantView>))
)]
pub async fn list_variants(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.games().variants()).into_response())
}
