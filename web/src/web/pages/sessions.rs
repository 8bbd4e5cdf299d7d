//! `/me/sessions`: my browser sessions, how each was opened and when it was last seen; sign
//! out one, or every one but this browser's.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};

use crate::AppState;
use crate::domain::{SessionOpening, WebSessionId};
use crate::service::WebSessionView;

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, local_time, page};
use super::super::session::SignedIn;
use super::game::CsrfForm;
use super::me_of;

pub const SESSIONS_PATH: &str = "/me/sessions";

/// `GET /me/sessions`.
pub async fn sessions_page(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, Some(&session))
        .await?
        .ok_or(WebError::SignInNeeded)?;
    let sessions = state
        .service
        .credentials()
        .web_sessions(session.player, Some(session.secret()))
        .await?;
    let others = sessions.iter().filter(|s| !s.current).count();
    let body = html! {
        h1 { "My sessions" }
        p { "Each browser signed in as you. Sign one out if you do not know it or no longer use it." }
        table #sessions {
            thead { tr { th { "Opened" } th { "With" } th { "Last seen" } th { "Browser" } th {} } }
            tbody {
                @for s in &sessions { (session_row(&me, s)) }
            }
        }
        @if others > 0 {
            form method="post" action={ (SESSIONS_PATH) "/end-others" } {
                (csrf_field(&me))
                button #end-others type="submit" { "Sign out everywhere else" }
            }
        }
    };
    Ok(page("My sessions", Some(&me), body).into_response())
}

fn session_row(me: &Me, s: &WebSessionView) -> Markup {
    html! {
        tr.current[s.current] data-session=(s.id) {
            td { (local_time(s.created_at)) }
            td { @match s.opened_by {
                SessionOpening::SignInLink => "a sign-in link",
                SessionOpening::ApiToken => "an API token",
            } }
            td { @match s.last_seen_at { Some(at) => (local_time(at)), None => "—" } }
            td { (s.user_agent.as_deref().unwrap_or("—")) }
            td {
                @if s.current { strong { "this session" } } @else {
                    form.inline method="post" action={ (SESSIONS_PATH) "/" (s.id) "/end" } {
                        (csrf_field(me))
                        button type="submit" { "Sign out" }
                    }
                }
            }
        }
    }
}

/// `POST /me/sessions/{id}/end`: signs that browser out.
pub async fn end_session(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    Path(id): Path<WebSessionId>,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    state
        .service
        .credentials()
        .end_web_session_of(session.player, id)
        .await?;
    Ok(Redirect::to(SESSIONS_PATH).into_response())
}

/// `POST /me/sessions/end-others`: signs out every browser but this one.
pub async fn end_other_sessions(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    state
        .service
        .credentials()
        .end_web_sessions_of(session.player, Some(session.secret()))
        .await?;
    Ok(Redirect::to(SESSIONS_PATH).into_response())
}
