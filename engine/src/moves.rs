//! A move from one square to another (its notation: `notation/move_text.rs`).

use crate::square::Square;

#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Squares moved over, `from` excluded and `to` included; 0 for a non-straight move.
    pub fn distance(self) -> u8 {
        if self.from.file() == self.to.file() {
            self.from.rank().abs_diff(self.to.rank())
        } else if self.from.rank() == self.to.rank() {
            self.from.file().abs_diff(self.to.file())
        } else {
            0
        }
    }
}
