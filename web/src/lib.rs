//! The server: one app state shared by the HTTP API (`http/`) and the web client (`web/`),
//! with what both need (the client's address, rate limits, the places for open streams), and
//! the router that serves them together on one listener (`listener.rs`).

use taflbot_config as config;
use taflbot_config::health;
use taflbot_config::logging;
use taflbot_config::shard_health;
use taflbot_config::telemetry;
use taflbot_domain as domain;
use taflbot_domain::client_addr;
use taflbot_notify as notify;
use taflbot_service as service;

mod address_slots;
mod deadlines;
pub mod http;
pub mod listener;
mod rate_limit;
mod registration_limit;
pub mod request_id;
mod status;
pub(crate) mod stream_slots;
pub(crate) mod text_input;
pub mod web;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use tokio::sync::watch;
use tower_http::trace::{DefaultOnResponse, TraceLayer};

use crate::config::HttpConfig;
use crate::health::DiscordStatus;
use crate::service::GamesService;

use http::{API_PREFIX, ApiError, board, extract, handlers, observe, openapi};

pub use crate::client_addr::{ClientAddr, TrustedProxies};
pub use rate_limit::{ClientKey, RateLimiter};
pub use registration_limit::registration_refused;
pub use status::status_of;

#[derive(Clone)]
pub struct AppState {
    pub service: GamesService,
    pub config: Arc<HttpConfig>,
    pub limiter: Arc<RateLimiter>,
    /// Registrations, per client address.
    pub registrations: Arc<RateLimiter<Option<std::net::IpAddr>>>,
    /// Requests without a token, per client address.
    pub anonymous: Arc<RateLimiter<Option<std::net::IpAddr>>>,
    /// Failed sign-ins to the web client, per client address.
    pub sign_ins: Arc<RateLimiter<Option<std::net::IpAddr>>>,
    /// The web client's pages for a signed-in visitor, per player (all their sessions
    /// together), at the rate of an API token.
    pub signed_in_pages: Arc<RateLimiter<crate::domain::PlayerId>>,
    pub boards: Arc<board::BoardCache>,
    /// Becomes true when the server shuts down, so endless streams end.
    pub shutdown: watch::Receiver<bool>,
    /// What the health endpoints report besides the store.
    pub ops: Ops,
    /// Places for open event streams.
    pub streams: Arc<stream_slots::StreamSlots>,
    /// The OpenAPI document, serialized once.
    pub document: axum::body::Bytes,
}

/// The running parts the health endpoints look at.
#[derive(Clone)]
pub struct Ops {
    /// The Discord front end's state.
    pub discord: DiscordStatus,
    /// How often the scheduler runs, when it runs.
    pub scheduler_every: Option<std::time::Duration>,
}

/// Routes another front end serves on this listener (e.g. Discord's interactions endpoint),
/// under the same body limit, deadlines and request ids as the API.
pub type FrontEndRoutes = Vec<(&'static str, axum::routing::MethodRouter<AppState>)>;

/// The whole HTTP application: the API under `/api/v1`, the metrics, the web client, and the
/// routes of other front ends.
pub fn router(
    service: GamesService,
    config: HttpConfig,
    shutdown: watch::Receiver<bool>,
    ops: Ops,
    front_ends: FrontEndRoutes,
) -> Router {
    let (api, document) = openapi::api();
    let queries = Arc::new(extract::QueryNames::of(&document));
    let state = AppState {
        document: serde_json::to_vec(&document).unwrap_or_default().into(),
        limiter: Arc::new(RateLimiter::new(
            config.rate_limit_per_second,
            config.rate_limit_burst,
        )),
        registrations: Arc::new(RateLimiter::new(
            config.registration_per_minute / 60.0,
            config.registration_burst,
        )),
        anonymous: Arc::new(RateLimiter::new(
            config.anonymous_per_second,
            config.anonymous_burst,
        )),
        sign_ins: Arc::new(RateLimiter::new(
            config.sign_in_failures_per_minute / 60.0,
            config.sign_in_failures_burst,
        )),
        signed_in_pages: Arc::new(RateLimiter::new(
            config.rate_limit_per_second,
            config.rate_limit_burst,
        )),
        boards: Arc::new(board::BoardCache::new(config.board_cache_entries)),
        service,
        shutdown,
        ops,
        streams: Arc::new(stream_slots::StreamSlots::new(
            config.max_streams_per_player,
            config.max_streams,
        )),
        config: Arc::new(config),
    };
    let api = api.route_layer(axum::middleware::from_fn_with_state(
        queries,
        extract::refuse_unknown_query,
    ));
    let router = front_ends
        .into_iter()
        .fold(Router::new(), |router, (path, route)| {
            router.route(path, route)
        });
    router
        .nest(API_PREFIX, api)
        .route("/metrics", axum::routing::get(handlers::metrics))
        .merge(web::router(state.clone()))
        .fallback(|| async {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no_route",
                "no such endpoint; see /api/v1/openapi.json",
            )
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this endpoint does not take that method; see /api/v1/openapi.json",
            )
        })
        .layer(DefaultBodyLimit::max(state.config.body_limit_bytes))
        // Inside the request id's layers, so a 503 or 408 names its request too.
        .layer(axum::middleware::from_fn_with_state(
            deadlines::Deadlines {
                body: Duration::from_millis(state.config.body_timeout_ms.max(1)),
                request: Duration::from_millis(state.config.request_timeout_ms.max(1)),
            },
            deadlines::enforce,
        ))
        .layer(axum::middleware::from_fn(observe::count_request))
        // Inside `set_request_id`, so the id is there to remember.
        .layer(axum::middleware::from_fn(request_id::remember))
        // A span per request; answers at debug (server errors are logged by their handlers).
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(observe::request_span)
                .on_request(())
                .on_response(DefaultOnResponse::new().level(tracing::Level::DEBUG)),
        )
        .layer(observe::propagate_request_id())
        .layer(observe::set_request_id())
        .with_state(state)
}
