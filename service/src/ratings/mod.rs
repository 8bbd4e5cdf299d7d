//! Ratings (Glicko-2, updated when a rated game ends) and what is read from them:
//! leaderboards, profiles and rating histories.

pub mod ai_players;
pub mod glicko;
mod stats;

pub use stats::preset;

use super::GamesService;

pub use stats::LEADERBOARD_PAGE_SIZE;

/// Leaderboards, profiles and rating histories.
#[derive(Clone, Copy)]
pub struct Ratings<'s> {
    pub(super) service: &'s GamesService,
}
