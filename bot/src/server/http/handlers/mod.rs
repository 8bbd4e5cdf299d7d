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
mod meta;
mod players;
mod tokens;
mod tournaments;
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
pub use meta::*;
pub use players::*;
pub use tokens::*;
pub use tournaments::*;
pub use web_sessions::*;
pub use webhooks::*;

type ApiResult<T> = Result<T, super::error::ApiError>;

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
