//! `/` for a visitor without a session: sign up (a name and, if they like, a handle), or sign
//! in with a one-time link or an API token. A refused form comes back here with its reason
//! shown in place, above the fields the visitor filled in.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use super::super::error::WebError;
use super::super::layout::page;

/// What the signed-out page shows besides its forms.
#[derive(Debug, Default)]
pub struct Welcome {
    /// Sent here from a page that needs a session.
    pub needed: bool,
    /// The sign-up and token forms' hidden token (`signed_out_csrf`).
    pub form_token: String,
    /// The sign-up form as the visitor filled it in, when it comes back refused.
    pub name: String,
    pub handle: String,
    pub sign_up_error: Option<String>,
    pub token_error: Option<String>,
}

/// The page, with its form-token cookie when it is new and the refusal's status and wait.
pub fn welcome_response(
    welcome: &Welcome,
    refusal: Option<&WebError>,
    set_cookie: Option<HeaderValue>,
) -> Response {
    let status = refusal.map_or(StatusCode::OK, WebError::status);
    let mut response = (status, welcome_page(welcome)).into_response();
    let headers = response.headers_mut();
    if let Some(cookie) = set_cookie {
        headers.insert(header::SET_COOKIE, cookie);
    }
    if let Some(secs) = refusal.and_then(WebError::retry_after) {
        headers.insert(header::RETRY_AFTER, secs.into());
    }
    response
}

fn welcome_page(w: &Welcome) -> axum::response::Html<String> {
    page(
        "Welcome",
        None,
        html! {
            h1 { "Play tafl by correspondence" }
            @if w.needed { p.notice { "Sign in first to see that page." } }
            div.cards {
                (sign_up_card(w))
                div.card {
                    h2 { "With a sign-in link" }
                    p { "Ask for a one-time link: " code { "/web" } " in Discord, "
                        code { "POST /api/v1/login-links" } " with your API token, or on the server "
                        code { "taflbot login-link HANDLE" } ". It works once, for a few minutes." }
                }
                div.card {
                    h2 { "With an API token" }
                    form.stack #token-form method="post" action="/login/token" {
                        (error_line("token-error", w.token_error.as_deref()))
                        input type="hidden" name="form_token" value=(w.form_token);
                        label { "API token" input name="token" type="password" autocomplete="off" required; }
                        button.primary type="submit" { "Sign in" }
                    }
                }
            }
            p { "Or watch: " a href="/games" { "live and recent games" } ", the "
                a href="/leaderboards" { "leaderboards" } ", the " a href="/variants" { "variants" } "." }
        },
    )
}

fn sign_up_card(w: &Welcome) -> Markup {
    html! {
        div.card {
            h2 { "New here? Sign up" }
            form.stack #sign-up-form method="post" action="/signup" {
                (error_line("sign-up-error", w.sign_up_error.as_deref()))
                input type="hidden" name="form_token" value=(w.form_token);
                label { "Your name" input name="name" value=(w.name) maxlength="64" required autocomplete="nickname"; }
                label { "Handle (optional: made from your name when left empty)"
                    input name="handle" value=(w.handle) maxlength="24" autocomplete="username"
                        placeholder="ada"; }
                button.primary type="submit" { "Sign up" }
            }
            p.hint { "No password: you get an API token, shown once, to sign in again." }
        }
    }
}

/// A form's refusal, in place, read out when it appears.
fn error_line(id: &str, error: Option<&str>) -> Markup {
    html! {
        @if let Some(error) = error { p.error id=(id) role="alert" { (error) } }
    }
}
