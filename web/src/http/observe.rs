//! What the HTTP layer tells operators: a request id on every request and answer, a span per
//! request carrying it, and request counts and latencies by route for `/metrics`. The id of
//! the request being answered, for answers built without the request at hand, is
//! `server::request_id`'s (the web client names it too).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Request ids: a per-process prefix (the start time) and a counter, short and unique enough
/// to find one request in the logs.
#[derive(Clone)]
pub struct NextRequestId {
    prefix: u64,
}

static COUNTER: AtomicU64 = AtomicU64::new(1);

impl MakeRequestId for NextRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let id = format!("{:x}-{n:x}", self.prefix);
        HeaderValue::from_str(&id).ok().map(RequestId::new)
    }
}

/// Gives every request an `x-request-id` (a client's own is kept).
pub fn set_request_id() -> SetRequestIdLayer<NextRequestId> {
    let prefix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    SetRequestIdLayer::new(REQUEST_ID, NextRequestId { prefix })
}

/// Returns the request's id on its answer.
pub fn propagate_request_id() -> PropagateRequestIdLayer {
    PropagateRequestIdLayer::new(REQUEST_ID)
}

/// The span of a request: method, route and request id.
pub fn request_span(request: &Request) -> tracing::Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        method = %request.method(),
        route = route_of(request),
        request_id = ?id,
    )
}

/// The route template (`/api/v1/games/{id}`), so labels stay few; `unmatched` otherwise.
fn route_of(request: &Request) -> String {
    request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned())
}

/// Counts the request and its latency by route, method and status.
pub async fn count_request(request: Request, next: Next) -> Response {
    let route = route_of(&request);
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    crate::telemetry::http_request(
        route,
        method,
        response.status().as_u16(),
        started.elapsed().as_secs_f64(),
    );
    response
}
