//! A tournament as its organiser asks for it.

use super::format::Format;
use crate::service::{ClockSpec, RulesChoice, TournamentVacation};

/// The most players one tournament takes.
pub const MAX_PLAYERS: u32 = 256;
/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    pub name: String,
    pub format: Format,
    pub rules: RulesChoice,
    /// Every game's clock.
    pub clock: ClockSpec,
    /// `None`: rated on a preset with a clock, as challenges are.
    pub rated: Option<bool>,
    pub min_players: u32,
    pub max_players: u32,
    /// Service clock (ms): sign-up closes and the tournament starts by itself then; `None`:
    /// the organiser starts it.
    pub starts_at: Option<i64>,
    /// Whether vacation stops the clocks of its games, and for how long.
    pub vacation: TournamentVacation,
}
