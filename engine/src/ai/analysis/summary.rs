//! What a player reads first: each side's accuracy and the worst moves.

use serde::{Deserialize, Serialize};

use crate::side::Side;

use super::PlyAnalysis;
use super::mark::{Mark, move_accuracy};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    pub side: Side,
    /// Mean of the moves' accuracies, 0 to 100.
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    pub missed_wins: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub attackers: SideSummary,
    pub defenders: SideSummary,
    /// The worst moves (at most three, inaccuracy or worse), worst first.
    pub worst: Vec<PlyAnalysis>,
}

/// Sums up `plies`.
pub fn summarize(plies: &[PlyAnalysis]) -> GameSummary {
    let side = |side: Side| {
        let own: Vec<&PlyAnalysis> = plies.iter().filter(|p| p.side == side).collect();
        let count = |mark: Mark| {
            u32::try_from(own.iter().filter(|p| p.mark == mark).count()).unwrap_or(u32::MAX)
        };
        let accuracy = if own.is_empty() {
            100.0
        } else {
            own.iter().map(|p| move_accuracy(p.loss)).sum::<f64>() / own.len() as f64
        };
        SideSummary {
            side,
            accuracy,
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            blunders: count(Mark::Blunder),
            missed_wins: count(Mark::MissedWin),
        }
    };
    let mut worst: Vec<PlyAnalysis> = plies
        .iter()
        .filter(|p| p.mark.is_error())
        .cloned()
        .collect();
    // A missed win first, then by the chance given away.
    worst.sort_by(|a, b| {
        (b.mark == Mark::MissedWin)
            .cmp(&(a.mark == Mark::MissedWin))
            .then(b.loss.total_cmp(&a.loss))
    });
    worst.truncate(3);
    GameSummary {
        attackers: side(Side::Attackers),
        defenders: side(Side::Defenders),
        worst,
    }
}
