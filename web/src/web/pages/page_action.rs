//! The answer to a button on a page that acts on what it shows (a tournament's, a team
//! match's): back to the page when done, or the page again with the refusal in place.

use axum::response::{Html, IntoResponse, Redirect, Response};

use crate::service::ServiceError;
use crate::status_of;

use super::super::error::WebError;

/// Redirects to `back` when `done` succeeded; for a refusal (full, already running, not the
/// organiser), answers the page `again` draws around its words, with the refusal's status. A
/// failure of the service is an error page.
pub(super) async fn answer_action<T>(
    done: Result<T, ServiceError>,
    back: &str,
    again: impl AsyncFnOnce(String) -> Result<Html<String>, WebError>,
) -> Result<Response, WebError> {
    match done {
        Ok(_) => Ok(Redirect::to(back).into_response()),
        Err(e) if e.is_failure() => Err(WebError::Service(e)),
        Err(refusal) => {
            let status = status_of(&refusal);
            let page = again(refusal.to_string()).await?;
            Ok((status, page).into_response())
        }
    }
}
