//! Analysis of a game, ply by ply: how each move changed the defenders' winning chance, the
//! move the search preferred and its line, forced results, and a mark for each move (best,
//! good, inaccuracy, mistake, blunder, missed win), as lichess does for chess.
//!
//! Every position of the game is searched once ([`evaluate`]); a ply is judged from the
//! evaluations of the positions before and after it ([`judge`]). The two steps are apart so a
//! caller may store each position's evaluation and resume an analysis cut short.

mod calibration;
mod chance;
pub mod example;
mod forced;
mod mark;
mod position;
mod summary;

pub use calibration::{CalibrationBin, calibrate};
pub use chance::WinningChance;
pub use forced::ForcedResult;
pub use mark::{Mark, move_accuracy};
pub use position::{PositionEval, evaluate, rebased};
pub use summary::{GameSummary, SideSummary, summarize};

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::moves::Move;
use crate::side::Side;

use super::{SearchLimits, Searcher};

/// One ply judged: the move played, what the search preferred, and the mark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// 1-based ply number.
    pub ply: u32,
    pub side: Side,
    pub played: Move,
    /// The defenders' winning chance before and after the move.
    pub before: WinningChance,
    pub after: WinningChance,
    /// The search's choice before the move, and its line (starting with it).
    pub best: Option<Move>,
    pub line: Vec<Move>,
    /// A forced result the search proved before the move.
    pub forced: Option<ForcedResult>,
    pub mark: Mark,
    /// Winning chance the mover gave away, in percentage points (0 when it gained).
    pub loss: f64,
}

/// Judges ply `ply`, played by `side`, from the evaluations of the positions around it.
pub fn judge(
    ply: u32,
    side: Side,
    played: Move,
    before: &PositionEval,
    after: &PositionEval,
) -> PlyAnalysis {
    let loss = (before.chance.for_side(side) - after.chance.for_side(side)).max(0.0);
    let mark = Mark::of(side, played, before, after, loss);
    PlyAnalysis {
        ply,
        side,
        played,
        before: before.chance,
        after: after.chance,
        best: before.best,
        line: before.line.clone(),
        forced: before.forced.clone(),
        mark,
        loss,
    }
}

/// Analyses every ply of `game` from its start, each position searched with `limits`;
/// `on_ply` hears of each ply as it is judged.
pub fn analyse(
    game: &Game,
    limits: &SearchLimits,
    on_ply: &mut dyn FnMut(&PlyAnalysis),
) -> Vec<PlyAnalysis> {
    let mut searcher = Searcher::new(limits.table_mib);
    let mut replay = Game::from_position(game.rules().clone(), *game.start_position());
    let mut before = evaluate(&mut searcher, &replay, limits);
    let baseline = before.baseline();
    before = before.with_baseline(baseline);
    let mut plies = Vec::with_capacity(game.history().len());
    for report in game.history() {
        if replay.play(report.mv).is_err() {
            // The game's own history is legal; a failure here would be a referee bug.
            break;
        }
        let after = evaluate(&mut searcher, &replay, limits).with_baseline(baseline);
        let ply = judge(report.ply, report.side, report.mv, &before, &after);
        on_ply(&ply);
        plies.push(ply);
        before = after;
    }
    plies
}

#[cfg(test)]
mod tests;
