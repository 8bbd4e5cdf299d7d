//! The statistics of engine testing, as pure functions: the logistic Elo scale and the Elo
//! estimate of a match with its interval (`elo`), the sequential probability ratio test of an
//! engine change (`sprt`), and maximum-likelihood ratings of several players (`ratings`).
//! Figures and formulas: docs/ai.md, "Measuring".

pub mod elo;
pub mod ratings;
pub mod sprt;

pub use elo::{EloEstimate, Results, elo_from_score, expected_score};
pub use ratings::{Anchor, PairRecord, Rating, RatingError, fit_ratings};
pub use sprt::{Sprt, SprtError, SprtStatus};
