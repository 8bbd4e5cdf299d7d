//! Sign-in links for the web client: a token holder asks for one to open in a browser.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ApiResult;
use crate::AppState;
use crate::http::auth::AuthedToken;
use crate::service::LoginLink;

/// A one-time link that signs me in to the web client
///
/// Open `url` in a browser: it signs you in there (a session cookie) once, within
/// `games.login_link_minutes` (15 minutes by default). Treat it as a password until then.
/// The session it opens ends when the token that asked for it is revoked.
#[utoipa::path(
    post, path = "/login-links", tag = "players", security(("bearer" = [])),
    responses((status = 201, description = "The link, shown this once", body = LoginLink))
)]
pub async fn create_login_link(
    State(state): State<AppState>,
    AuthedToken { player, token }: AuthedToken,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let base = base_url(&state, &headers);
    let link = state
        .service
        .credentials()
        .create_login_link_with_token(player, &base, token)
        .await?;
    Ok((StatusCode::CREATED, Json(link)).into_response())
}

/// The server's address as people reach it: `http.public_url`, else the address this request
/// was sent to (the link goes back to the one who asked, so their own `Host` header is theirs
/// to get wrong).
pub fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if !state.config.public_url.trim().is_empty() {
        return state.config.base_url();
    }
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '-' | '[' | ']'))
        })
        .map_or_else(|| state.config.base_url(), |h| format!("http://{h}"))
}
