//! Time limits of a request after its headers (the accept loop times the headers themselves):
//! - its body must arrive whole within between half and all of `http.body_timeout_ms` (drawn
//!   per request, as the accept loop draws the header timeout: bodies started together do not
//!   all time out together) of the request's start; one that does not is answered `408` and
//!   its connection closed, so a client that sends a body a byte at a time (or never) holds
//!   its connection for that long at most;
//! - its answer must be ready within `http.request_timeout_ms` (the body's time included):
//!   a request still waiting then, for the database most likely, is answered `503` with
//!   `Retry-After`, rather than holding its connection and its client for as long as the
//!   database stays stuck.
//!
//! A streamed answer (an event stream, a `.otg` export) is ready once its head is: these
//! limits end where its body starts.
//!
//! The store answers first, as a rule: each of its calls has a deadline of its own, the answer
//! wait (2 s, `store/src/lib.rs`), so this one is for what waits on something else. Whichever
//! deadline passes, a write the writer had not yet started is not made; one it had started may
//! still be committed. A client that retries a move after a `503` should send the same
//! `Idempotency-Key`; without one the repeat gets `409` if the first was played after all.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, SizeHint};
use tokio::time::Sleep;

use super::http::ApiError;

/// `Retry-After` of a request that outlived its deadline: the database is usually back soon.
const RETRY_AFTER_SECS: u64 = 1;

/// The two limits, from `http.body_timeout_ms` and `http.request_timeout_ms`.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    pub body: Duration,
    pub request: Duration,
}

/// Where a request's body stands, shared by the body and the middleware that answers.
#[derive(Debug)]
struct BodyState(AtomicU8);

const READING: u8 = 0;
const READ: u8 = 1;
const TIMED_OUT: u8 = 2;

impl BodyState {
    fn reading() -> BodyState {
        BodyState(AtomicU8::new(READING))
    }
    fn set(&self, state: u8) {
        self.0.store(state, Ordering::Release);
    }
    fn get(&self) -> u8 {
        self.0.load(Ordering::Acquire)
    }
}

/// A request body that fails once its deadline has passed, however its bytes trickle in.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<Sleep>>,
    state: Arc<BodyState>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        if this.state.get() == TIMED_OUT {
            return Poll::Ready(None);
        }
        // The deadline first: a body that always has one more byte ready is still too slow.
        if this.deadline.as_mut().poll(cx).is_ready() {
            this.state.set(TIMED_OUT);
            return Poll::Ready(Some(Err(axum::Error::new(
                "the body did not arrive within http.body_timeout_ms",
            ))));
        }
        let frame = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(None) = frame {
            this.state.set(READ);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The middleware: the body under its deadline, the answer under the request's.
pub async fn enforce(State(limits): State<Deadlines>, request: Request, next: Next) -> Response {
    let state = Arc::new(BodyState::reading());
    let (parts, body) = request.into_parts();
    let body = if body.is_end_stream() {
        state.set(READ);
        body
    } else {
        Body::new(DeadlineBody {
            inner: body,
            deadline: Box::pin(tokio::time::sleep(jittered(limits.body))),
            state: Arc::clone(&state),
        })
    };
    let answer = tokio::time::timeout(limits.request, next.run(Request::from_parts(parts, body)));
    match answer.await {
        Ok(_) if state.get() == TIMED_OUT => body_too_slow(limits.body),
        Ok(response) => response,
        // Still reading the body: the client is slow, not the server.
        Err(_) if state.get() != READ => body_too_slow(limits.body),
        Err(_) => {
            tracing::warn!(
                limit_ms = limits.request.as_millis() as u64,
                "a request outlived http.request_timeout_ms; answered 503"
            );
            let mut error = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                format!(
                    "the server could not answer within {} ms (the database is slow or stuck); \
                     try again shortly",
                    limits.request.as_millis()
                ),
            );
            error.retry_after_secs = Some(RETRY_AFTER_SECS);
            error.request_id = super::request_id::current();
            error.into_response()
        }
    }
}

/// Between half and all of `limit`. The draws need no secrecy, only spread: a counter mixed
/// by splitmix64.
fn jittered(limit: Duration) -> Duration {
    static DRAWS: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
    let mut z = DRAWS.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let fraction = (z >> 11) as f64 / (1u64 << 53) as f64;
    limit.mul_f64(0.5 + 0.5 * fraction)
}

/// `408`, and the connection closed: what is left of the body is never read.
fn body_too_slow(limit: Duration) -> Response {
    let mut response = ApiError::new(
        StatusCode::REQUEST_TIMEOUT,
        "request_timeout",
        format!(
            "the request's body did not arrive within {} ms",
            limit.as_millis()
        ),
    )
    .into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_deadlines_lie_between_half_and_all_and_are_spread() {
        let limit = Duration::from_secs(10);
        let drawn: Vec<Duration> = (0..1000).map(|_| jittered(limit)).collect();
        assert!(drawn.iter().all(|d| *d >= limit / 2 && *d <= limit));
        let early = drawn.iter().filter(|d| **d < limit * 3 / 4).count();
        assert!(
            (300..700).contains(&early),
            "{early} of 1000 in the first half"
        );
    }
}
