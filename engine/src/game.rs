//! A game: the rules, the current position and its history. Adds to the referee what needs the
//! past: threefold repetition and draw forts.

use std::collections::HashMap;

use serde::Serialize;

use crate::capture::Captures;
use crate::error::{MoveError, PlayError};
use crate::movegen;
use crate::moves::Move;
use crate::notation::canonical_notation;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::referee;
use crate::rules::Rules;
use crate::side::{Piece, Side};
use crate::square::Square;
use crate::start::{StartError, check_start};
use crate::warning::{Warning, escape_warning};
use crate::zobrist;

/// The referee's answer to one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveReport {
    /// 1-based ply number of this move.
    pub ply: u32,
    pub side: Side,
    pub piece: Piece,
    #[serde(rename = "move")]
    pub mv: Move,
    /// Soldiers taken off the board. The king is never among them: a captured king stays on
    /// his square (see `king_captured`).
    pub captures: Vec<Square>,
    /// Where the king stood when this move captured him (under rescue rules he may yet be
    /// freed; the outcome says whether the capture ended the game).
    pub king_captured: Option<Square>,
    /// Canonical notation with captures, `e5-e8xe9/f8`.
    pub notation: String,
    /// Raichi or tuichu after the move.
    pub warning: Option<Warning>,
    /// Set when this move ended the game.
    pub outcome: Option<Outcome>,
    /// Hash of the position after the move.
    #[serde(skip)]
    pub hash: u64,
}

/// Minimum defending soldiers for the draw-fort rule (docs/rules.md, R-003-draw-forts: "king plus
/// five men").
const DRAW_FORT_MIN_MEN: u32 = 5;

#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Position,
    position: Position,
    history: Vec<MoveReport>,
    outcome: Option<Outcome>,
    seen: HashMap<u64, u32>,
    /// Defenders' arrangements after their moves since the last capture.
    fort_seen: HashMap<u64, u32>,
}

impl Game {
    /// A game from the rules' start position.
    pub fn new(rules: Rules) -> Game {
        let start = rules.start_position();
        Game::from_position(rules, start)
    }

    /// A game from the rules' start position, refused when the referee would already call
    /// that start decided or it leaves a side nothing to play (see [`check_start`]).
    pub fn start(rules: Rules) -> Result<Game, StartError> {
        rules.check_start()?;
        Ok(Game::new(rules))
    }

    /// A game from `position`, refused like [`Game::start`] refuses a start.
    pub fn start_from(rules: Rules, position: Position) -> Result<Game, StartError> {
        check_start(&rules, &position)?;
        Ok(Game::from_position(rules, position))
    }

    /// A game from any position of the right size, even one already decided.
    pub fn from_position(rules: Rules, position: Position) -> Game {
        let mut game = Game {
            rules,
            start: position,
            position,
            history: Vec::new(),
            outcome: None,
            seen: HashMap::new(),
            fort_seen: HashMap::new(),
        };
        game.seen.insert(position.hash(), 1);
        if !movegen::has_legal_move(&game.rules, &position) {
            game.outcome = Some(Outcome::Win {
                winner: position.side_to_move().opponent(),
                reason: WinReason::NoLegalMoves,
            });
        }
        game
    }

