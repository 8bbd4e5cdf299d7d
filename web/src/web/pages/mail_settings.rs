//! Turn notices by mail, from the web (docs/web.md, "Turn notices by mail"):
//! - `GET /me/mail`: my address (confirmed or not), quiet hours, and the forms to change them;
//!   where the server has no `[mail]`, it says mail is off here;
//! - `POST /me/mail`: a new address (a confirmation link is mailed to it);
//! - `POST /me/mail/quiet`: quiet hours and my offset from UTC; `POST /me/mail/off`: forget it;
//! - `GET`/`POST /mail/confirm/{token}`: the mailed link's page, and its button;
//! - `GET`/`POST /mail/unsubscribe/{token}`: the link every mail carries, and its one-click
//!   form (RFC 8058: mail programs post it themselves, without a session).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use serde::Deserialize;

use crate::service::ServiceError;
use crate::service::mail::MailSubscriptionView;
use crate::service::mail::quiet_hours::{
    parse_time_of_day, parse_utc_offset, time_of_day, utc_offset,
};
use crate::{AppState, status_of};

use super::super::error::WebError;
use super::super::form::WebForm;
use super::super::layout::{Me, csrf_field, page};
use super::super::session::SignedIn;
use super::game::CsrfForm;
use super::me_of;

pub const MAIL_PATH: &str = "/me/mail";

/// What the page says above its forms.
enum Notice {
    None,
    Said(String),
    Refused(String),
}

