//! Tournaments: round robin, double round robin, Swiss, and groups then knockout, on any
//! variant and correspondence clock.
//!
//! What is here so far is the part every front end will share and that needs no store: the
//! pairing of each format ([`round_robin`], [`swiss`], [`groups`]), the scores ([`points`])
//! and the standings with their tie-breaks and the crosstable ([`standings`]). Each is a
//! pure function over players and results, tested against hand-worked tables.

pub mod format;
pub mod groups;
pub mod points;
pub mod round_plan;
pub mod round_robin;
pub mod standings;
pub mod swiss;

pub use format::{Format, FormatError};
pub use groups::{GroupOutcome, Seed, group_outcome, seed_groups};
pub use points::Points;
pub use round_plan::{Pairing, RoundPlan};
pub use standings::{
    Crosstable, GameScore, Quarters, ScoredGame, Standing, TieBreak, crosstable, standings,
};
pub use swiss::{SwissEntrant, SwissError, pair_round};
