//! Browser sessions: the cookie that names one, the extractor that finds it, and the CSRF
//! check every state-changing request passes. The cookie is HttpOnly (no script reads it),
//! SameSite=Lax (other sites' forms do not send it) and Secure when the server is reached
//! over https; the CSRF token, tied to the session, is a second lock on every POST.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};

use crate::AppState;
use crate::domain::PlayerId;
use crate::service::NewWebSession;

use super::error::WebError;

pub const SESSION_COOKIE: &str = "taflbot_session";
/// The header a script sends the CSRF token in (forms send the field `csrf`).
pub const CSRF_HEADER: &str = "x-csrf-token";

/// The signed-in player of a request, if any.
#[derive(Debug, Clone)]
pub struct MaybeSignedIn(pub Option<SignedIn>);

/// A signed-in player and their session.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub player: PlayerId,
    pub csrf_token: String,
    secret: String,
}

impl SignedIn {
    /// The cookie's secret, to end the session.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Refuses a state-changing request whose CSRF token (header or form field) is not this
    /// session's.
    pub fn check_csrf(&self, headers: &HeaderMap, field: Option<&str>) -> Result<(), WebError> {
        let sent = headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .or(field)
            .unwrap_or_default();
        if same_secret(sent.as_bytes(), self.csrf_token.as_bytes()) {
            Ok(())
        } else {
            Err(WebError::BadCsrf)
        }
    }
}

/// Compares without stopping at the first difference, so timing tells nothing.
pub(super) fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The value of cookie `name` in a request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

impl FromRequestParts<AppState> for MaybeSignedIn {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, WebError> {
        // Found once per request, by the layer every page passes through (`visitors.rs`).
        if let Some(found) = parts.extensions.get::<MaybeSignedIn>() {
            return Ok(found.clone());
        }
        let Some(secret) = cookie(&parts.headers, SESSION_COOKIE).filter(|s| !s.is_empty()) else {
            return Ok(MaybeSignedIn(None));
        };
        let found = state.service.credentials().web_session(secret).await?;
        Ok(MaybeSignedIn(found.map(|s| SignedIn {
            player: s.player,
            csrf_token: s.csrf_token,
            secret: secret.to_owned(),
        })))
    }
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, WebError> {
        MaybeSignedIn::from_request_parts(parts, state)
            .await?
            .0
            .ok_or(WebError::SignInNeeded)
    }
}

/// `Set-Cookie` for a new session.
pub fn session_cookie(state: &AppState, session: &NewWebSession) -> HeaderValue {
    let max_age = (session.expires_at - state.service.now_ms()).max(0) / 1000;
    cookie_header(state, &session.secret, max_age)
}

/// `Set-Cookie` that removes the session cookie.
pub fn cleared_cookie(state: &AppState) -> HeaderValue {
    cookie_header(state, "", 0)
}

fn cookie_header(state: &AppState, value: &str, max_age: i64) -> HeaderValue {
    let secure = if state.config.served_over_https() {
        "; Secure"
    } else {
        ""
    };
    let text = format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    );
    // The secret is hex and the rest is ours: always a valid header value.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; taflbot_session=xyz ; b=2"),
        );
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("xyz"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b"ab"));
        assert!(!same_secret(b"", b"a"));
    }
}
