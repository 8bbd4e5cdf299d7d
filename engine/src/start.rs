//! Judging a start position like any ply: a start the referee would already call decided, or
//! one with nothing to play, is refused before a game is made of it.

use crate::capture;
use crate::movegen;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::referee::{encircled, in_edge_fort};
use crate::rules::Rules;
use crate::side::Side;
use crate::square::Square;

/// Why a position cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("the start position has no king")]
    NoKing,
    #[error("the start position has no attackers")]
    NoAttackers,
    #[error("the king starts on {square}, a winning square: the defenders have already won")]
    KingEscaped { square: Square },
    #[error("the king on {square} starts captured: the attackers have already won")]
    KingCaptured { square: Square },
    #[error("the attackers start with the king and all his defenders encircled")]
    Encircled,
    #[error("the king starts in an edge fort: the defenders have already won")]
    EdgeFort,
    #[error("the {side}, who move first, have no legal move")]
    NoLegalMove { side: Side },
}

impl StartError {
    /// The result the referee calls for a game that began there anyway (one stored before
    /// starts were checked). Every side that cannot move loses, so a start without attackers
    /// is the defenders' win; a start without a king is decided by no rule.
    pub fn outcome(&self) -> Option<Outcome> {
        let win = |winner, reason| Some(Outcome::Win { winner, reason });
        match *self {
            StartError::NoKing => None,
            StartError::NoAttackers => win(Side::Defenders, WinReason::NoLegalMoves),
            StartError::KingEscaped { .. } => win(Side::Defenders, WinReason::KingEscaped),
            StartError::KingCaptured { .. } => win(Side::Attackers, WinReason::KingCaptured),
            StartError::Encircled => win(Side::Attackers, WinReason::Encirclement),
            StartError::EdgeFort => win(Side::Defenders, WinReason::EdgeFort),
            StartError::NoLegalMove { side } => win(side.opponent(), WinReason::NoLegalMoves),
        }
    }
}

/// Refuses a position that the referee would judge already decided, or that leaves a side
/// nothing to play with. Checks in the order a reader would: pieces, then outcomes, then moves.
pub fn check_start(rules: &Rules, position: &Position) -> Result<(), StartError> {
    let Some(king) = position.king() else {
        return Err(StartError::NoKing);
    };
    if position.attackers().is_empty() {
        return Err(StartError::NoAttackers);
    }
    if rules.is_escape_square(king) {
        return Err(StartError::KingEscaped { square: king });
    }
    if capture::king_captured(rules, position, None) {
        return Err(StartError::KingCaptured { square: king });
    }
    if rules.encirclement && encircled(position) {
        return Err(StartError::Encircled);
    }
    if rules.edge_fort_escape && in_edge_fort(rules, position) {
        return Err(StartError::EdgeFort);
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
