//! Refusing a position that cannot begin a game. Capture is active in every rule set
//! (docs/rules.md, `R-default-custodial`): a piece, the king included, that stands between
//! enemies is taken only by the move that closes the trap. Encirclement and edge forts are
//! likewise judged after a move. So a position where the king already stands surrounded, the
//! defenders are already encircled or the king already sits in a fort is playable, and only what
//! no move can begin is refused.

use crate::movegen;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// Why a position cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("the start position has no king")]
    NoKing,
    #[error("the king starts on {square}, a winning square: the defenders have already won")]
    KingEscaped { square: Square },
    #[error("the {side}, who move first, have no legal move")]
    NoLegalMove { side: Side },
}

impl StartError {
    /// The result the referee calls for a game that began there anyway (one stored before
    /// starts were checked). A side that cannot move loses; a start without a king is decided
    /// by no rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let win = |winner, reason| Some(Outcome::Win { winner, reason });
        match *self {
            StartError::NoKing => None,
            StartError::KingEscaped { .. } => win(Side::Defenders, WinReason::KingEscaped),
            StartError::NoLegalMove { side } => win(side.opponent(), WinReason::NoLegalMoves),
        }
    }
}

/// Refuses a position no game can begin from: no king, a king already on a square that wins, or
/// no legal move for the side to move. Everything else is a position the rules play from, however
/// lost it looks (see the module's documentation).
pub fn check_start(rules: &Rules, position: &Position) -> Result<(), StartError> {
    let Some(king) = position.king() else {
        return Err(StartError::NoKing);
    };
    if rules.is_escape_square(king) {
        return Err(StartError::KingEscaped { square: king });
    }
    if !movegen::has_legal_move(rules, position) {
        return Err(StartError::NoLegalMove {
            side: position.side_to_move(),
        });
    }
    Ok(())
}

impl Rules {
    /// Whether the rules' own start position can begin a game (see [`check_start`]).
    pub fn check_start(&self) -> Result<(), StartError> {
        check_start(self, &self.start_position())
    }
}
