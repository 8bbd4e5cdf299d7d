//! Every error the engine reports, each a sentence a person can act on.

use crate::side::{Piece, Side};
use crate::square::Square;

/// A square or move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("{0:?} is not a square: write a file letter then a rank number, like e5")]
    BadSquare(String),
    #[error("{square} is off the {dim}x{dim} board")]
    OffBoard { square: String, dim: u8 },
    #[error(
        "{0:?} is not a move: write the start square and the end square, like e5-e8 (or e5 e8, e5e8)"
    )]
    BadMove(String),
}

/// A move that the rules do not allow, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("{square} is off the board")]
    OffBoard { square: Square },
    #[error("there is no piece on {square}")]
    NoPiece { square: Square },
    #[error("the {piece} on {square} is not yours: it is the {to_move}' turn")]
    NotYourPiece {
        square: Square,
        piece: Piece,
        to_move: Side,
    },
    #[error("a move must end on another square")]
    NotAMove,
    #[error("{from} to {to} is not a straight line along a file or rank")]
    NotStraight { from: Square, to: Square },
    #[error("the way is blocked at {at}")]
    Blocked { at: Square },
    #[error("{square} is a restricted square the {piece} may not {action}")]
    Restricted {
        square: Square,
        piece: Piece,
        action: RestrictedAction,
    },
    #[error("a {piece} moves at most {limit} squares, and this move is {distance}")]
    SpeedLimit {
        piece: Piece,
        limit: u8,
        distance: u8,
    },
    #[error("{square} is a fortress square the {piece} may not {action}")]
    Fortress {
        square: Square,
        piece: Piece,
        action: RestrictedAction,
    },
}

/// What a piece tried to do on a special square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestrictedAction {
    PassThrough,
    StopOn,
    ReEnter,
}

impl std::fmt::Display for RestrictedAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RestrictedAction::PassThrough => "pass through",
            RestrictedAction::StopOn => "stop on",
            RestrictedAction::ReEnter => "enter again",
        })
    }
}

/// Reading then playing a move failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("illegal move: {0}")]
    Illegal(#[from] MoveError),
}

/// An OpenTafl position record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionParseError {
    #[error(
        "a position record starts and ends with '/' and has one '/'-separated row per rank, like /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    )]
    Shape,
    #[error("the board has {0} rows: boards are 7x7 to 19x19")]
    BadSize(usize),
    #[error("row {row} is {width} squares wide, but the board has {dim} rows")]
    RowWidth {
        row: usize,
        width: usize,
        dim: usize,
    },
    #[error(
        "unknown piece letter {letter:?} in row {row}: use t (attacker), T (defender), K (king)"
    )]
    UnknownPiece { letter: char, row: usize },
    #[error("the position has {0} kings: at most one")]
    TooManyKings(usize),
}

/// An OpenTafl rules string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesParseError {
    #[error("a rules string must start with the board size, like dim:11")]
    MissingDim,
    #[error("a rules string must end with the start position, like start:/3t3/.../")]
    MissingStart,
    #[error("entry {0:?} is not of the form key:value")]
    BadEntry(String),
    #[error("unknown rules entry {0:?}")]
    UnknownKey(String),
    /// Two entries of one key: which one holds is a guess, so neither is taken.
    #[error("rules entry {0:?} is given twice")]
    RepeatedKey(String),
    #[error("bad value {value:?} for {key}: {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
    #[error("board size {0} is not supported: boards are 7x7 to 19x19")]
    BadDim(u32),
    #[error("the start position is {found}x{found}, but dim says {dim}")]
    DimMismatch { dim: u8, found: u8 },
    #[error("bad start position: {0}")]
    Position(#[from] PositionParseError),
    #[error("{0} is not supported by this engine")]
    Unsupported(String),
}
