//! One position searched: the winning chance, the best move and its line, a forced result.

use serde::{Deserialize, Serialize};

use crate::ai::{MATE, MATE_BOUND, SearchLimits, Searcher};
use crate::game::Game;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::side::Side;

use super::chance::{WinningChance, defenders_score};
use super::forced::ForcedResult;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    pub chance: WinningChance,
    /// The search's score for the defenders (100 = about one soldier; beyond
    /// [`crate::ai::MATE_BOUND`] a proved result); the chance is read from it.
    #[serde(default)]
    pub score: i32,
    /// None when the game is over here.
    pub best: Option<Move>,
    pub line: Vec<Move>,
    pub forced: Option<ForcedResult>,
    pub depth: u32,
    pub nodes: u64,
}

/// Searches `game`'s current position with `limits` (a finished game is judged by its outcome).
pub fn evaluate(searcher: &mut Searcher, game: &Game, limits: &SearchLimits) -> PositionEval {
    let Some(result) = searcher.search(game, limits) else {
        let chance = match game.outcome() {
            Some(Outcome::Win {
                winner: Side::Defenders,
                ..
            }) => WinningChance::DEFENDERS_WIN,
            Some(Outcome::Win {
                winner: Side::Attackers,
                ..
            }) => WinningChance::ATTACKERS_WIN,
            _ => WinningChance::EVEN,
        };
        let score = match chance {
            WinningChance::DEFENDERS_WIN => MATE,
            WinningChance::ATTACKERS_WIN => -MATE,
            _ => 0,
        };
        return PositionEval {
            chance,
            score,
            best: None,
            line: Vec::new(),
            forced: None,
            depth: 0,
            nodes: 0,
        };
    };
    let forced = match result.mate_in {
        Some(plies) if result.score.abs() > MATE_BOUND => {
            Some(ForcedResult::from_search(game, plies, &result.pv))
        }
        _ => None,
    };
    PositionEval {
        chance: WinningChance::from_score(result.score, game.side_to_move()),
        score: defenders_score(result.score, game.side_to_move()),
        best: Some(result.best_move),
        line: result.pv,
        forced,
        depth: result.depth,
        nodes: result.nodes,
    }
}

impl PositionEval {
    /// The chance read from the score counted from `baseline` (the start's score, see
    /// [`WinningChance::from_defenders_score`]); a finished position keeps its result.
    pub fn with_baseline(mut self, baseline: i32) -> PositionEval {
        if self.best.is_some() {
            self.chance = WinningChance::from_defenders_score(self.score, baseline);
        }
        self
    }

    /// The score to count the others from when this is a game's start (none once proved).
    pub fn baseline(&self) -> i32 {
        if self.score.abs() > MATE_BOUND {
            0
        } else {
            self.score
        }
    }
}

/// The evaluations of a game's positions, start first, with their chances counted from the
/// start's score.
pub fn rebased(evals: Vec<PositionEval>) -> Vec<PositionEval> {
    let baseline = evals.first().map_or(0, PositionEval::baseline);
    evals
        .into_iter()
        .map(|e| e.with_baseline(baseline))
        .collect()
}
