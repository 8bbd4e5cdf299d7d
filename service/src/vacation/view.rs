//! A player's vacation as every front end shows it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::GameId;

/// My vacation balance and state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VacationView {
    /// Days a player has in any 365 days (this server's setting).
    pub days_per_year: u32,
    /// Days spent in the last 365 days (a running vacation counts in full until it ends).
    pub days_used: u32,
    /// Days I may still take now.
    pub days_left: u32,
    /// The vacation I am on, if any.
    pub vacation: Option<RunningVacationView>,
    /// My active games whose clocks a vacation does not stop: clocks under a day per move
    /// (or a bank under a day), and games of tournaments that forbid vacation.
    pub unprotected_games: Vec<GameId>,
}

/// A vacation that runs now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RunningVacationView {
    /// Milliseconds since the epoch.
    pub started_at: i64,
    /// When it ends by itself (milliseconds since the epoch); `DELETE` ends it sooner.
    pub until: i64,
    /// Days it costs (fewer, counted in whole days begun, if it ends sooner).
    pub days: u32,
}

/// A vacation asked for: how many days, from now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VacationRequest {
    /// 1 to the days left.
    pub days: u32,
}
