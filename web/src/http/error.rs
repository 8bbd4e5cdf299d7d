//! The JSON error shape of the API: `{"error": {"code": "...", "message": "..."}}`.

use crate::status_of;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::{GameView, ServiceError};

/// `Retry-After` of a 503 caused by the store.
const STORE_RETRY_AFTER_SECS: u64 = 1;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub retry_after_secs: Option<u64>,
    /// The game as it is now, on a conflict, so the client can retry against it.
    pub game: Option<Box<GameView>>,
    /// On an internal error: the request's id, which names its line in the server's log.
    pub request_id: Option<String>,
}

/// Every error answer of the API.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// What went wrong.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable and machine-readable, e.g. `not_found`, `conflict`, `illegal_move`,
    /// `invalid_body`, `bad_query`, `rate_limited`.
    pub code: &'static str,
    /// One sentence naming what was wrong and what is allowed.
    pub message: String,
    /// On a `409 conflict` about a game: the game as it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<Box<GameView>>,
    /// On a `500 internal` error: the request's id (also in `x-request-id`), which names the
    /// cause's line in the server's log; the cause itself is never told.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
            game: None,
            request_id: None,
        }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, code, message)
    }
}

/// The one place a service error becomes an answer of the API, so its cause is logged here,
/// once; the client gets only the error's own words ("internal error" for a failure of ours).
impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        e.log_failure("API request");
        let mut api = ApiError::new(status_of(&e), e.code(), e.to_string());
        if let ServiceError::StoreUnavailable(_) = &e {
            // Busy or I/O trouble usually passes; a client should not hammer, nor give up.
            api.retry_after_secs = Some(STORE_RETRY_AFTER_SECS);
        }
        if let ServiceError::Limited {
            retry_after_secs, ..
        } = &e
        {
            api.retry_after_secs = Some(*retry_after_secs);
        }
        if let ServiceError::Internal(_) = &e {
            api.request_id = crate::request_id::current();
        }
        if let ServiceError::Conflict { game, .. } = e {
            api.game = game;
        }
        api
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
                game: self.game,
                request_id: self.request_id,
            },
        };
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(secs) = self.retry_after_secs
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}
