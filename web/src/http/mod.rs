//! The HTTP API (axum), under `/api/v1`. Handlers parse, call the games service and
//! format its answer; every route is listed once in [`routes::routes`], each with the
//! operation its handler declares, which builds the router, the OpenAPI document, and the
//! list of query parameters each route takes.

mod auth;
pub(super) mod board;
mod complaints;
mod error;
pub(super) mod extract;
pub(super) mod handlers;
pub(super) mod observe;
pub(super) mod openapi;
mod refusals;
mod routes;
mod stream;

pub use super::{AppState, ClientAddr, ClientKey, Ops, RateLimiter, TrustedProxies};
pub use error::ApiError;
pub use openapi::openapi_document;
pub use routes::{API_PREFIX, RouteSpec, table as route_table};
pub use stream::{Keepalive, StreamLine};

/// CORS for the routes anyone may read: any origin, GET only, no credentials.
pub(crate) fn public_cors() -> tower_http::cors::CorsLayer {
    tower_http::cors::CorsLayer::new()
        .allow_origin(tower_http::cors::Any)
        .allow_methods([axum::http::Method::GET])
        .expose_headers([
            axum::http::header::ETAG,
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderName::from_static("x-request-id"),
        ])
}
