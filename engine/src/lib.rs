//! tafl-engine: rules, positions, moves, outcomes, notation, perft and AI for the hnefatafl
//! family. Pure: no I/O, no async.

mod bitboard;
mod capture;
mod error;
mod game;
mod movegen;
mod moves;
mod outcome;
mod piece_set;
mod position;
mod referee;
mod rules;
mod rules_string;
mod rules_summary;
mod side;
mod square;
mod start;
mod variants;
mod warning;
mod zobrist;

pub mod ai;
pub mod otg;
pub mod perft;

pub use bitboard::Bitboard;
pub use capture::Captures;
pub use error::{
    MoveError, NotationError, PlayError, PositionParseError, RestrictedAction, RulesParseError,
};
pub use game::{Game, MoveReport};
pub use movegen::{check_move, count_legal_moves, has_legal_move, legal_moves, legal_moves_from};
pub use moves::{Move, canonical_notation};
pub use otg::OtgError;
pub use outcome::{DrawReason, Outcome, WinReason};
pub use piece_set::PieceSet;
pub use position::Position;
pub use referee::{apply, encircled, in_edge_fort};
pub use rules::{
    Escape, KingArmed, KingStrength, Repetition, Rules, Shieldwall, SquareKind, SquareRules,
};
pub use side::{ParseSideError, Piece, Side};
pub use square::{Direction, MAX_DIM, MIN_DIM, Square};
pub use start::{StartError, check_start};
pub use variants::{Variant, variant, variants};
pub use warning::{Warning, WarningKind, escape_warning};
