//! A tournament score in half points: a win is 1, a draw ½, a loss or a forfeit 0. Counted in
//! halves so that sums and comparisons are exact.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points {
    halves: u32,
}

impl Points {
    pub const ZERO: Points = Points { halves: 0 };
    pub const HALF: Points = Points { halves: 1 };
    pub const ONE: Points = Points { halves: 2 };

    pub fn from_halves(halves: u32) -> Points {
        Points { halves }
    }

    pub fn halves(self) -> u32 {
        self.halves
    }

    /// As a number, for the API (`1.5`).
    pub fn as_f64(self) -> f64 {
        f64::from(self.halves) / 2.0
    }

    /// `self × other` in half points, for Sonneborn-Berger's "opponent's score times the
    /// points scored against them": both are in halves, so the product is in quarters.
    pub(crate) fn times_in_quarters(self, other: Points) -> u64 {
        u64::from(self.halves) * u64::from(other.halves)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points {
            halves: self.halves + rhs.halves,
        }
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, rhs: Points) {
        self.halves += rhs.halves;
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

/// `2½`, `½`, `3`: as crosstables print scores.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.halves / 2;
        match (whole, self.halves % 2) {
            (0, 1) => f.write_str("½"),
            (w, 1) => write!(f, "{w}½"),
            (w, _) => write!(f, "{w}"),
        }
    }
}

/// A score as the API gives it (`2.5`; a Sonneborn-Berger or Buchholz total may end in a
/// quarter), as every front end prints it: `2½`, `½`, `3`, `1¾`. The one way scores are
/// written, on the web pages, in Discord and in posts.
pub fn score_text(score: f64) -> String {
    let quarters = (score * 4.0).round().max(0.0) as u64;
    let whole = quarters / 4;
    let fraction = match quarters % 4 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    match (whole, fraction) {
        (0, "") => "0".to_owned(),
        (0, f) => f.to_owned(),
        (w, f) => format!("{w}{f}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_in_halves_and_quarters_on_every_front_end() {
        assert_eq!(score_text(0.0), "0");
        assert_eq!(score_text(0.5), "½");
        assert_eq!(score_text(2.5), "2½");
        assert_eq!(score_text(3.0), "3");
        // Sonneborn-Berger counts in quarters.
        assert_eq!(score_text(2.75), "2¾");
        assert_eq!(score_text(0.25), "¼");
        assert_eq!(
            score_text(Points::from_halves(5).as_f64()),
            Points::from_halves(5).to_string()
        );
    }

    #[test]
    fn points_add_in_halves_and_print_as_crosstables_do() {
        let total: Points = [Points::ONE, Points::HALF, Points::ZERO, Points::ONE]
            .into_iter()
            .sum();
        assert_eq!(total, Points::from_halves(5));
        assert_eq!(total.to_string(), "2½");
        assert_eq!(Points::HALF.to_string(), "½");
        assert_eq!(Points::from_halves(6).to_string(), "3");
        assert_eq!(total.as_f64(), 2.5);
    }
}
