//! What the front ends show of a puzzle and of a try at it. The solution is never in a
//! puzzle's view: only the square of the piece to move next (the hint), and the whole line once
//! a try is over.

use serde::{Deserialize, Serialize};
use tafl_engine::Side;
use tafl_engine::ai::puzzle::PuzzleTheme;
use utoipa::ToSchema;

use crate::domain::{GameId, PuzzleId, SideSchema};
use crate::ratings::glicko::{self, is_provisional};
use crate::store::rows::{Glicko, PuzzleRow};

/// A puzzle to solve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleView {
    pub id: PuzzleId,
    /// The preset variant of the game it comes from, or `custom`.
    pub variant: String,
    /// The OpenTafl rules string.
    pub rules: String,
    /// The OpenTafl position record (first row = rank 1's opposite: as the engine writes it).
    pub position: String,
    /// Who solves it: the side to move.
    #[schema(value_type = SideSchema)]
    pub side_to_move: Side,
    /// `escape`, `capture_king` or `material`.
    #[schema(value_type = String, example = "escape")]
    pub theme: PuzzleTheme,
    /// The solver's moves the line takes ("escape in 2": 2).
    pub moves_to_find: u32,
    /// The square of the piece the solver moves first, shown when asked for a hint.
    pub hint: String,
    /// The puzzle's Glicko-2 rating (rounded).
    pub rating: f64,
    /// Tries rated so far, and how many solved it.
    pub attempts: u32,
    pub solved: u32,
    /// The game it was mined from, and the plies played before the position.
    pub game_id: GameId,
    pub ply: u32,
}

impl PuzzleView {
    pub(super) fn new(row: &PuzzleRow, theme: PuzzleTheme, solution: &[String]) -> PuzzleView {
        PuzzleView {
            id: row.id,
            variant: row.variant.clone(),
            rules: row.rules.clone(),
            position: row.position.clone(),
            side_to_move: row.side_to_move,
            theme,
            moves_to_find: u32::try_from(solution.len().div_ceil(2)).unwrap_or(u32::MAX),
            hint: solution.first().map(|m| hint_of(m)).unwrap_or_default(),
            rating: glicko::shown(row.glicko.rating),
            attempts: row.attempts,
            solved: row.solved,
            game_id: row.game_id,
            ply: row.ply,
        }
    }
}

/// The square a move starts from: `d4` of `d4-d1xd2`.
pub(super) fn hint_of(mv: &str) -> String {
    mv.split('-').next().unwrap_or(mv).to_string()
}

/// How a try went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttemptResult {
    /// Every move right: solved.
    Correct,
    /// A move was not the solution's: failed.
    Wrong,
    /// Every move so far right, more to find: send them again with the next one.
    Continue,
}

/// One side of a rating change (the player's, or the puzzle's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleRatingChange {
    pub before: f64,
    pub after: f64,
    /// `after - before`.
    pub change: f64,
    pub deviation: f64,
    pub provisional: bool,
}

impl PuzzleRatingChange {
    pub(super) fn new(before: &Glicko, after: &Glicko) -> PuzzleRatingChange {
        PuzzleRatingChange {
            before: glicko::shown(before.rating),
            after: glicko::shown(after.rating),
            change: glicko::shown(after.rating - before.rating),
            deviation: glicko::shown(after.deviation),
            provisional: is_provisional(after),
        }
    }
}

/// The answer to a try.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AttemptView {
    pub puzzle_id: PuzzleId,
    pub result: AttemptResult,
    /// The opponent's reply after each right move (none after the move that ends the line).
    pub replies: Vec<String>,
    /// The wrong move, and the engine's answer to it (none when it has no move there).
    pub wrong_move: Option<String>,
    pub refutation: Option<String>,
    /// Once the try is over: the whole line, the solver's moves and the replies.
    pub solution: Option<Vec<String>>,
    /// While it goes on: the square of the piece to move next.
    pub next_hint: Option<String>,
    /// Whether this try changed the ratings: only a player's first finished try at a puzzle.
    pub rated: bool,
    pub player_rating: Option<PuzzleRatingChange>,
    pub puzzle_rating: Option<PuzzleRatingChange>,
}

/// A player's puzzle rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PuzzleRatingView {
    pub rating: f64,
    pub deviation: f64,
    pub provisional: bool,
    pub attempts: u32,
    pub solved: u32,
}

/// The puzzles mined from one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GamePuzzles {
    /// Whether the miner has searched the game yet (its analysis done).
    pub mined: bool,
    pub puzzles: Vec<PuzzleView>,
}
