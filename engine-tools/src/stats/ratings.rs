//! Ratings of several players from the games among them, by maximum likelihood (the
//! Bradley-Terry model on the logistic Elo scale, as Ordo and BayesElo without their priors):
//! player i scores against player j with expectation `1 / (1 + 10^((r_j - r_i) / 400))`, a draw
//! counting half a point. The ratings are fixed by an anchor (one player at 0, or the mean at
//! 0), and each has a 95% interval from the curvature of the likelihood at its maximum (the
//! inverse of the Fisher information, the anchor held fixed).

use super::elo::Z_95;

/// Elo points per unit of the natural log-odds.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// What fixes the ratings' zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// This player (by index) is rated 0; its own interval is 0.
    Player(usize),
    /// The ratings' mean is 0.
    Mean,
}

/// The games between two players: `points` of the `games` went to `first`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairRecord {
    pub first: usize,
    pub second: usize,
    pub games: u32,
    pub points: f64,
}

/// One player's rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub error: f64,
    pub games: u32,
    /// Points per game.
    pub score: f64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RatingError {
    #[error("no players")]
    NoPlayers,
    #[error("player {index} is not among the {players} players")]
    UnknownPlayer { index: usize, players: usize },
    #[error("a record of {games} games between players {first} and {second} gives {points} points")]
    BadRecord {
        first: usize,
        second: usize,
        games: u32,
        points: f64,
    },
    /// Some group of players scored every point (or none) against the rest, or some players
    /// never met the rest: the maximum likelihood lies at an infinite rating difference.
    #[error(
        "the ratings are unbounded: players {players:?} won or lost every game against the others (or never met them); add virtual draws (a prior) or play more games"
    )]
    Unbounded { players: Vec<usize> },
}

/// The maximum-likelihood ratings of `players` players from `records`, with `prior_draws`
/// virtual draws added between every two players who met (0 for pure maximum likelihood;
/// BayesElo's default prior is 2).
pub fn fit_ratings(
    players: usize,
    records: &[PairRecord],
    anchor: Anchor,
    prior_draws: f64,
) -> Result<Vec<Rating>, RatingError> {
    if players == 0 {
        return Err(RatingError::NoPlayers);
    }
    if let Anchor::Player(index) = anchor
        && index >= players
    {
        return Err(RatingError::UnknownPlayer { index, players });
    }
    let (games, points) = tables(players, records)?;
    let (mut n, mut s) = (games.clone(), points.clone());
    for i in 0..players {
        for j in 0..players {
            if i != j && n[i][j] > 0.0 && prior_draws > 0.0 {
                n[i][j] += prior_draws;
                s[i][j] += prior_draws / 2.0;
            }
        }
    }
    let unreached = unbounded_players(&n, &s);
    if !unreached.is_empty() {
        return Err(RatingError::Unbounded { players: unreached });
    }
    // Fit with player 0 held at 0, then move the zero to the anchor.
    let theta = maximize(&n, &s);
    let covariance = covariance(&n, &theta);
    let shifted = anchored(&theta, &covariance, anchor);
    Ok((0..players)
        .map(|i| {
            let played: f64 = games[i].iter().sum();
            let scored: f64 = points[i].iter().sum();
            Rating {
                elo: shifted.0[i] * ELO_PER_NAT,
                error: Z_95 * shifted.1[i].max(0.0).sqrt() * ELO_PER_NAT,
                games: played as u32,
                score: if played > 0.0 { scored / played } else { 0.0 },
            }
        })
        .collect())
}

type Table = Vec<Vec<f64>>;

/// Games and points of i against j, both ways.
fn tables(players: usize, records: &[PairRecord]) -> Result<(Table, Table), RatingError> {
    let mut games = vec![vec![0.0; players]; players];
    let mut points = vec![vec![0.0; players]; players];
    for record in records {
        let &PairRecord {
            first,
            second,
            games: n,
            points: p,
        } = record;
        for index in [first, second] {
            if index >= players {
                return Err(RatingError::UnknownPlayer { index, players });
            }
        }
        if first == second || !(0.0..=f64::from(n)).contains(&p) {
            return Err(RatingError::BadRecord {
                first,
                second,
                games: n,
                points: p,
            });
        }
        games[first][second] += f64::from(n);
        games[second][first] += f64::from(n);
        points[first][second] += p;
        points[second][first] += f64::from(n) - p;
    }
    Ok((games, points))
}

