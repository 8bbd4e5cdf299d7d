//! `POST /signup`: a new player from the browser. It creates the player as the API's
//! `POST /api/v1/players` does (same rules for names and handles, same allowance per address),
//! opens a session in this browser and shows the player's API token, once. A refusal (a bad
//! name, a handle taken, too many sign-ups) comes back on the form, in place.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use crate::service::{IssuedToken, NewWebSession};
use crate::{AppState, ClientKey, registration_refused};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, page};
use super::super::session::session_cookie;
use super::super::signed_out_csrf::check_form_token;
use super::sign_in::user_agent;
use super::welcome::{Welcome, welcome_response};

#[derive(Debug, Deserialize)]
pub struct SignUpForm {
    form_token: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    handle: String,
}

pub async fn sign_up(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    headers: HeaderMap,
    WebForm(form): WebForm<SignUpForm>,
) -> Result<Response, WebError> {
    check_form_token(&headers, form.form_token.as_deref())?;
    match register(&state, client, &headers, &form).await {
        Ok((issued, session)) => Ok(welcome_with_token(&state, &issued, &session)),
        Err(WebError::Service(e)) if e.is_failure() => Err(WebError::Service(e)),
        Err(refusal) => {
            let welcome = Welcome {
                form_token: form.form_token.unwrap_or_default(),
                name: form.name,
                handle: form.handle,
                sign_up_error: Some(refusal.to_string()),
                ..Welcome::default()
            };
            Ok(welcome_response(&welcome, Some(&refusal), None))
        }
    }
}

async fn register(
    state: &AppState,
    client: Option<std::net::IpAddr>,
    headers: &HeaderMap,
    form: &SignUpForm,
) -> Result<(IssuedToken, NewWebSession), WebError> {
    if !state.config.allow_registration {
        return Err(WebError::BadInput(
            "signing up is turned off here; ask the Discord bot for a token with /token".into(),
        ));
    }
    if let Some(secs) = registration_refused(state, client).await? {
        return Err(WebError::TooManySignUps(secs));
    }
    let handle = Some(form.handle.trim().trim_start_matches('@')).filter(|h| !h.is_empty());
    let issued = state
        .service
        .accounts()
        .register(&form.name, handle)
        .await?;
    let session = state
        .service
        .credentials()
        .sign_in_with_api_token(&issued.token, user_agent(headers))
        .await?;
    Ok((issued, session))
}

/// Signed in: the new player's token, this once, and where to go next.
fn welcome_with_token(state: &AppState, issued: &IssuedToken, session: &NewWebSession) -> Response {
    let me = Me {
        player: issued.player.clone(),
        csrf_token: session.csrf_token.clone(),
    };
    let body = html! {
        h1 { "Welcome, " (issued.player.name) }
        p { "You are " strong { "@" (issued.player.handle.as_str()) } ", signed in in this browser." }
        div.card #new-token {
            h2 { "Your API token" }
            p { "Shown this once: keep it somewhere safe. Paste it on the first page to sign in \
                 again in another browser, or send it as " code { "Authorization: Bearer …" }
                " to play over HTTP." }
            p { code #api-token { (issued.token) } }
        }
        p.actions {
            a.button.primary #play-ai href="/challenges/new?opponent=ai&variant=brandubh" { "Play the AI (Brandubh, 7x7)" }
            " " a.button href="/challenges/new" { "Challenge someone" }
            " " a.button href="/games" { "Watch a game" }
        }
    };
    (
        [(header::SET_COOKIE, session_cookie(state, session))],
        page("Welcome", Some(&me), body),
    )
        .into_response()
}
