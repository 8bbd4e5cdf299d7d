//! Does the winning chance mean what it says? Positions from finished games are searched and
//! binned by the chance the search gives the defenders; in each bin, the defenders' mean score
//! in those games (win 1, draw or unfinished 0.5, loss 0) is what the chance should match.

use serde::Serialize;

use crate::ai::{SearchLimits, Searcher, selfplay};
use crate::game::Game;
use crate::side::Side;

use super::position::evaluate;

/// One tenth of the chance scale.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CalibrationBin {
    /// The bin's range of predicted chance, in percent: [from, to).
    pub from: f64,
    pub to: f64,
    pub positions: u32,
    /// Mean predicted chance of the positions in the bin.
    pub predicted: f64,
    /// The defenders' mean score in their games, in percent.
    pub observed: f64,
}

/// Searches every `every`-th position (from the first after ply `skip`) of each game with
/// `limits` and bins them by predicted chance into ten deciles.
pub fn calibrate(
    games: &[Game],
    skip: u32,
    every: u32,
    limits: &SearchLimits,
) -> Vec<CalibrationBin> {
    let mut sums = [(0u32, 0.0f64, 0.0f64); 10];
    let mut searcher = Searcher::new(limits.table_mib);
    for game in games {
        let result = selfplay::points(game, Side::Defenders) * 100.0;
        let mut replay = Game::from_position(game.rules().clone(), *game.start_position());
        let baseline = evaluate(&mut searcher, &replay, limits).baseline();
        for report in game.history() {
            if replay.play(report.mv).is_err() || replay.is_over() {
                break;
            }
            let ply = replay.ply();
            if ply < skip || !(ply - skip).is_multiple_of(every.max(1)) {
                continue;
            }
            let chance = evaluate(&mut searcher, &replay, limits)
                .with_baseline(baseline)
                .chance
                .defenders();
            let bin = ((chance / 10.0) as usize).min(9);
            sums[bin].0 += 1;
            sums[bin].1 += chance;
            sums[bin].2 += result;
        }
    }
    sums.iter()
        .enumerate()
        .map(|(i, &(n, predicted, observed))| CalibrationBin {
            from: i as f64 * 10.0,
            to: (i + 1) as f64 * 10.0,
            positions: n,
            predicted: if n > 0 { predicted / f64::from(n) } else { 0.0 },
            observed: if n > 0 { observed / f64::from(n) } else { 0.0 },
        })
        .collect()
}
