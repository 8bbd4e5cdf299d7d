//! Players: registration and the token's own player.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::ApiResult;
use crate::http::auth::Authed;
use crate::http::error::ApiError;
use crate::http::extract::ApiJson;
use crate::http::{AppState, ClientKey};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    name: String,
}

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

pub async fn me(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.player(me).await?).into_response())
}