    /// Replays `moves` from `start`; stops at the first illegal one with its index.
    pub fn replay(
        rules: Rules,
        start: Position,
        moves: &[Move],
    ) -> Result<Game, (usize, MoveError)> {
        let mut game = Game::from_position(rules, start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn start_position(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Number of moves played.
    pub fn ply(&self) -> u32 {
        self.history.len() as u32
    }

    pub fn history(&self) -> &[MoveReport] {
        &self.history
    }

    /// Legal moves of the side to move; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        movegen::legal_moves(&self.rules, &self.position)
    }

    pub fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        movegen::legal_moves_from(&self.rules, &self.position, from)
    }

    /// Legal moves that would recreate a board (the pieces alone, whoever is to move) seen
    /// earlier in the game. hnefatafl-copenhagen forbids the defenders such moves, where these
    /// rules only count repetitions, so a host playing against it leaves them out.
    pub fn moves_recreating_a_board(&self) -> Vec<Move> {
        let seen_board = |hash: u64| {
            [0, zobrist::DEFENDERS_TO_MOVE]
                .into_iter()
                .flat_map(|side| {
                    [0, zobrist::KING_AWAITS_RESCUE].map(|rescue| hash ^ side ^ rescue)
                })
                .any(|variant| self.seen.contains_key(&variant))
        };
        let mut out = Vec::new();
        for mv in self.legal_moves() {
            let Ok(piece) = self.check(mv) else { continue };
            let mut after = self.position;
            let mut captures = Captures::default();
            let _ = referee::apply(&self.rules, &mut after, mv, piece, &mut captures);
            if seen_board(after.hash()) {
                out.push(mv);
            }
        }
        out
    }

    /// Why `mv` is illegal, if it is.
    pub fn check(&self, mv: Move) -> Result<Piece, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        movegen::check_move(&self.rules, &self.position, mv)
    }

    /// The warning for the current position.
    pub fn warning(&self) -> Option<Warning> {
        escape_warning(&self.rules, &self.position)
    }

    /// Reads and plays a move.
    pub fn play_str(&mut self, text: &str) -> Result<MoveReport, PlayError> {
        let mv = Move::parse(text, self.rules.dim())?;
        Ok(self.play(mv)?)
    }

    /// Plays a move, or says why it is illegal (the game is then unchanged).
    pub fn play(&mut self, mv: Move) -> Result<MoveReport, MoveError> {
        let piece = self.check(mv)?;
        let side = piece.side();
        let mut captures = Captures::default();
        let mut outcome = referee::apply(&self.rules, &mut self.position, mv, piece, &mut captures);
        let hash = self.position.hash();
        let occurrences = {
            let count = self.seen.entry(hash).or_insert(0);
            *count += 1;
            *count
        };
        if outcome.is_none() && occurrences >= 3 {
            outcome = self.rules.repetition.outcome(side);
        }
        if self.rules.draw_forts {
            if !captures.is_empty() {
                self.fort_seen.clear();
            }
            if side == Side::Defenders && outcome.is_none() {
                let arrangement = defenders_arrangement(&self.position);
                let count = self.fort_seen.entry(arrangement).or_insert(0);
                *count += 1;
                if *count >= 3 && self.position.count(Piece::Defender) >= DRAW_FORT_MIN_MEN {
                    outcome = Some(Outcome::Win {
                        winner: Side::Attackers,
                        reason: WinReason::DrawFort,
                    });
                }
            }
        }
        let captures = captures.as_slice().to_vec();
        let king_captured = match (side, outcome) {
            (
                Side::Attackers,
                Some(Outcome::Win {
                    reason: WinReason::KingCaptured,
                    ..
                }),
            ) => self.position.king(),
            (Side::Attackers, _) if self.position.king_awaits_rescue() => self.position.king(),
            _ => None,
        };
        let report = MoveReport {
            ply: self.ply() + 1,
            side,
            piece,
            mv,
            notation: canonical_notation(mv, &captures),
            captures,
            king_captured,
            warning: if outcome.is_none() {
                escape_warning(&self.rules, &self.position)
            } else {
                None
            },
            outcome,
            hash,
        };
        self.outcome = outcome;
        self.history.push(report.clone());
        Ok(report)
    }
}

/// Hash of where the defenders and the king stand, ignoring the attackers.
fn defenders_arrangement(position: &Position) -> u64 {
    position
        .pieces()
        .filter(|(_, piece)| piece.side() == Side::Defenders)
        .fold(0, |hash, (sq, piece)| hash ^ zobrist::piece_key(piece, sq))
}