/// The players outside the group that every player reaches through "scored against" links
/// both ways (the maximum exists exactly when that group is everyone). Empty when bounded.
fn unbounded_players(n: &Table, s: &Table) -> Vec<usize> {
    let players = n.len();
    let reach = |scored: &dyn Fn(usize, usize) -> bool| {
        let mut seen = vec![false; players];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for (j, seen) in seen.iter_mut().enumerate() {
                if !*seen && scored(i, j) {
                    *seen = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    // i -> j when i scored against j: then i cannot be infinitely above j.
    let forward = reach(&|i, j| s[i][j] > 0.0);
    let backward = reach(&|i, j| s[j][i] > 0.0);
    (0..players)
        .filter(|&i| !(forward[i] && backward[i]))
        .collect()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The log-likelihood in natural log-odds units.
fn log_likelihood(n: &Table, s: &Table, theta: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..theta.len() {
        for j in 0..theta.len() {
            if n[i][j] > 0.0 {
                total += s[i][j] * logistic(theta[i] - theta[j]).ln();
            }
        }
    }
    total
}

/// Newton's method on the concave log-likelihood, player 0 held at 0, each step halved until
/// the likelihood does not fall.
fn maximize(n: &Table, s: &Table) -> Vec<f64> {
    let players = n.len();
    let mut theta = vec![0.0; players];
    for _ in 0..100 {
        let gradient: Vec<f64> = (0..players)
            .map(|i| {
                (0..players)
                    .filter(|&j| n[i][j] > 0.0)
                    .map(|j| s[i][j] - n[i][j] * logistic(theta[i] - theta[j]))
                    .sum()
            })
            .collect();
        let information = information(n, &theta);
        let Some(step) = solve(reduced(&information), gradient[1..].to_vec()) else {
            break;
        };
        let before = log_likelihood(n, s, &theta);
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..40 {
            let trial: Vec<f64> = std::iter::once(0.0)
                .chain(theta[1..].iter().zip(&step).map(|(t, d)| t + scale * d))
                .collect();
            if log_likelihood(n, s, &trial) >= before - 1e-12 {
                theta = trial;
                moved = true;
                break;
            }
            scale /= 2.0;
        }
        let size = step.iter().map(|d| d.abs()).fold(0.0, f64::max) * scale;
        if !moved || size < 1e-12 {
            break;
        }
    }
    theta
}

/// The Fisher information (the negated Hessian of the log-likelihood) at `theta`.
fn information(n: &Table, theta: &[f64]) -> Table {
    let players = theta.len();
    let mut h = vec![vec![0.0; players]; players];
    for i in 0..players {
        for j in 0..players {
            if i != j && n[i][j] > 0.0 {
                let p = logistic(theta[i] - theta[j]);
                let w = n[i][j] * p * (1.0 - p);
                h[i][i] += w;
                h[i][j] -= w;
            }
        }
    }
    h
}

/// The matrix without player 0's row and column (player 0 is held fixed).
fn reduced(matrix: &Table) -> Table {
    matrix[1..].iter().map(|row| row[1..].to_vec()).collect()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; None when singular.
fn solve(mut a: Table, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let size = b.len();
    for column in 0..size {
        let pivot =
            (column..size).max_by(|&x, &y| a[x][column].abs().total_cmp(&a[y][column].abs()))?;
        if a[pivot][column].abs() < 1e-300 {
            return None;
        }
        a.swap(column, pivot);
        b.swap(column, pivot);
        let (done, rest) = a.split_at_mut(column + 1);
        let pivot_row = &done[column];
        for (offset, row) in rest.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (value, pivot_value) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *value -= factor * pivot_value;
            }
            b[column + 1 + offset] -= factor * b[column];
        }
    }
    let mut x = vec![0.0; size];
    for row in (0..size).rev() {
        let tail: f64 = (row + 1..size).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Some(x)
}

/// The covariance of the ratings with player 0 held at 0 (its row and column are zero).
fn covariance(n: &Table, theta: &[f64]) -> Table {
    let players = theta.len();
    let reduced = reduced(&information(n, theta));
    let mut result = vec![vec![0.0; players]; players];
    for column in 1..players {
        let mut unit = vec![0.0; players - 1];
        unit[column - 1] = 1.0;
        if let Some(x) = solve(reduced.clone(), unit) {
            for (row, value) in x.into_iter().enumerate() {
                result[row + 1][column] = value;
            }
        }
    }
    result
}

/// The ratings and their variances with the zero moved to `anchor`: `r - c r` for a linear
/// map c (a player's rating, or the mean), whose covariance is `(I - C) V (I - C)^T`.
fn anchored(theta: &[f64], covariance: &Table, anchor: Anchor) -> (Vec<f64>, Vec<f64>) {
    let players = theta.len();
    // Row of weights w such that the zero is w . r.
    let weights: Vec<f64> = match anchor {
        Anchor::Player(k) => (0..players)
            .map(|i| if i == k { 1.0 } else { 0.0 })
            .collect(),
        Anchor::Mean => vec![1.0 / players as f64; players],
    };
    let zero: f64 = weights.iter().zip(theta).map(|(w, t)| w * t).sum();
    // Var(r_i - w.r) = V_ii - 2 (V w)_i + w^T V w.
    let vw: Vec<f64> = (0..players)
        .map(|i| (0..players).map(|j| covariance[i][j] * weights[j]).sum())
        .collect();
    let wvw: f64 = weights.iter().zip(&vw).map(|(w, v)| w * v).sum();
    let variances = (0..players)
        .map(|i| covariance[i][i] - 2.0 * vw[i] + wvw)
        .collect();
    (theta.iter().map(|t| t - zero).collect(), variances)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::stats::elo::elo_from_score;

    fn record(first: usize, second: usize, games: u32, points: f64) -> PairRecord {
        PairRecord {
            first,
            second,
            games,
            points,
        }
    }

    #[test]
    fn two_players_are_rated_by_their_score() {
        // 5.5 of 8: 400 log10(5.5 / 2.5) = +136.97; the interval from the information
        // n p (1 - p) = 8 (11/16)(5/16): 1.96 (400 / ln 10) / sqrt(1.71875) = 259.71.
        let ratings = fit_ratings(2, &[record(0, 1, 8, 5.5)], Anchor::Player(1), 0.0).unwrap();
        assert!((ratings[0].elo - elo_from_score(5.5 / 8.0)).abs() < 1e-6);
        assert!((ratings[0].elo - 136.969).abs() < 1e-3, "{ratings:?}");
        assert!((ratings[0].error - 259.708).abs() < 1e-3, "{ratings:?}");
        assert_eq!(ratings[1].elo, 0.0);
        assert_eq!(ratings[1].error, 0.0);
        assert_eq!((ratings[0].games, ratings[0].score), (8, 5.5 / 8.0));
        // Anchored at the mean: half the difference each side, the same interval on the
        // difference shared out (each half as wide).
        let mean = fit_ratings(2, &[record(0, 1, 8, 5.5)], Anchor::Mean, 0.0).unwrap();
        assert!((mean[0].elo - 68.485).abs() < 1e-3, "{mean:?}");
        assert!((mean[1].elo + 68.485).abs() < 1e-3, "{mean:?}");
        assert!((mean[0].error - 129.854).abs() < 1e-3, "{mean:?}");
    }

    #[test]
    fn a_chain_of_players_adds_up_the_differences() {
        // A scored 6 of 8 against B, B 6 of 8 against C, A and C never met: the likelihood
        // splits into the two pairings, each 400 log10(3) = 190.85 apart.
        let records = [record(0, 1, 8, 6.0), record(1, 2, 8, 6.0)];
        let ratings = fit_ratings(3, &records, Anchor::Mean, 0.0).unwrap();
        for (rating, expected) in ratings.iter().zip([190.8485, 0.0, -190.8485]) {
            assert!((rating.elo - expected).abs() < 1e-3, "{ratings:?}");
        }
        // The middle player is the best known: its interval is the narrowest.
        assert!(ratings[1].error < ratings[0].error);
    }

    #[test]
    fn a_cycle_of_equal_results_rates_everyone_equal() {
        let records = [
            record(0, 1, 4, 3.0),
            record(1, 2, 4, 3.0),
            record(2, 0, 4, 3.0),
        ];
        let ratings = fit_ratings(3, &records, Anchor::Player(0), 0.0).unwrap();
        for rating in &ratings {
            assert!(rating.elo.abs() < 1e-6, "{ratings:?}");
            assert_eq!(rating.score, 0.5);
        }
    }

    #[test]
    fn a_player_who_won_everything_is_unbounded_unless_a_prior_is_added() {
        let records = [
            record(0, 1, 4, 4.0),
            record(0, 2, 4, 4.0),
            record(1, 2, 4, 2.0),
        ];
        assert_eq!(
            fit_ratings(3, &records, Anchor::Mean, 0.0),
            Err(RatingError::Unbounded {
                players: vec![1, 2]
            })
        );
        let ratings = fit_ratings(3, &records, Anchor::Mean, 1.0).unwrap();
        assert!(ratings[0].elo > ratings[1].elo + 200.0, "{ratings:?}");
        assert!(
            (ratings[1].elo - ratings[2].elo).abs() < 1e-6,
            "{ratings:?}"
        );
        assert!(fit_ratings(2, &[record(0, 1, 2, 3.0)], Anchor::Mean, 0.0).is_err());
    }
}
