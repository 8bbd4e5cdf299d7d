//! The id of the request being answered (`x-request-id`, set by the HTTP layer for every
//! request), for an answer built without the request at hand: a failure of ours names it, to
//! the API's clients and the web client's visitors alike, so its line in the log can be found.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

tokio::task_local! {
    static CURRENT: String;
}

/// Runs the rest of the request with its id known to [`current`].
pub async fn remember(request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    match id {
        Some(id) => CURRENT.scope(id, next.run(request)).await,
        None => next.run(request).await,
    }
}

/// The id of the request being answered, inside [`remember`].
pub fn current() -> Option<String> {
    CURRENT.try_with(String::clone).ok()
}
