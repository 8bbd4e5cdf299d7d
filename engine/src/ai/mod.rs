//! The AI: an iterative-deepening principal-variation alpha-beta search for every rule set the
//! engine accepts, with a tafl evaluation, a lock-free transposition table and levels.
//!
//! # Use
//! ```
//! use tafl_engine::{Game, variant};
//! use tafl_engine::ai::{Level, search};
//!
//! let rules = variant("brandubh").map(|v| v.rules()).unwrap_or_else(|| unreachable!());
//! let game = Game::new(rules);
//! let limits = Level::from_number(2).map(Level::limits).unwrap_or_default();
//! let result = search(&game, &limits);
//! assert!(result.is_some_and(|r| game.check(r.best_move).is_ok()));
//! ```
//!
//! - [`search`] runs one search with a fresh transposition table: with a node budget and a seed
//!   (and no time limit) its answer is deterministic.
//! - [`Searcher`] keeps its table between moves (faster in a long game). It is `Send`; its
//!   [`SharedTable`] is `Send + Sync`, so several searchers on several threads may share one.
//! - [`SearchLimits`] bounds a search by time, nodes and depth, and carries a stop flag
//!   (`Arc<AtomicBool>`), the random margin of the weaker levels and the seed.
//! - [`Level`] 1 (beginner) to 5 (strongest) maps to limits.
//!
//! A search never returns an illegal move, and returns `None` when the game is over.

pub mod analysis;
mod clock;
mod eval;
mod level;
mod limits;
mod ordering;
pub mod puzzle;
mod repetition;
mod result;
mod rng;
mod search;
pub mod selfplay;
mod tt;
pub mod tune;

pub use eval::{FEATURE_NAMES, Features, Weights, evaluate, features};
pub use level::{Level, ParseLevelError};
pub use limits::{SearchLimits, available_threads};
pub use result::SearchResult;
pub use rng::SplitMix;
pub use search::{Searcher, search};
pub use tt::SharedTable;

/// Score of a won game, minus the plies it takes; anything above [`MATE_BOUND`] is a forced win.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) announce a forced result.
pub const MATE_BOUND: i32 = MATE - 1_000;

#[cfg(test)]
mod tests;
