//! How a browser session was opened.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// How a browser session was opened: `sign_in_link` (a one-time link from `/web` in Discord,
/// `POST /login-links` or `taflbot login-link`) or `api_token` (a token pasted into the
/// sign-in form).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SessionOpening {
    SignInLink,
    ApiToken,
}
