//! The logistic Elo scale, and the Elo difference a match's results point to, with its 95%
//! interval, from the game results (trinomial) or from the results of game pairs, each opening
//! played once from each side (pentanomial), as fishtest and cutechess report them.

/// The 97.5% quantile of the standard normal distribution (a two-sided 95% interval).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The expected score of a player rated `elo` above its opponent: `1 / (1 + 10^(-elo/400))`.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference whose expected score is `score` (infinite at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// A player's results against one opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Results {
    /// Games lost, drawn and won.
    Trinomial([u32; 3]),
    /// Game pairs (one opening, each side once) by the player's points in the pair:
    /// 0, 1/2, 1, 3/2 and 2.
    Pentanomial([u32; 5]),
}

impl Results {
    /// The counts, from the worst result to the best.
    pub fn counts(&self) -> &[u32] {
        match self {
            Results::Trinomial(counts) => counts,
            Results::Pentanomial(counts) => counts,
        }
    }

    /// Trials: games or game pairs.
    pub fn trials(&self) -> u32 {
        self.counts().iter().sum()
    }

    /// Each outcome's score per game (0, 1/2, 1; or a pair's points halved) with its share.
    pub(crate) fn distribution(counts: &[f64]) -> Vec<(f64, f64)> {
        let total: f64 = counts.iter().sum();
        let steps = (counts.len() - 1) as f64;
        counts
            .iter()
            .enumerate()
            .map(|(i, &count)| (i as f64 / steps, count / total))
            .collect()
    }

    /// The mean score per game and the variance of one trial's score per game.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        if self.trials() == 0 {
            return None;
        }
        let counts: Vec<f64> = self.counts().iter().map(|&c| f64::from(c)).collect();
        Some(mean_and_variance(&Results::distribution(&counts)))
    }

    /// The Elo difference and its 95% interval, from the mean score and its standard error
    /// over the trials (a pair is one trial: pairs catch the opening's share of the result).
    pub fn elo(&self) -> Option<EloEstimate> {
        let (mean, variance) = self.mean_and_variance()?;
        let error = Z_95 * (variance / f64::from(self.trials())).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(mean),
            low: elo_from_score((mean - error).max(0.0)),
            high: elo_from_score((mean + error).min(1.0)),
        })
    }
}

pub(crate) fn mean_and_variance(distribution: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = distribution.iter().map(|(a, p)| a * p).sum();
    let variance = distribution
        .iter()
        .map(|(a, p)| p * (a - mean).powi(2))
        .sum();
    (mean, variance)
}

/// An Elo difference with its 95% interval (`low` and `high` may be infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// Half the interval's width: the "+/-" cutechess and fastchess print.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl std::fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:+.1} (95%: {:+.1} to {:+.1})",
            // Adding 0 turns -0 into 0.
            self.elo + 0.0,
            self.low + 0.0,
            self.high + 0.0
        )
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn the_scale_is_logistic_with_400_points_a_factor_of_ten() {
        assert!(close(expected_score(0.0), 0.5, 1e-12));
        assert!(close(expected_score(400.0), 10.0 / 11.0, 1e-12));
        // 3 to 1 odds: 400 log10(3).
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(expected_score(-123.4)), -123.4, 1e-9));
    }

    #[test]
    fn the_estimate_of_game_results_is_the_score_and_its_standard_error() {
        // 10 lost, 20 drawn, 30 won: score 2/3 (+120.4), variance
        // (10 (2/3)^2 + 20 (1/6)^2 + 30 (1/3)^2) / 60 = 0.1389, standard error
        // sqrt(0.1389 / 60) = 0.0481, so the score lies in 2/3 -+ 0.0943.
        let estimate = Results::Trinomial([10, 20, 30]).elo().unwrap();
        assert!(close(estimate.elo, 120.412, 1e-3), "{estimate}");
        assert!(close(estimate.low, 50.642, 1e-3), "{estimate}");
        assert!(close(estimate.high, 201.162, 1e-3), "{estimate}");
    }

    #[test]
    fn the_estimate_of_game_pairs_counts_a_pair_as_one_trial() {
        let estimate = Results::Pentanomial([5, 40, 100, 50, 10]).elo().unwrap();
        assert!(close(estimate.elo, 16.962, 1e-3), "{estimate}");
        assert!(close(estimate.low, -3.261, 1e-3), "{estimate}");
        assert!(close(estimate.high, 37.300, 1e-3), "{estimate}");
        assert_eq!(Results::Pentanomial([0; 5]).elo(), None);
    }

    /// fastchess's own tests (`app/tests/elo_test.cpp`: `diff()` and `error()`), its counts
    /// put in our order: games lost, drawn, won; pairs LL, LD, WL+DD, WD, WW.
    #[test]
    fn the_estimates_are_fastchess_figures() {
        for (results, elo, margin) in [
            (Results::Trinomial([96, 111, 136]), 40.70, 30.43),
            (
                Results::Pentanomial([34, 54, 31 + 32, 64, 75]),
                55.58,
                27.65,
            ),
            (
                Results::Pentanomial([332, 433, 457 + 41, 333, 334]),
                -8.64,
                10.33,
            ),
            (
                Results::Pentanomial([7895, 8757, 5485 + 200, 568, 9999]),
                -21.04,
                2.95,
            ),
        ] {
            let estimate = results.elo().unwrap();
            assert!(close(estimate.elo, elo, 0.005), "{results:?}: {estimate}");
            assert!(
                close(estimate.margin(), margin, 0.005),
                "{results:?}: {estimate}"
            );
        }
    }
}
