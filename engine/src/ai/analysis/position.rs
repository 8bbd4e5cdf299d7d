//! One position searched: the winning chance, the best move and its line, a forced result.

use serde::{Deserialize, Serialize};

use crate::ai::{MATE_BOUND, SearchLimits, Searcher};
use crate::game::Game;
use crate::moves::Move;
use crate::outcome::Outcome;
use crate::side::Side;

use super::chance::WinningChance;
use super::forced::ForcedResult;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionEval {
    pub chance: WinningChance,
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
        return PositionEval {
            chance: match game.outcome() {
                Some(Outcome::Win {
                    winner: Side::Defenders,
                    ..
                }) => WinningChance::DEFENDERS_WIN,
                Some(Outcome::Win {
                    winner: Side::Attackers,
                    ..
                }) => WinningChance::ATTACKERS_WIN,
                _ => WinningChance::EVEN,
            },
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
        best: Some(result.best_move),
        line: result.pv,
        forced,
        depth: result.depth,
        nodes: result.nodes,
    }
}
