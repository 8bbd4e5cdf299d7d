//! Vacation, from the web (docs/web.md, "Vacation"):
//! - `GET /me/vacation`: my balance, whether I am away, and the form to go or come back;
//! - `POST /me/vacation`: go away for a number of days; `POST /me/vacation/end`: come back.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use crate::service::{ServiceError, VacationRequest, VacationView};
use crate::{AppState, status_of};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{csrf_field, local_time, page};
use super::super::session::SignedIn;
use super::game::CsrfForm;
use super::me_of;

pub const VACATION_PATH: &str = "/me/vacation";

/// `GET /me/vacation`.
pub async fn vacation_page(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, WebError> {
    let view = state.service.vacations().status(session.player).await;
    answer(&state, &session, view, None).await
}

#[derive(Debug, Deserialize)]
pub struct VacationForm {
    csrf: Option<String>,
    #[serde(default)]
    days: String,
}

/// `POST /me/vacation`.
pub async fn take_vacation(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<VacationForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let done = match form.days.trim().parse::<u32>() {
        Ok(days) => {
            state
                .service
                .vacations()
                .take(session.player, VacationRequest { days })
                .await
        }
        Err(_) => Err(ServiceError::Invalid(format!(
            "days: give a whole number of days, not {:?}",
            form.days.trim()
        ))),
    };
    answer(
        &state,
        &session,
        done,
        Some("You are on vacation: your clocks stand still."),
    )
    .await
}

/// `POST /me/vacation/end`.
pub async fn end_vacation(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let done = state.service.vacations().come_back(session.player).await;
    answer(
        &state,
        &session,
        done,
        Some("Welcome back: your clocks run again."),
    )
    .await
}

/// The page, saying what was done or, in place, why not.
async fn answer(
    state: &AppState,
    session: &SignedIn,
    done: Result<VacationView, ServiceError>,
    said: Option<&str>,
) -> Result<Response, WebError> {
    let (view, notice, status) = match done {
        Ok(view) => (view, said.map(|s| (false, s.to_owned())), StatusCode::OK),
        Err(e) if e.is_failure() => return Err(WebError::Service(e)),
        Err(refusal) => {
            let view = state.service.vacations().status(session.player).await?;
            (view, Some((true, refusal.to_string())), status_of(&refusal))
        }
    };
    let me = me_of(state, Some(session))
        .await?
        .ok_or(WebError::SignInNeeded)?;
    let body = html! {
        h1 { "Vacation" }
        @match &notice {
            Some((false, text)) => { p.notice #vacation-notice role="status" { (text) } }
            Some((true, text)) => { p.error #vacation-error role="alert" { (text) } }
            None => {}
        }
        p { "While you are on vacation your clocks stand still in your correspondence games "
            "(a day or more per move, or a bank of a day or more) and your opponents are told. "
            "When such a clock runs out, a day is spent for you before the game is lost on time. "
            "Shorter clocks, and tournaments that forbid vacation, run on." }
        p #vacation-balance {
            (view.days_used) " of your " (view.days_per_year) " days used in the last 365 days; "
            strong { (view.days_left) " left" } "."
        }
        @if !view.unprotected_games.is_empty() {
            p #vacation-unprotected { "Not protected: "
                @for (i, game) in view.unprotected_games.iter().enumerate() {
                    @if i > 0 { ", " }
                    a href={ "/games/" (game) } { "game " (game) }
                }
            }
        }
        @if let Some(away) = &view.vacation {
            p #vacation-state { "You are away until "
                (local_time(away.until)) "." }
            form method="post" action={ (VACATION_PATH) "/end" } {
                (csrf_field(&me))
                button.primary #vacation-end type="submit" { "Come back now" }
            }
        } @else {
            form.stack #vacation-form method="post" action=(VACATION_PATH) {
                (csrf_field(&me))
                label { "Days away"
                    input name="days" type="number" min="1" max=(view.days_left.max(1))
                        value="1" required; }
                button.primary type="submit" { "Go on vacation" }
            }
        }
    };
    Ok((status, page("Vacation", Some(&me), body)).into_response())
}
