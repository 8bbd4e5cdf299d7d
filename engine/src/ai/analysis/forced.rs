//! A result the search proved: who wins, in how many plies, and how.

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::side::Side;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForcedResult {
    pub winner: Side,
    /// Plies to the end, counting the winner's last move.
    pub plies: u32,
    /// How the line ends, when playing it out reaches the end.
    pub reason: Option<WinReason>,
}

impl ForcedResult {
    /// The forced result announced by a search of `game` (`mate_in` plies, positive when the
    /// side to move wins), its line `pv` played out to find how it ends.
    pub fn from_search(game: &Game, mate_in: i32, pv: &[Move]) -> ForcedResult {
        let to_move = game.side_to_move();
        let winner = if mate_in > 0 {
            to_move
        } else {
            to_move.opponent()
        };
        let mut line = game.clone();
        for &mv in pv {
            if line.is_over() || line.play(mv).is_err() {
                break;
            }
        }
        let reason = match line.outcome() {
            Some(Outcome::Win { winner: w, reason }) if *w == winner => Some(*reason),
            _ => None,
        };
        ForcedResult {
            winner,
            plies: mate_in.unsigned_abs(),
            reason,
        }
    }

    /// The winner's moves to the end ("escape in 3" counts the king's side's moves).
    pub fn moves(&self) -> u32 {
        self.plies.div_ceil(2)
    }

    /// "escape in 3", "king captured in 2", "the attackers win in 4".
    pub fn describe(&self) -> String {
        let n = self.moves();
        match self.reason {
            Some(WinReason::KingEscaped) => format!("escape in {n}"),
            Some(WinReason::KingCaptured) => format!("king captured in {n}"),
            Some(WinReason::Encirclement) => format!("encirclement in {n}"),
            Some(WinReason::EdgeFort) => format!("edge fort in {n}"),
            _ => format!("the {} win in {n}", self.winner),
        }
    }
}
