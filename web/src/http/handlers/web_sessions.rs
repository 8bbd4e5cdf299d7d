//! My browser sessions of the web client: list them, end one, end them all.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::WebSessionId;

use super::ApiResult;
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::extract::ApiPath;
use crate::service::WebSessionView;

/// How many sessions a request ended.
#[derive(Serialize, ToSchema)]
pub struct EndedSessions {
    pub ended: usize,
}

/// My open browser sessions, newest first
///
/// Each says when it was opened and last seen, how (a sign-in link or a pasted API token)
/// and the browser's `User-Agent`; never its cookie.
#[utoipa::path(
    get, path = "/me/sessions", tag = "players", security(("bearer" = [])),
    responses((status = 200, description = "My sessions", body = Vec<WebSessionView>))
)]
pub async fn list_web_sessions(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    let sessions = state.service.credentials().web_sessions(me, None).await?;
    Ok(Json(sessions).into_response())
}

/// End one of my browser sessions; that browser is signed out
#[utoipa::path(
    delete, path = "/me/sessions/{id}", tag = "players", security(("bearer" = [])),
    params(("id" = WebSessionId, Path, description = "The session's id")),
    responses((status = 204, description = "Ended"))
)]
pub async fn end_web_session(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<WebSessionId>,
) -> ApiResult<Response> {
    state
        .service
        .credentials()
        .end_web_session_of(me, id)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// End all my browser sessions; every browser is signed out
#[utoipa::path(
    delete, path = "/me/sessions", tag = "players", security(("bearer" = [])),
    responses((status = 200, description = "How many sessions ended", body = EndedSessions))
)]
pub async fn end_web_sessions(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    let ended = state
        .service
        .credentials()
        .end_web_sessions_of(me, None)
        .await?;
    Ok(Json(EndedSessions { ended }).into_response())
}
