//! Timeout protection: vacation days (docs/http-api.md, "Vacation").
//!
//! Each player has `games.vacation_days_per_year` days in any 365 days (a rolling year: no
//! rush at New Year, and a balance that reads the same whatever the time zone). A vacation is
//! taken on request (`allowance.rs` checks the balance) or spent a day at a time by the
//! scheduler when a correspondence clock would otherwise run out (`clocks.rs`). While it runs
//! the player's clocks stand still in their correspondence games: nothing is written to those
//! games until it ends, when each deadline (and turn start) moves on by the time that turn
//! stood still, as a paused game's does. So the one source of truth is the `vacations` row,
//! and a restart loses nothing: the scheduler ends a vacation at its `ends_at`, not at the
//! pass that notices it. Short clocks (under a day per move, or a bank under a day) are not
//! protected, nor are the games of a tournament that forbids vacation; one that caps it stops
//! a player's clocks in its games for at most its days.

mod allowance;
pub mod clocks;
mod facade;
mod policy;
mod view;

pub use facade::Vacations;
pub use policy::TournamentVacation;
pub use view::{RunningVacationView, VacationRequest, VacationView};

/// A day, in milliseconds: vacation is counted and spent in whole days.
pub const DAY_MS: i64 = 86_400_000;
