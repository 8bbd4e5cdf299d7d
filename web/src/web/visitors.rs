//! Who is visiting, found once per request, and the limits every page of the web client
//! passes through (one layer over all of them, so no page can forget it):
//! - a visitor without a session is counted against the API's limit for requests without a
//!   token (`http.anonymous_per_second`, per client address): pages, their parts, pictures
//!   and live streams alike;
//! - a signed-in visitor is counted per player, all their sessions together, at an API
//!   token's rate (`http.rate_limit_per_second`, `http.rate_limit_burst`), in buckets of
//!   their own (a script using a token does not spend the pages' allowance);
//! - failed sign-ins (a token that is not valid, a sign-in link unknown or used) are counted
//!   per client address (`http.sign_in_failures_per_minute`), and an address that used its
//!   allowance is refused before its next attempt is even looked at;
//! - an address holding the NUL character is refused (`server::text_input`; forms' fields are
//!   `WebForm`'s);
//! - a form posted from another site is refused: browsers say where a request comes from in
//!   `Sec-Fetch-Site`, and in `Origin` (older ones only there); the sign-in forms have no
//!   session to hold a CSRF token yet, and another site must not sign a visitor in to an
//!   account of its choosing.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::domain::SharedLimit;
use crate::service::limits::Allowance;
use crate::{AppState, ClientKey};

use super::error::WebError;
use super::session::MaybeSignedIn;

/// The layer: the visitor's session (kept in the request for the page's own extractor), the
/// limit for the visitor (per player when signed in, else per address), and no form from
/// another site.
pub async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && from_another_site(request.headers(), &state) {
        return WebError::BadCsrf.into_response();
    }
    if let Some(refusal) = nul_in_address(request.uri()) {
        return refusal.into_response();
    }
    let (mut parts, body) = request.into_parts();
    let visitor = match MaybeSignedIn::from_request_parts(&mut parts, &state).await {
        Ok(visitor) => visitor,
        Err(e) => return e.into_response(),
    };
    match &visitor.0 {
        Some(signed_in) => {
            if let Err(secs) = state.signed_in_pages.check(signed_in.player) {
                return WebError::PlayerRateLimited(secs).into_response();
            }
            // On the web now: no turn notice by mail for what they can see here.
            state.service.mail().saw(signed_in.player);
        }
        None => {
            let ClientKey(client) = match ClientKey::from_request_parts(&mut parts, &state).await {
                Ok(key) => key,
                Err(never) => match never {},
            };
            if let Err(secs) = state.anonymous.check(client) {
                return WebError::RateLimited(secs).into_response();
            }
        }
    }
    parts.extensions.insert(visitor);
    next.run(Request::from_parts(parts, body)).await
}

/// A page's address (a handle in `/players/{handle}`, a query parameter) holding the NUL
/// character, which no page looks up: refused naming where it is.
fn nul_in_address(uri: &axum::http::Uri) -> Option<WebError> {
    use crate::text_input::{has_encoded_nul, nul_in_pairs};
    if has_encoded_nul(uri.path().as_bytes()) {
        return Some(WebError::NulInText("the page's address".into()));
    }
    nul_in_pairs(uri.query().unwrap_or_default().as_bytes()).map(WebError::NulInText)
}

/// Whether a request says it comes from another site: `Sec-Fetch-Site` naming another site,
/// or an `Origin` that is not this server's (its `Host`, or `http.public_url`). A client that
/// is not a browser sends neither, and is not refused for it. The pages' `Referrer-Policy:
/// same-origin` lets browsers send this site's forms with their real origin.
fn from_another_site(headers: &HeaderMap, state: &AppState) -> bool {
    let fetch_site = headers.get("sec-fetch-site").map(|v| v.as_bytes());
    if matches!(fetch_site, Some(b"cross-site" | b"same-site")) {
        return true;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return false;
    };
    // `null`: an opaque origin (a sandboxed frame), unless the browser says in the same
    // request that it comes from this site.
    if origin.as_bytes() == b"null" {
        return fetch_site != Some(b"same-origin");
    }
    !own_origin(origin.as_bytes(), headers, &state.config.public_url)
}

/// Whether `origin` (`scheme://host[:port]`) is this server: the host the request was sent to,
/// or the origin of `public_url` (behind a proxy that rewrites `Host`). `null` (a sandboxed
/// frame, a redirect across sites) is not.
fn own_origin(origin: &[u8], headers: &HeaderMap, public_url: &str) -> bool {
    let Ok(origin) = std::str::from_utf8(origin) else {
        return false;
    };
    let origin = origin.trim();
    let Some((_, authority)) = origin.split_once("://") else {
        return false;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if host.is_some_and(|host| host.trim().eq_ignore_ascii_case(authority)) {
        return true;
    }
    let public = public_url.trim().trim_end_matches('/');
    let public_origin = match public.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split('/').next().unwrap_or_default();
            format!("{scheme}://{authority}")
        }
        None => return false,
    };
    !public.is_empty() && public_origin.eq_ignore_ascii_case(origin)
}

/// Refuses a sign-in from `client` that has used its allowance of failures: this instance's,
/// then every instance's on the database together.
pub async fn sign_in_allowed(
    state: &AppState,
    client: Option<std::net::IpAddr>,
) -> Result<(), WebError> {
    state.sign_ins.peek(client).map_err(WebError::RateLimited)?;
    let shared = state
        .service
        .shared_limits()
        .check(SharedLimit::SignInFailure, client, sign_in_allowance(state))
        .await?;
    shared.map_or(Ok(()), |secs| Err(WebError::RateLimited(secs)))
}

/// Counts a failed sign-in from `client`: a refusal of ours only (a wrong token, an unknown or
/// used link, an empty form), not a failure of the server's.
pub async fn sign_in_failed(state: &AppState, client: Option<std::net::IpAddr>, e: &WebError) {
    let ours = matches!(e, WebError::Service(s) if s.is_failure());
    if ours {
        return;
    }
    let _ = state.sign_ins.check(client);
    let counted = state
        .service
        .shared_limits()
        .hit(SharedLimit::SignInFailure, client, sign_in_allowance(state))
        .await;
    if let Err(e) = counted {
        // The instance's own count stands; the shared one misses this failure.
        tracing::warn!(error = %crate::logging::ErrorChain(&e), "a failed sign-in was not counted in the database");
    }
}

fn sign_in_allowance(state: &AppState) -> Allowance {
    Allowance::per_minute(
        state.config.sign_in_failures_per_minute,
        state.config.sign_in_failures_burst,
    )
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        h
    }

    #[test]
    fn an_origin_is_ours_when_it_names_our_host_or_public_url() {
        let h = headers("127.0.0.1:8080");
        assert!(own_origin(b"http://127.0.0.1:8080", &h, ""));
        assert!(!own_origin(b"https://evil.example", &h, ""));
        assert!(!own_origin(b"null", &h, ""));
        assert!(!own_origin(b"http://127.0.0.1:8081", &h, ""));
        let behind_proxy = headers("127.0.0.1:8080");
        assert!(own_origin(
            b"https://tafl.example.org",
            &behind_proxy,
            "https://tafl.example.org/"
        ));
        assert!(!own_origin(
            b"https://tafl.example.org.evil",
            &behind_proxy,
            "https://tafl.example.org"
        ));
    }
}
