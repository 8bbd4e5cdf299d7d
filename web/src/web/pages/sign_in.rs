//! Signing in and out: a one-time link, a pasted API token; signing out ends the session.
//! Both sign-in forms carry the form token of `signed_out_csrf` (as the sign-up form does),
//! besides the Origin check every form passes: another site must not sign a visitor in to an
//! account of its choosing.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;

use crate::{AppState, ClientKey};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::page;
use super::super::session::{SignedIn, cleared_cookie, session_cookie};
use super::super::signed_out_csrf::{check_form_token, form_token};
use super::super::visitors::{sign_in_allowed, sign_in_failed};
use super::game::CsrfForm;
use super::welcome::{Welcome, welcome_response};

/// `GET /login/{token}`: a button that redeems the link. Opening the link does not use it up,
/// so a chat's link preview cannot spend it before its owner does.
pub async fn confirm_link(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Result<Response, WebError> {
    let (form_token, set_cookie) = form_token(&state, &headers)?;
    let mut response = link_page(&token, &form_token, None);
    if let Some(cookie) = set_cookie {
        response.headers_mut().insert(header::SET_COOKIE, cookie);
    }
    Ok(response)
}

/// The sign-in link's page; a refusal (a used, expired or unknown link) is shown in place.
fn link_page(token: &str, form_token: &str, refusal: Option<&WebError>) -> Response {
    let body = html! {
        h1 { "Sign in to taflbot" }
        @if let Some(refusal) = refusal {
            p.error #link-error role="alert" { (refusal) }
            p { "Ask for a new link (" code { "/web" } " in Discord), or " a href="/" { "sign up or sign in another way" } "." }
        } @else {
            p { "This link signs you in once, in this browser." }
            form method="post" action="/login" {
                input type="hidden" name="token" value=(token);
                input type="hidden" name="form_token" value=(form_token);
                button.primary #sign-in type="submit" autofocus { "Sign in" }
            }
        }
    };
    let status = refusal.map_or(axum::http::StatusCode::OK, WebError::status);
    let mut response = (status, page("Sign in", None, body)).into_response();
    if let Some(secs) = refusal.and_then(WebError::retry_after) {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, secs.into());
    }
    response
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    token: String,
    form_token: Option<String>,
}

/// `POST /login`: redeems a sign-in link.
pub async fn redeem_link(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    headers: HeaderMap,
    WebForm(form): WebForm<TokenForm>,
) -> Result<Response, WebError> {
    check_form_token(&headers, form.form_token.as_deref())?;
    let answer = match sign_in_allowed(&state, client).await {
        Err(limited) => Err(limited),
        Ok(()) => {
            let session = state
                .service
                .credentials()
                .redeem_login_link(&form.token, user_agent(&headers))
                .await
                .map_err(WebError::from);
            signed_in_or_counted(&state, client, session).await
        }
    };
    match answer {
        Err(refusal) if !is_failure(&refusal) => Ok(link_page(
            &form.token,
            form.form_token.as_deref().unwrap_or_default(),
            Some(&refusal),
        )),
        answer => answer,
    }
}

/// `POST /login/token`: signs in with a pasted API token.
pub async fn with_api_token(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    headers: HeaderMap,
    WebForm(form): WebForm<TokenForm>,
) -> Result<Response, WebError> {
    check_form_token(&headers, form.form_token.as_deref())?;
    let answer = match sign_in_allowed(&state, client).await {
        Err(limited) => Err(limited),
        Ok(()) => {
            let session = if form.token.trim().is_empty() {
                Err(WebError::BadInput("paste one of your API tokens".into()))
            } else {
                state
                    .service
                    .credentials()
                    .sign_in_with_api_token(&form.token, user_agent(&headers))
                    .await
                    .map_err(WebError::from)
            };
            signed_in_or_counted(&state, client, session).await
        }
    };
    match answer {
        Err(refusal) if !is_failure(&refusal) => {
            // Back on the first page, the reason above the field.
            let (form_token, set_cookie) = form_token(&state, &headers)?;
            let welcome = Welcome {
                form_token,
                token_error: Some(refusal.to_string()),
                ..Welcome::default()
            };
            Ok(welcome_response(&welcome, Some(&refusal), set_cookie))
        }
        answer => answer,
    }
}

/// A failure of the server's own (shown on the error page), not a refusal of the form.
fn is_failure(e: &WebError) -> bool {
    matches!(e, WebError::Service(s) if s.is_failure())
}

/// The browser's `User-Agent`, kept with the session so its player can tell it in their list.
pub(super) fn user_agent(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
}

/// The new session's cookie, or the refusal, counted against `client`'s failed sign-ins.
async fn signed_in_or_counted(
    state: &AppState,
    client: Option<std::net::IpAddr>,
    session: Result<crate::service::NewWebSession, WebError>,
) -> Result<Response, WebError> {
    match session {
        Ok(session) => Ok(signed_in(state, &session)),
        Err(e) => {
            sign_in_failed(state, client, &e).await;
            Err(e)
        }
    }
}

fn signed_in(state: &AppState, session: &crate::service::NewWebSession) -> Response {
    (
        [(header::SET_COOKIE, session_cookie(state, session))],
        Redirect::to("/"),
    )
        .into_response()
}

/// `POST /logout`: ends the session and forgets the cookie.
pub async fn sign_out(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    state
        .service
        .credentials()
        .end_web_session(session.secret())
        .await?;
    Ok((
        [(header::SET_COOKIE, cleared_cookie(&state))],
        Redirect::to("/"),
    )
        .into_response())
}
