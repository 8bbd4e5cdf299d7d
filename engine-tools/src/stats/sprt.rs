//! The sequential probability ratio test of an engine change (fishtest's generalized SPRT on
//! the logistic Elo scale, `LLR_logistic` of its `LLRcalc`): H0, the change is worth `elo0`,
//! against H1, it is worth `elo1`; after each trial (a game, or better a game pair) the
//! log-likelihood ratio of the results under the two is compared with the bounds
//! `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
//!
//! Under each hypothesis the results' distribution is the one closest to the observed one
//! (maximum likelihood) whose expected score is that hypothesis's, so draws and the pairs'
//! correlation are taken from the data rather than from a model of them.

use super::elo::{Results, expected_score};

/// Counts of zero are replaced by this (fishtest's `regularize`), so every outcome has some
/// weight and the maximum-likelihood distribution exists.
const EMPTY_COUNT: f64 = 1e-3;

/// A test's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Parameters no test can have.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("elo0 ({elo0}) must be below elo1 ({elo1})")]
    Order { elo0: f64, elo1: f64 },
    #[error("alpha and beta must each lie between 0 and 1/2, not {alpha} and {beta}")]
    Errors { alpha: f64, beta: f64 },
}

/// Where a test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtStatus {
    /// The LLR reached the upper bound: the change is worth at least about `elo1`.
    AcceptH1,
    /// The LLR reached the lower bound: the change is worth at most about `elo0`.
    AcceptH0,
    /// Neither bound reached yet.
    Continue,
}

impl std::fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SprtStatus::AcceptH1 => "H1 accepted",
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::Continue => "inconclusive",
        })
    }
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(SprtError::Order { elo0, elo1 });
        }
        let valid = |e: f64| e > 0.0 && e < 0.5;
        if !valid(alpha) || !valid(beta) {
            return Err(SprtError::Errors { alpha, beta });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR at or below which H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The LLR at or above which H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 for `results`.
    pub fn llr(&self, results: &Results) -> f64 {
        if results.trials() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = results
            .counts()
            .iter()
            .map(|&c| if c == 0 { EMPTY_COUNT } else { f64::from(c) })
            .collect();
        let trials: f64 = counts.iter().sum();
        let observed = Results::distribution(&counts);
        let under = |elo: f64| closest_with_mean(&observed, expected_score(elo));
        let (h0, h1) = (under(self.elo0), under(self.elo1));
        trials
            * observed
                .iter()
                .zip(h0.iter().zip(&h1))
                .map(|((_, p), (p0, p1))| p * (p1.ln() - p0.ln()))
                .sum::<f64>()
    }

    pub fn status(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The distribution over the same outcomes, closest to `observed` by likelihood, whose mean
/// score is `mean`: `p_i / (1 + x (a_i - mean))`, x the root of
/// `sum p_i (a_i - mean) / (1 + x (a_i - mean)) = 0` (decreasing in x on the interval where
/// every denominator is positive; found by bisection). Every observed share must be positive
/// and the outcomes must range from 0 to 1, with `mean` strictly inside.
fn closest_with_mean(observed: &[(f64, f64)], mean: f64) -> Vec<f64> {
    let slope = |x: f64| -> f64 {
        observed
            .iter()
            .map(|(a, p)| p * (a - mean) / (1.0 + x * (a - mean)))
            .sum()
    };
    // The denominators stay positive for x in (-1 / (1 - mean), 1 / mean).
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let x = 0.5 * (low + high);
    observed
        .iter()
        .map(|(a, p)| p / (1.0 + x * (a - mean)))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::stats::elo::mean_and_variance;

    fn standard() -> Sprt {
        Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap()
    }

    /// The usual approximation of the GSPRT's LLR (fishtest's `LLR_alt2`, cutechess's):
    /// `N (s1 - s0) (2 mean - s0 - s1) / (2 variance)`.
    fn approximate_llr(sprt: &Sprt, results: &Results) -> f64 {
        let counts: Vec<f64> = results
            .counts()
            .iter()
            .map(|&c| if c == 0 { EMPTY_COUNT } else { f64::from(c) })
            .collect();
        let n: f64 = counts.iter().sum();
        let (mean, variance) = mean_and_variance(&Results::distribution(&counts));
        let (s0, s1) = (expected_score(sprt.elo0), expected_score(sprt.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    #[test]
    fn the_bounds_are_those_of_alpha_and_beta() {
        let sprt = standard();
        assert!((sprt.lower_bound() + 2.944_438_979).abs() < 1e-9);
        assert!((sprt.upper_bound() - 2.944_438_979).abs() < 1e-9);
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
    }

    /// `LLR_logistic(0, 10, counts)` by fishtest's algorithm (zero counts made 1e-3, the
    /// constrained maximum-likelihood distributions), computed apart in Python for these
    /// counts; the published fastchess figures are the next test.
    #[test]
    fn the_llr_is_fishtests_logistic_gsprt() {
        let sprt = standard();
        for (results, expected) in [
            (Results::Trinomial([10, 20, 30]), 0.829_121_343_8),
            (Results::Trinomial([50, 100, 70]), 0.889_829_888_9),
            (Results::Pentanomial([1, 10, 30, 12, 2]), 0.227_092_236_8),
            (Results::Pentanomial([5, 40, 100, 50, 10]), 1.119_936_886_7),
            (Results::Pentanomial([0, 2, 10, 3, 0]), 0.098_614_156_3),
        ] {
            let llr = sprt.llr(&results);
            assert!((llr - expected).abs() < 1e-6, "{results:?}: {llr}");
            // Close to the usual approximation where the results are many and balanced.
            if results.trials() >= 100 {
                let approx = approximate_llr(&sprt, &results);
                assert!((llr - approx).abs() < 0.02, "{results:?}: {llr} {approx}");
            }
        }
        assert_eq!(sprt.llr(&Results::Pentanomial([0; 5])), 0.0);
    }

    /// fastchess's own tests of its logistic model (`app/tests/sprt_test.cpp`), its counts put
    /// in our order: games lost, drawn, won (its `Stats(wins, losses, draws)`); pairs LL, LD,
    /// WL+DD, WD, WW.
    #[test]
    fn the_llr_is_fastchess_logistic_figures() {
        for (results, elo0, elo1, expected) in [
            (Results::Trinomial([21184, 40708, 21404]), 0.5, 2.5, -1.57),
            (Results::Trinomial([57030, 106593, 57433]), 0.0, 2.0, -2.59),
            (
                Results::Pentanomial([223, 9863, 20279 + 1000, 10037, 246]),
                0.5,
                2.5,
                -3.07,
            ),
            (
                Results::Pentanomial([871, 26175, 55003 + 980, 26678, 821]),
                0.0,
                2.0,
                -4.98,
            ),
        ] {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
            let llr = sprt.llr(&results);
            assert!((llr - expected).abs() < 0.005, "{results:?}: {llr}");
        }
    }

    #[test]
    fn the_test_stops_at_a_bound_one_way_or_the_other() {
        let sprt = standard();
        // Far better than H1: accepted; far worse than H0: rejected.
        let good = sprt.llr(&Results::Pentanomial([10, 60, 200, 150, 80]));
        assert_eq!(sprt.status(good), SprtStatus::AcceptH1, "{good}");
        let bad = sprt.llr(&Results::Pentanomial([80, 150, 200, 60, 10]));
        assert_eq!(sprt.status(bad), SprtStatus::AcceptH0, "{bad}");
        assert_eq!(sprt.status(0.0), SprtStatus::Continue);
    }
}
