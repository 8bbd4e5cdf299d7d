//! A tournament as its organiser asks for it.

use super::format::Format;
use super::withdrawal_rule::WithdrawalRule;
use crate::{ClockSpec, RulesChoice, TournamentVacation};

/// The most players one tournament takes.
pub const MAX_PLAYERS: u32 = 256;
/// The most days between round starts.
pub const MAX_ROUND_DAYS: u32 = 90;
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
    /// Rounds at set times: round N starts no earlier than the start plus N - 1 times this
    /// many days (and not before round N - 1 is done); `None`: as soon as the one before ends.
    pub round_days: Option<u32>,
    /// What a withdrawal does to the player's games (refused for Swiss unless `forfeit`).
    pub withdrawal: WithdrawalRule,
}
