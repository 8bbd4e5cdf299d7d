//! Accounts: players and their handles, what they see of themselves and their preferences;
//! and credentials: API tokens, one-time sign-in links and web sessions.

mod account;
pub mod handles;
pub(crate) mod name_rule;
mod notify_prefs;
pub mod players;
mod preferences;
mod privacy;
mod sign_in;
pub mod tokens;
mod web_sessions;

use super::GamesService;

pub use account::AccountChange;
pub use players::PLAYERS_PAGE_SIZE;
pub use privacy::{ERASED_NAME, Erased, PersonalData};
pub use sign_in::{LOGIN_PATH, NewWebSession, WebSession, login_url};
pub use tokens::{MAX_TOKENS_PER_PLAYER, token_name_schema};
pub use web_sessions::WebSessionView;

/// Players: registration, handles, lookups, their account and preferences.
#[derive(Clone, Copy)]
pub struct Accounts<'s> {
    pub(super) service: &'s GamesService,
}

/// How a player proves who they are: API tokens, sign-in links, web sessions.
#[derive(Clone, Copy)]
pub struct Credentials<'s> {
    pub(super) service: &'s GamesService,
}
