//! What goes wrong in the web client, shown in the visitor's terms: a page for a page, a line
//! of text for a script's request (shown in place, next to the board).

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

use crate::service::ServiceError;
use crate::status_of;

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("sign in first")]
    SignInNeeded,
    #[error(
        "this form is out of date or came from elsewhere (its security token does not match \
         your session); reload the page and try again"
    )]
    BadCsrf,
    #[error("{0}")]
    BadInput(String),
    /// A text sent (a form's field, a part of the address) holds the NUL character: its name.
    #[error("{}", crate::text_input::nul_refusal(.0))]
    NulInText(String),
    #[error("too many requests from your address; retry in {0} s")]
    RateLimited(u64),
    #[error("too many sign-ups from your address; retry in {0} s")]
    TooManySignUps(u64),
    #[error("too many requests from your account (all your sessions together); retry in {0} s")]
    PlayerRateLimited(u64),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl WebError {
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::SignInNeeded => StatusCode::UNAUTHORIZED,
            WebError::BadCsrf => StatusCode::FORBIDDEN,
            WebError::BadInput(_) => StatusCode::UNPROCESSABLE_ENTITY,
            WebError::NulInText(_) => StatusCode::BAD_REQUEST,
            WebError::RateLimited(_)
            | WebError::TooManySignUps(_)
            | WebError::PlayerRateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            // The API's mapping, so both front ends answer alike.
            WebError::Service(e) => status_of(e),
        }
    }

    /// Logs a failure of ours with its cause, once, as it is answered: the visitor sees only
    /// "internal error" (or "try again shortly").
    fn log_failure(&self, during: &str) {
        if let WebError::Service(e) = self {
            e.log_failure(during);
        }
    }

    /// Seconds to wait before asking again, when there is such a time.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            WebError::RateLimited(secs)
            | WebError::TooManySignUps(secs)
            | WebError::PlayerRateLimited(secs) => Some(*secs),
            WebError::Service(ServiceError::StoreUnavailable(_)) => Some(1),
            _ => None,
        }
    }

    /// What the visitor is told: the error's own words; for a failure of ours, "internal
    /// error" and the request's id, which names the cause's line in the server's log (never
    /// the cause itself).
    fn shown(&self) -> String {
        match (self, crate::request_id::current()) {
            (WebError::Service(ServiceError::Internal(_)), Some(id)) => {
                format!("{self} (request id {id})")
            }
            _ => self.to_string(),
        }
    }
}

/// A page: the sign-in page for a visitor who must sign in, else the message on a page.
impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        if let WebError::SignInNeeded = self {
            return Redirect::to("/?signin=needed").into_response();
        }
        self.log_failure("web page");
        let status = self.status();
        let message = self.shown();
        let retry_after = self.retry_after();
        let page = super::layout::page(
            "Something went wrong",
            None,
            maud::html! {
                h1 { "Something went wrong" }
                p.error role="alert" { (message) }
                p { a href="/" { "Back to my games" } }
            },
        );
        let mut response = (status, page).into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, secs.into());
        }
        response
    }
}

/// An error as one line of text, for the page's scripts to show in place.
#[derive(Debug)]
pub struct Plain(pub WebError);

impl From<WebError> for Plain {
    fn from(e: WebError) -> Self {
        Plain(e)
    }
}

impl From<ServiceError> for Plain {
    fn from(e: ServiceError) -> Self {
        Plain(WebError::Service(e))
    }
}

impl IntoResponse for Plain {
    fn into_response(self) -> Response {
        self.0.log_failure("web request");
        let mut response = (
            self.0.status(),
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            self.0.shown(),
        )
            .into_response();
        if let Some(secs) = self.0.retry_after() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, secs.into());
        }
        response
    }
}
