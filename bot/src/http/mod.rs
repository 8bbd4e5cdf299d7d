//! The HTTP API (axum), under `/api/v1`. Handlers parse, call the games service and
//! format its answer; every route is listed once in [`routes::table`], which builds both
//! the router and the OpenAPI document.

mod auth;
mod board;
mod error;
mod extract;
mod handlers;
mod openapi;
mod rate_limit;
mod routes;
mod stream;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use tokio::sync::watch;

use crate::config::HttpConfig;
use crate::discord::DiscordStatus;
use crate::service::GamesService;

pub use error::ApiError;
pub use openapi::openapi_document;
pub use rate_limit::RateLimiter;
pub use routes::{API_PREFIX, RouteSpec, table as route_table};

#[derive(Clone)]
pub struct AppState {
    pub service: GamesService,
    pub config: Arc<HttpConfig>,
    pub limiter: Arc<RateLimiter>,
    pub boards: Arc<board::BoardCache>,
    /// Becomes true when the server shuts down, so endless streams end.
    pub shutdown: watch::Receiver<bool>,
    /// The Discord front end's state, for the health endpoint.
    pub discord: DiscordStatus,
}

/// The whole HTTP application.
pub fn router(
    service: GamesService,
    config: HttpConfig,
    shutdown: watch::Receiver<bool>,
    discord: DiscordStatus,
) -> Router {
    let state = AppState {
        limiter: Arc::new(RateLimiter::new(
            config.rate_limit_per_second,
            config.rate_limit_burst,
        )),
        boards: Arc::new(board::BoardCache::new(config.board_cache_entries)),
        service,
        shutdown,
        discord,
        config: Arc::new(config),
    };
    let mut api = Router::new();
    for (spec, method_router) in routes::table() {
        api = api.route(spec.path, method_router);
    }
    Router::new()
        .nest(API_PREFIX, api)
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
        .with_state(state)
}
