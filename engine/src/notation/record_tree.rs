//! A game record as a tree: the principal line as the referee played it, and on any of its
//! moves comments and side lines (variations), themselves lines that may branch again. This is
//! what an OpenTafl `.otg` record with variations and comments holds.

use crate::error::MoveError;
use crate::game::{Game, MoveReport};
use crate::moves::Move;

/// A line of play: consecutive moves from some position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineOfPlay {
    pub moves: Vec<RecordedMove>,
}

/// One move of a line, with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The referee's answer to the move (captures, outcome, notation).
    pub report: MoveReport,
    /// Shown once the move has been played.
    pub comment: Option<String>,
    /// Lines played instead of this move, from the position before it.
    pub variations: Vec<LineOfPlay>,
}

impl RecordedMove {
    pub fn new(report: MoveReport) -> RecordedMove {
        RecordedMove {
            report,
            comment: None,
            variations: Vec::new(),
        }
    }
}

impl LineOfPlay {
    /// Plays `moves` from `before` (the game is cloned, not changed); refused at the first
    /// illegal move with its index in `moves`.
    pub fn replay(before: &Game, moves: &[Move]) -> Result<LineOfPlay, (usize, MoveError)> {
        let mut game = before.clone();
        let mut line = LineOfPlay::default();
        for (i, &mv) in moves.iter().enumerate() {
            let report = game.play(mv).map_err(|e| (i, e))?;
            line.moves.push(RecordedMove::new(report));
        }
        Ok(line)
    }
}

/// A whole record: the game along its principal line, its tags, and the principal line again
/// as a tree that carries the comments and variations.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game as the principal line leaves it.
    pub game: Game,
    /// Tags other than the ones the record format owns (rules, position, to-move).
    pub tags: Vec<(String, String)>,
    /// The principal line; its reports are `game.history()`.
    pub main: LineOfPlay,
}

impl GameRecord {
    /// A record without comments or variations.
    pub fn from_game(game: Game, tags: Vec<(String, String)>) -> GameRecord {
        let main = LineOfPlay {
            moves: game
                .history()
                .iter()
                .cloned()
                .map(RecordedMove::new)
                .collect(),
        };
        GameRecord { game, tags, main }
    }

    /// The game as it stood before principal-line ply `ply` (1-based) was played, replayed
    /// from the start; `None` past the end of the principal line.
    pub fn game_before(&self, ply: u32) -> Option<Game> {
        let index = usize::try_from(ply.checked_sub(1)?).ok()?;
        if index > self.main.moves.len() {
            return None;
        }
        let moves: Vec<Move> = self.main.moves[..index]
            .iter()
            .map(|m| m.report.mv)
            .collect();
        Game::replay(
            self.game.rules().clone(),
            *self.game.start_position(),
            &moves,
        )
        .ok()
    }
}
