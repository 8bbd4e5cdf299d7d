//! Players: registration and the token's own player.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use super::ApiResult;
use crate::http::auth::Authed;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::ApiJson;
use crate::http::{AppState, ClientKey};

/// A new player.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    #[schema(schema_with = crate::service::players::name_schema)]
    name: String,
}

/// Register a player; returns its API token (shown once)
///
/// Needs no token. Registrations are limited per client address (an IPv6 client by its /64).
#[utoipa::path(
    post, path = "/players", tag = "players",
    request_body = NewPlayerBody,
    responses(
        (status = 201, description = "The player and its first API token", body = crate::service::IssuedToken),
        (status = 403, description = "Registration over HTTP is turned off here (`registration_closed`)", body = ErrorBody),
        (status = 422, description = "The name is not 1 to 64 printable characters", body = ErrorBody),
        (status = 429, description = "Too many registrations from this address (`rate_limited`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The store is out of reach for now (`unavailable`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn register_player(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    ApiJson(body): ApiJson<NewPlayerBody>,
) -> ApiResult<Response> {
    if !state.config.allow_registration {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "registration_closed",
            "registration over HTTP is turned off here; ask the Discord bot for a token with /token",
        ));
    }
    // Registration needs no token: counted per client address, so one client cannot lock
    // everyone else out.
    if let Err(secs) = state.registrations.check(client) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many registrations from your address; retry in {secs} s"),
        );
        e.retry_after_secs = Some(secs);
        return Err(e);
    }
    let issued = state.service.register_player(&body.name).await?;
    Ok((StatusCode::CREATED, Json(issued)).into_response())
}

/// The player of this token
#[utoipa::path(
    get, path = "/me", tag = "players", security(("bearer" = [])),
    responses((status = 200, description = "The token's player", body = crate::service::PlayerView))
)]
pub async fn me(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.player(me).await?).into_response())
}
