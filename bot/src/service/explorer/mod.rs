//! The opening explorer: every position finished games of a preset reached in their first
//! [`EXPLORED_PLIES`] plies, with a board's symmetries folded together (an opening played
//! from another edge, or mirrored, is the same opening), and how the games through each move
//! ended. Counted when a game ends, in its transaction; read by position.

mod position;
mod record;

pub use position::{ExplorerBoard, ExplorerMove, ExplorerView};
pub(crate) use record::{FinishedGame, record_finished, record_game};

use super::GamesService;

/// How deep the explorer follows a game: the opening and early middle game, where games
/// still share positions.
pub const EXPLORED_PLIES: usize = 30;

/// The opening explorer.
#[derive(Clone, Copy)]
pub struct Explorer<'s> {
    pub(super) service: &'s GamesService,
}
