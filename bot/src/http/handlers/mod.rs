//! Request handlers, one file per resource: parse, call the games service, answer JSON.

mod challenges;
mod games;
mod meta;
mod players;
mod tokens;
mod webhooks;

pub use challenges::*;
pub use games::*;
pub use meta::*;
pub use players::*;
pub use tokens::*;
pub use webhooks::*;

type ApiResult<T> = Result<T, super::error::ApiError>;
