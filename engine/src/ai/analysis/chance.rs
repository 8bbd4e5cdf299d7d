//! The defenders' winning chance, from a search score.

use serde::{Deserialize, Serialize};

use crate::ai::MATE_BOUND;
use crate::side::Side;

/// Score difference (100 = about one soldier) that moves the chance from 50% to about 73%:
/// the logistic curve's scale. Provisional until calibrated against self-play results
/// (docs/ai.md, "Analysis").
pub const SCORE_SCALE: f64 = 100.0;

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
        let for_defenders = match to_move {
            Side::Defenders => f64::from(score),
            Side::Attackers => -f64::from(score),
        };
        if score.abs() > MATE_BOUND {
            return if for_defenders > 0.0 {
                WinningChance::DEFENDERS_WIN
            } else {
                WinningChance::ATTACKERS_WIN
            };
        }
        WinningChance(100.0 / (1.0 + (-for_defenders / SCORE_SCALE).exp()))
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
