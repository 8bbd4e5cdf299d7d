//! The opening explorer: every position finished games of a preset reached in their first
//! [`EXPLORED_PLIES`] plies, with a board's symmetries folded together (an opening played
//! from another edge, or mirrored, is the same opening), and how the games through each move
//! ended. Counted when a game ends, in its transaction; read by position. Beside the human
//! figures, the engine's evaluation of each position, searched in the background
//! (`evaluations.rs`).

mod balance;
pub(super) mod evaluations;
mod position;
mod record;

pub use balance::{BalanceBand, BalanceResults, BalanceView, VariantBalance};
pub use evaluations::EVALUATION_NODES;
pub use position::{ExplorerBoard, ExplorerEngine, ExplorerMove, ExplorerView};
pub(crate) use record::CountInExplorer;

use super::GamesService;

pub use crate::store::rows::EXPLORED_PLIES;

/// The opening explorer.
#[derive(Clone, Copy)]
pub struct Explorer<'s> {
    pub(super) service: &'s GamesService,
}
