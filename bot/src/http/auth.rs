//! Bearer-token authentication (and the per-token rate limit) as an extractor.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{StatusCode, header};

use crate::domain::PlayerId;
use crate::service::players::token_hash;

use super::AppState;
use super::error::ApiError;

/// The authenticated player of a request.
pub struct Authed(pub PlayerId);

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let value = parts.headers.get(header::AUTHORIZATION).ok_or_else(|| {
            ApiError::unauthorized(
                "missing_token",
                "send your API token as 'Authorization: Bearer <token>'",
            )
        })?;
        let token = value
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                ApiError::unauthorized(
                    "bad_authorization",
                    "the Authorization header must be 'Bearer <token>'",
                )
            })?;
        let player = state.service.authenticate(token).await?.ok_or_else(|| {
            ApiError::unauthorized("invalid_token", "this API token is not valid")
        })?;
        if let Err(secs) = state.limiter.check(token_hash(token)) {
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("too many requests with this token; retry in {secs} s"),
            );
            e.retry_after_secs = Some(secs);
            return Err(e);
        }
        Ok(Authed(player))
    }
}
