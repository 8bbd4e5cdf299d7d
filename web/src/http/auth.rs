//! Bearer-token authentication (and the per-token rate limit) as extractors: [`Authed`] where a
//! token is required, [`Viewer`] where anyone may read.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};

use crate::domain::{PlayerId, TokenId};
use crate::service::accounts::players::token_hash;

use super::error::ApiError;
use super::{AppState, ClientKey};

/// The authenticated player of a request.
pub struct Authed(pub PlayerId);

impl FromRequestParts<AppState> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        authenticate(authorization(parts)?, state).await.map(Authed)
    }
}

/// The authenticated player of a request and the token it carried: for what is tied to the
/// token (a sign-in link's session ends when the token that asked for it is revoked).
pub struct AuthedToken {
    pub player: PlayerId,
    pub token: TokenId,
}

impl FromRequestParts<AppState> for AuthedToken {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let (player, token) = authenticate_token(authorization(parts)?, state).await?;
        Ok(AuthedToken { player, token })
    }
}

/// Who reads a resource anyone may read (a public game, a player, a leaderboard): the player of
/// the token when one is sent (checked, and limited, as on any route: a bad token is still
/// refused), or nobody in particular, limited per client address (`http.anonymous_per_second`).
pub struct Viewer(pub Option<PlayerId>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(value) = parts.headers.get(header::AUTHORIZATION) {
            return authenticate(value, state).await.map(|p| Viewer(Some(p)));
        }
        let Ok(ClientKey(client)) = ClientKey::from_request_parts(parts, state).await;
        if let Err(secs) = state.anonymous.check(client) {
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!(
                    "too many requests without a token from your address; retry in {secs} s \
                     (requests with a token count against that token's own limit)"
                ),
            );
            e.retry_after_secs = Some(secs);
            return Err(e);
        }
        Ok(Viewer(None))
    }
}

/// The request's `Authorization` header, required.
fn authorization(parts: &Parts) -> Result<&HeaderValue, ApiError> {
    parts.headers.get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError::unauthorized(
            "missing_token",
            "send your API token as 'Authorization: Bearer <token>'",
        )
    })
}

/// The player of the token in an `Authorization` header, after the token's rate limit.
async fn authenticate(value: &HeaderValue, state: &AppState) -> Result<PlayerId, ApiError> {
    authenticate_token(value, state)
        .await
        .map(|(player, _)| player)
}

/// The player of the token in an `Authorization` header and the token's id, after the token's
/// rate limit.
async fn authenticate_token(
    value: &HeaderValue,
    state: &AppState,
) -> Result<(PlayerId, TokenId), ApiError> {
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
    let (player, id) = state
        .service
        .credentials()
        .identify(token)
        .await?
        .ok_or_else(|| ApiError::unauthorized("invalid_token", "this API token is not valid"))?;
    if let Err(secs) = state.limiter.check(token_hash(token)) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many requests with this token; retry in {secs} s"),
        );
        e.retry_after_secs = Some(secs);
        return Err(e);
    }
    Ok((player, id))
}
