//! What a search answers.

use std::time::Duration;

use serde::Serialize;

use crate::moves::Move;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchResult {
    /// The move to play; always legal in the searched position.
    #[serde(rename = "move")]
    pub best_move: Move,
    /// From the point of view of the side to move; 100 = about one soldier. Beyond
    /// [`crate::ai::MATE_BOUND`], a forced win (positive) or loss (negative).
    pub score: i32,
    /// Plies until the forced end the score announces (positive: we win).
    pub mate_in: Option<i32>,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    #[serde(skip)]
    pub elapsed: Duration,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
}
