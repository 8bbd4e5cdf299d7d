//! Request handlers, one file per resource: parse, call the games service, answer JSON.

mod analysis;
mod analysis_board;
mod challenges;
mod conditional_moves;
mod explorer;
mod games;
mod history;
mod leaderboards;
mod login_links;
mod matches;
mod meta;
mod players;
mod puzzles;
mod request_terms;
mod study;
mod tokens;
mod tournaments;
mod vacation;
mod web_sessions;
mod webhooks;

pub use analysis::*;
pub use analysis_board::*;
pub use challenges::*;
pub use conditional_moves::*;
pub use explorer::*;
pub use games::*;
pub use history::*;
pub use leaderboards::*;
pub use login_links::*;
pub use matches::*;
pub use meta::*;
pub use players::*;
pub use puzzles::*;
pub use study::*;
pub use tokens::*;
pub use tournaments::*;
pub use vacation::*;
pub use web_sessions::*;
pub use webhooks::*;

type ApiResult<T> = Result<T, super::error::ApiError>;

/// An OpenTafl record (a game, a puzzle) as a plain-text download named `filename`.
fn otg_attachment(filename: &str, text: String) -> axum::response::Response {
    use axum::response::IntoResponse;
    (
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_owned(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        text,
    )
        .into_response()
}

/// A `page` query parameter: pages count from 1 (absent: the first).
fn page_number(page: Option<u32>) -> ApiResult<u32> {
    match page {
        Some(0) => Err(super::error::ApiError::new(
            axum::http::StatusCode::BAD_REQUEST,
            "bad_query",
            "page must be a whole number from 1 up, not 0",
        )),
        Some(n) => Ok(n),
        None => Ok(1),
    }
}
