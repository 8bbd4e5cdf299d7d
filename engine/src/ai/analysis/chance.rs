//! The defenders' winning chance, from a search score.

use serde::{Deserialize, Serialize};

use crate::ai::MATE_BOUND;
use crate::side::Side;

/// Score difference (100 = about one soldier) that moves the chance from 50% to about 60%:
/// the logistic curve's scale. Provisional until calibrated against self-play results
/// (`tafl calibrate`, docs/ai.md, "Analysis").
pub const SCORE_SCALE: f64 = 250.0;

/// The defenders' chance of winning, 0 to 100 (percent). The attackers' is 100 minus it.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WinningChance(f64);

impl WinningChance {
    pub const DEFENDERS_WIN: WinningChance = WinningChance(100.0);
    pub const ATTACKERS_WIN: WinningChance = WinningChance(0.0);
    pub const EVEN: WinningChance = WinningChance(50.0);

    /// From a search `score` for `to_move` (a forced result is 0 or 100).
    pub fn from_score(score: i32, to_move: Side) -> WinningChance {
        WinningChance::from_defenders_score(defenders_score(score, to_move), 0)
    }

    /// From the defenders' score, counted from `baseline`: the score of the game's start,
    /// where the evaluation is not zero (material counts two attackers for each defender, so
    /// most starts score for the attackers) but the game is about even.
    pub fn from_defenders_score(score: i32, baseline: i32) -> WinningChance {
        if score.abs() > MATE_BOUND {
            return if score > 0 {
                WinningChance::DEFENDERS_WIN
            } else {
                WinningChance::ATTACKERS_WIN
            };
        }
        let advantage = f64::from(score) - f64::from(baseline);
        WinningChance(100.0 / (1.0 + (-advantage / SCORE_SCALE).exp()))
    }

    /// The defenders' chance in percent.
    pub fn defenders(self) -> f64 {
        self.0
    }

    /// `side`'s chance in percent.
    pub fn for_side(self, side: Side) -> f64 {
        match side {
            Side::Defenders => self.0,
            Side::Attackers => 100.0 - self.0,
        }
    }
}

/// A search score for `to_move` as the defenders' score.
pub fn defenders_score(score: i32, to_move: Side) -> i32 {
    match to_move {
        Side::Defenders => score,
        Side::Attackers => score.saturating_neg(),
    }
}