/// `GET /me/mail`.
pub async fn mail_page(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, WebError> {
    render(&state, &session, Notice::None, StatusCode::OK).await
}

async fn render(
    state: &AppState,
    session: &SignedIn,
    notice: Notice,
    status: StatusCode,
) -> Result<Response, WebError> {
    let me = me_of(state, Some(session))
        .await?
        .ok_or(WebError::SignInNeeded)?;
    let on = state.service.mail().settings().is_some();
    let subscription = state.service.mail().subscription(session.player).await?;
    let body = html! {
        h1 { "Turn notices by mail" }
        @match &notice {
            Notice::None => {}
            Notice::Said(text) => { p.notice #mail-notice role="status" { (text) } }
            Notice::Refused(text) => { p.error #mail-error role="alert" { (text) } }
        }
        @if !on {
            p #mail-off { "Mail is not set up on this server: turn notices come only in the \
                browser (the tab's title, and notifications while a tab is open) and in Discord." }
        } @else {
            p { "When it is your move in a game against a person and you have not been here for "
                "a while, taflbot mails you: one mail per game per turn, several games in one, "
                "none during your quiet hours (they wait for the end). Every mail has a link that "
                "stops them." }
            (address_form(&me, subscription.as_ref()))
            @if let Some(s) = &subscription { (quiet_form(&me, s)) (off_form(&me)) }
        }
    };
    Ok((status, page("Mail notices", Some(&me), body)).into_response())
}

fn address_form(me: &Me, subscription: Option<&MailSubscriptionView>) -> Markup {
    html! {
        @if let Some(s) = subscription {
            p #mail-status {
                "Address: " strong { (s.address) } " — "
                @if !s.confirmed { "not confirmed yet: open the link mailed to it." }
                @else if !s.notices_on { "confirmed, notices stopped (give it again to start them)." }
                @else { "confirmed, notices on." }
            }
        }
        form.stack #mail-address-form method="post" action=(MAIL_PATH) {
            (csrf_field(me))
            label { "Mail address"
                input name="address" type="email" maxlength="254" required autocomplete="email"
                    value=(subscription.map(|s| s.address.as_str()).unwrap_or_default()); }
            button.primary type="submit" { "Send me a confirmation link" }
        }
    }
}

fn quiet_form(me: &Me, s: &MailSubscriptionView) -> Markup {
    let (start, end) = s.quiet.map_or((String::new(), String::new()), |q| {
        (time_of_day(q.start_min), time_of_day(q.end_min))
    });
    html! {
        form.stack #mail-quiet-form method="post" action={ (MAIL_PATH) "/quiet" } {
            (csrf_field(me))
            p { "Quiet hours, in your day (both empty: none)." }
            label { "From" input name="quiet_start" type="time" value=(start); }
            label { "To" input name="quiet_end" type="time" value=(end); }
            label { "Your offset from UTC (+02:00, -05:30)"
                input name="utc_offset" value=(utc_offset(s.utc_offset_min)) maxlength="9"; }
            button type="submit" { "Save quiet hours" }
        }
    }
}

fn off_form(me: &Me) -> Markup {
    html! {
        form method="post" action={ (MAIL_PATH) "/off" } {
            (csrf_field(me))
            button #mail-off-button type="submit" { "Stop mails and forget my address" }
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct AddressForm {
    csrf: Option<String>,
    #[serde(default)]
    address: String,
}

/// `POST /me/mail`.
pub async fn set_address(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<AddressForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let done = state
        .service
        .mail()
        .set_address(session.player, &form.address)
        .await;
    answer(
        &state,
        &session,
        done,
        format!(
            "A confirmation link is on its way to {}: open it to start the notices.",
            form.address.trim()
        ),
    )
    .await
}

#[derive(Debug, Deserialize)]
pub struct QuietForm {
    csrf: Option<String>,
    #[serde(default)]
    quiet_start: String,
    #[serde(default)]
    quiet_end: String,
    #[serde(default)]
    utc_offset: String,
}

/// `POST /me/mail/quiet`.
pub async fn set_quiet_hours(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<QuietForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let done = match quiet_of(&form) {
        Ok((quiet, offset)) => {
            state
                .service
                .mail()
                .set_quiet_hours(session.player, quiet, offset)
                .await
        }
        Err(refusal) => Err(refusal),
    };
    answer(&state, &session, done, "Quiet hours saved.".to_owned()).await
}

fn quiet_of(form: &QuietForm) -> Result<(Option<(i64, i64)>, i64), ServiceError> {
    let offset = parse_utc_offset(&form.utc_offset)?;
    let (start, end) = (form.quiet_start.trim(), form.quiet_end.trim());
    let quiet = match (start.is_empty(), end.is_empty()) {
        (true, true) => None,
        (false, false) => Some((
            parse_time_of_day(start, "start")?,
            parse_time_of_day(end, "end")?,
        )),
        _ => {
            return Err(ServiceError::Invalid(
                "give both ends of the quiet hours, or neither".into(),
            ));
        }
    };
    Ok((quiet, offset))
}

/// `POST /me/mail/off`.
pub async fn turn_off(
    State(state): State<AppState>,
    session: SignedIn,
    headers: HeaderMap,
    WebForm(form): WebForm<CsrfForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&headers, form.csrf.as_deref())?;
    let done = state.service.mail().forget_address(session.player).await;
    answer(
        &state,
        &session,
        done,
        "Your address is forgotten: no more mails.".to_owned(),
    )
    .await
}

/// The page again, saying what was done or, in place, why not.
async fn answer(
    state: &AppState,
    session: &SignedIn,
    done: Result<(), ServiceError>,
    said: String,
) -> Result<Response, WebError> {
    match done {
        Ok(()) => render(state, session, Notice::Said(said), StatusCode::OK).await,
        Err(e) if e.is_failure() => Err(WebError::Service(e)),
        Err(refusal) => {
            let status = status_of(&refusal);
            render(state, session, Notice::Refused(refusal.to_string()), status).await
        }
    }
}

/// A page of its own for the mailed links (no session needed).
fn link_page(title: &str, body: Markup, status: StatusCode) -> Response {
    (status, page(title, None, body)).into_response()
}

/// `GET /mail/confirm/{token}`: a button, so a mail scanner's visit confirms nothing.
pub async fn confirm_page(Path(token): Path<String>) -> Response {
    link_page(
        "Confirm your address",
        html! {
            h1 { "Confirm your address" }
            p { "Turn notices by mail go to this address once you confirm it." }
            form method="post" action={ "/mail/confirm/" (token) } {
                button.primary #mail-confirm type="submit" { "Confirm" }
            }
        },
        StatusCode::OK,
    )
}

/// `POST /mail/confirm/{token}`.
pub async fn confirm(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match state.service.mail().confirm(&token).await {
        Ok(_) => link_page(
            "Address confirmed",
            html! {
                h1 { "Address confirmed" }
                p #mail-confirmed { "Turn notices will come to it. Quiet hours and more: "
                    a href=(MAIL_PATH) { "mail settings" } "." }
            },
            StatusCode::OK,
        ),
        Err(e) => refused_link(e),
    }
}

/// `GET /mail/unsubscribe/{token}`: the one-click button.
pub async fn unsubscribe_page(Path(token): Path<String>) -> Response {
    link_page(
        "Stop turn notices",
        html! {
            h1 { "Stop turn notices by mail" }
            form method="post" action={ "/mail/unsubscribe/" (token) } {
                button.primary #mail-unsubscribe type="submit" { "Stop them" }
            }
        },
        StatusCode::OK,
    )
}

/// `POST /mail/unsubscribe/{token}`: from the page's button or, one click, the mail program.
pub async fn unsubscribe(State(state): State<AppState>, Path(token): Path<String>) -> Response {
    match state.service.mail().unsubscribe(&token).await {
        Ok(()) => link_page(
            "Turn notices stopped",
            html! {
                h1 { "Turn notices stopped" }
                p #mail-stopped { "No more turn notices go to this address. Start them again from "
                    a href=(MAIL_PATH) { "mail settings" } "." }
            },
            StatusCode::OK,
        ),
        Err(e) => refused_link(e),
    }
}

fn refused_link(e: ServiceError) -> Response {
    if e.is_failure() {
        return WebError::Service(e).into_response();
    }
    let status = status_of(&e);
    link_page(
        "Link not valid",
        html! {
            h1 { "This link does not work" }
            p.error #mail-link-error role="alert" { (e) }
        },
        status,
    )
}
