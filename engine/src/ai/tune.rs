//! Texel-style fitting of the evaluation weights to game results.
//!
//! Each sample is a position's feature vector (defenders' view) and the result of the game it
//! came from (1 = defenders won, 0 = attackers won, 0.5 = draw). The predicted result is
//! `1 / (1 + 10^(-eval / 400))`; gradient descent lowers the mean squared error.

use super::eval::{FEATURES, Features, Weights};

#[derive(Clone, Debug)]
pub struct Sample {
    pub features: Features,
    /// 1.0 defenders won, 0.0 attackers won, 0.5 drawn.
    pub result: f64,
}

fn predict(weights: &[f64; FEATURES], features: &Features) -> f64 {
    let eval: f64 = weights
        .iter()
        .zip(features)
        .map(|(w, &x)| w * x as f64)
        .sum();
    1.0 / (1.0 + 10f64.powf(-eval / 400.0))
}

/// Mean squared error of the weights' predictions.
pub fn loss(weights: &Weights, samples: &[Sample]) -> f64 {
    let w = weights.0.map(f64::from);
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| (predict(&w, &s.features) - s.result).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// Gradient descent from `start` for `epochs` full passes. Returns the fitted weights.
pub fn fit(start: &Weights, samples: &[Sample], epochs: usize, rate: f64) -> Weights {
    let mut w = start.0.map(f64::from);
    if samples.is_empty() {
        return *start;
    }
    let n = samples.len() as f64;
    let ln10 = std::f64::consts::LN_10;
    for _ in 0..epochs {
        let mut grad = [0.0; FEATURES];
        for s in samples {
            let p = predict(&w, &s.features);
            // d/dw (p - r)^2 = 2 (p - r) p (1 - p) ln10/400 x
            let common = 2.0 * (p - s.result) * p * (1.0 - p) * ln10 / 400.0;
            for (g, &x) in grad.iter_mut().zip(&s.features) {
                *g += common * x as f64;
            }
        }
        for (wi, g) in w.iter_mut().zip(grad) {
            *wi -= rate * g / n;
        }
    }
    Weights(w.map(|x| x.round() as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_lowers_the_loss_on_separable_samples() {
        // Defenders win when feature 0 is high: the fit must raise weight 0.
        let mut samples = Vec::new();
        for i in 0..40 {
            let mut f = [0; FEATURES];
            f[0] = i % 10;
            samples.push(Sample {
                features: f,
                result: if i % 10 >= 5 { 1.0 } else { 0.0 },
            });
        }
        let start = Weights([0; FEATURES]);
        let fitted = fit(&start, &samples, 300, 20_000.0);
        assert!(loss(&fitted, &samples) < loss(&start, &samples));
        assert!(fitted.0[0] > 0);
    }
}
