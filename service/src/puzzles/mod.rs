//! Puzzles mined from real games (issue 35): positions of analysed games where the side to move
//! had one winning line, proved unique by search (`mining.rs`, the engine's
//! `ai::puzzle::find_puzzle`); solved move by move and rated with Glicko-2 like players
//! (`solving.rs`); exported as OpenTafl puzzle records (`export.rs`).
//!
//! A player has one puzzle rating for every variant (as lichess has one for chess): a puzzle
//! already carries its variant's difficulty in its own rating, and players mostly solve in the
//! variants they play, so one number says how well they read tafl positions; `next` still
//! filters by variant when asked.

pub mod daily;
mod export;
pub mod mining;
mod solving;
mod view;

pub use solving::MAX_ATTEMPT_MOVES;
pub use view::{
    AttemptResult, AttemptView, GamePuzzles, PuzzleRatingChange, PuzzleRatingView, PuzzleView,
};

use super::GamesService;

/// Puzzles: `service.puzzles().next(player, variant)`.
#[derive(Clone, Copy)]
pub struct Puzzles<'s> {
    pub(super) service: &'s GamesService,
}

impl GamesService {
    /// Puzzles mined from games: the next one, tries, ratings, export.
    pub fn puzzles(&self) -> Puzzles<'_> {
        Puzzles { service: self }
    }
}
