//! tafl-engine: rules, positions, moves, outcomes, notation, perft and AI for the hnefatafl
//! family. Pure: no I/O, no async.
//!
//! # Playing a game
//! A [`Game`] is the referee: it refuses illegal moves with a reason, and answers each move
//! with its captures, the escape warning and, when it ends the game, the outcome.
//! ```
//! use tafl_engine::{Game, Outcome, Side, WinReason, variant};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let rules = variant("brandubh").ok_or("no such preset")?.rules();
//! let mut game = Game::start(rules)?;
//! assert_eq!(game.side_to_move(), Side::Attackers);
//!
//! let report = game.play_str("d2-c2")?;
//! assert!(report.captures.is_empty());
//! assert_eq!(game.side_to_move(), Side::Defenders);
//!
//! // Pieces never jump: the defender on d3 cannot pass the king on d4. The referee says why.
//! let refused = game.play_str("d3-d5").unwrap_err();
//! assert!(!refused.to_string().is_empty());
//! assert_eq!(game.side_to_move(), Side::Defenders);
//!
//! // An outcome is a win with its reason, or a draw.
//! if let Some(Outcome::Win { winner, reason }) = game.outcome() {
//!     println!("{winner} won: {reason:?}");
//! }
//! # let _ = WinReason::KingEscaped;
//! # Ok(())
//! # }
//! ```
//!
//! # Rules strings, positions and perft
//! Any rule set reads from and writes to an OpenTafl rules string (see [`Rules::from_opentafl`]);
//! positions are OpenTafl records, first row = rank 1.
//! ```
//! use tafl_engine::{Position, Rules, Side, perft::perft};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let rules = Rules::from_opentafl("dim:7 ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")?;
//! assert_eq!(Rules::from_opentafl(&rules.to_opentafl())?, rules);
//! assert_eq!(perft(&rules, &rules.start_position(), 1), 40);
//!
//! // A mid-game position: a king already between two attackers is playable (capture is
//! // active), and the side to move is part of the position.
//! let position = Position::from_opentafl("/7/7/7/2tKt2/7/7/3T3/", Side::Defenders)?;
//! assert!(tafl_engine::check_start(&rules, &position).is_ok());
//! # Ok(())
//! # }
//! ```
//!
//! # The AI
//! [`ai::search`] finds a move within a level's limits (see the [`ai`] module).

mod bitboard;
mod capture;
mod error;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod piece_set;
mod position;
mod referee;
mod rules;
mod rules_summary;
mod side;
mod square;
mod start;
mod symmetry;
mod variants;
mod warning;
mod zobrist;

pub mod ai;
pub mod perft;

pub use bitboard::Bitboard;
pub use capture::Captures;
pub use error::{
    MoveError, NotationError, PlayError, PositionParseError, RestrictedAction, RulesParseError,
};
pub use game::{Game, MoveReport};
pub use move_list::{ClaimedResult, MoveList, MoveListError};
pub use movegen::{check_move, count_legal_moves, has_legal_move, legal_moves, legal_moves_from};
pub use moves::Move;
pub use notation::{GameRecord, LineOfPlay, RecordedMove, canonical_notation, move_list, otg};
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
pub use symmetry::{FoldedKey, Symmetry, folded_key, folded_path};
pub use variants::{Variant, variant, variants};
pub use warning::{Warning, WarningKind, escape_warning};
