//! A team match as its organiser asks for it.

use crate::{ClockSpec, RulesChoice};

/// The most boards (players a team) one match takes.
pub const MAX_BOARDS: u32 = 32;
/// The boards a match takes when neither it nor its teams say.
pub(super) const DEFAULT_BOARDS: u32 = 4;

#[derive(Debug, Clone, PartialEq)]
pub struct NewTeamMatch {
    pub name: String,
    pub rules: RulesChoice,
    /// Every game's clock.
    pub clock: ClockSpec,
    /// `None`: rated on a preset with a clock, as challenges are.
    pub rated: Option<bool>,
    /// The most players a team takes; `None`: as many as the larger team named, or
    /// [`DEFAULT_BOARDS`] when neither names any.
    pub boards: Option<u32>,
    /// Home, then away.
    pub teams: [NewTeam; 2],
}

/// A team: its name and its players' handles in board order (none: players join later).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTeam {
    pub name: String,
    pub players: Vec<String>,
}
