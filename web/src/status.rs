//! The HTTP status of a service error: the same for the API and the web client.

use axum::http::StatusCode;

use crate::service::ServiceError;

/// The HTTP status of a service error, for every front end that answers over HTTP.
pub fn status_of(e: &ServiceError) -> StatusCode {
    match e {
        ServiceError::NotFound(_) => StatusCode::NOT_FOUND,
        ServiceError::NulCharacter(_) => StatusCode::BAD_REQUEST,
        ServiceError::Forbidden(_) | ServiceError::NotYourTurn(_) => StatusCode::FORBIDDEN,
        ServiceError::Conflict { .. } | ServiceError::GameOver => StatusCode::CONFLICT,
        ServiceError::IllegalMove(_) | ServiceError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        ServiceError::Unavailable(_) | ServiceError::StoreUnavailable(_) => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        ServiceError::Limited { .. } => StatusCode::TOO_MANY_REQUESTS,
        ServiceError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}
