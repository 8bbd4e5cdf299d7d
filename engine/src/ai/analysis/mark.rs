//! The mark of a move, from the winning chance it gave away (as lichess marks chess moves).

use serde::{Deserialize, Serialize};

use crate::moves::Move;
use crate::side::Side;

use super::position::PositionEval;

/// Percentage points of the mover's winning chance given away for each mark (lichess's
/// thresholds: 0.1, 0.2 and 0.3 on its -1..1 scale).
pub const INACCURACY: f64 = 5.0;
pub const MISTAKE: f64 = 10.0;
pub const BLUNDER: f64 = 15.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The search's own choice.
    Best,
    /// Gave away less than [`INACCURACY`].
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
    /// The mover had a forced win before the move and not after it.
    MissedWin,
}

impl Mark {
    pub(super) fn of(
        side: Side,
        played: Move,
        before: &PositionEval,
        after: &PositionEval,
        loss: f64,
    ) -> Mark {
        let won_before = before.forced.as_ref().is_some_and(|f| f.winner == side);
        let won_after = after.forced.as_ref().is_some_and(|f| f.winner == side)
            || after.chance.for_side(side) >= 100.0;
        if won_before && !won_after {
            return Mark::MissedWin;
        }
        if before.best == Some(played) {
            return Mark::Best;
        }
        match loss {
            l if l >= BLUNDER => Mark::Blunder,
            l if l >= MISTAKE => Mark::Mistake,
            l if l >= INACCURACY => Mark::Inaccuracy,
            _ => Mark::Good,
        }
    }

    /// Is this one of the marks a summary lists (inaccuracy or worse)?
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Mark::Inaccuracy | Mark::Mistake | Mark::Blunder | Mark::MissedWin
        )
    }
}

/// A move's accuracy, 0 to 100, from the winning chance it gave away (lichess's curve).
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}
