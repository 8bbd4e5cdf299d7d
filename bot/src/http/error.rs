//! The JSON error shape of the API: `{"error": {"code": "...", "message": "..."}}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::service::ServiceError;

/// `Retry-After` of a 503 caused by the store.
const STORE_RETRY_AFTER_SECS: u64 = 1;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub retry_after_secs: Option<u64>,
    /// Extra fields inside `error` (e.g. the current game on a conflict).
    pub details: Option<(&'static str, serde_json::Value)>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after_secs: None,
            details: None,
        }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, code, message)
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        let status = match &e {
            ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
            ServiceError::Forbidden(_) | ServiceError::NotYourTurn(_) => StatusCode::FORBIDDEN,
            ServiceError::Conflict { .. } | ServiceError::GameOver => StatusCode::CONFLICT,
            ServiceError::IllegalMove(_) | ServiceError::Invalid(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ServiceError::Unavailable(_) | ServiceError::StoreUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ServiceError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let mut api = ApiError::new(status, e.code(), e.to_string());
        if let ServiceError::StoreUnavailable(_) = e {
            // Busy or I/O trouble usually passes; a client should not hammer, nor give up.
            api.retry_after_secs = Some(STORE_RETRY_AFTER_SECS);
        }
        if let ServiceError::Conflict {
            game: Some(game), ..
        } = e
        {
            api.details = serde_json::to_value(&*game).ok().map(|g| ("game", g));
        }
        api
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let (Some((key, value)), Some(obj)) = (self.details, error.as_object_mut()) {
            obj.insert(key.to_owned(), value);
        }
        let mut response = (self.status, axum::Json(json!({ "error": error }))).into_response();
        if let Some(secs) = self.retry_after_secs
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}
