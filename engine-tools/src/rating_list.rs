//! A rating list (`tafl rating-list`): a round robin of players (or a gauntlet of one against
//! the others), every pairing on the same openings, each played once from each side; then
//! maximum-likelihood ratings with 95% intervals (`stats::fit_ratings`).

use tafl_engine::{Move, Rules};

use crate::matches::{Entrant, MatchError, MatchSettings, PlayedGame, Tally, run_pairing};
use crate::stats::{Anchor, PairRecord, Rating, RatingError, fit_ratings};

/// The pairings to play: every two players, or `gauntlet` against each of the others.
pub fn schedule(players: usize, gauntlet: Option<usize>) -> Vec<(usize, usize)> {
    match gauntlet {
        Some(g) => (0..players).filter(|&i| i != g).map(|i| (g, i)).collect(),
        None => (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect(),
    }
}

/// One pairing's results.
#[derive(Debug)]
pub struct PairingResult {
    pub first: usize,
    pub second: usize,
    pub tally: Tally,
}

/// Plays `pairings` of `entrants` on `book` in order; stops after a pairing that was
/// interrupted or could not go on (its tally says which).
pub fn play_round_robin(
    rules: &Rules,
    book: &[Vec<Move>],
    entrants: &[Entrant],
    pairings: &[(usize, usize)],
    settings: &MatchSettings,
    on_game: &mut dyn FnMut(&PlayedGame),
) -> Result<Vec<PairingResult>, MatchError> {
    let mut results = Vec::new();
    for &(first, second) in pairings {
        let tally = run_pairing(
            rules,
            book,
            &entrants[first],
            &entrants[second],
            settings,
            on_game,
        )?;
        let stop = tally.interrupted || tally.aborted.is_some();
        results.push(PairingResult {
            first,
            second,
            tally,
        });
        if stop {
            break;
        }
    }
    Ok(results)
}

/// A row of the list.
#[derive(Debug, Clone)]
pub struct RatingRow {
    pub rank: usize,
    pub name: String,
    pub rating: Rating,
}

/// The list: rows best first, and the prior that was needed, if any.
#[derive(Debug, Clone)]
pub struct RatingTable {
    pub rows: Vec<RatingRow>,
    /// Virtual draws added between every two players who met.
    pub prior_draws: f64,
    /// The players whose pure maximum-likelihood rating was unbounded (when a prior had to be
    /// added for want of one).
    pub unbounded: Vec<String>,
    /// The player rated 0 (None: the mean is 0).
    pub anchor: Option<String>,
    /// Players without a scored game (a list stopped early): not rated.
    pub unrated: Vec<String>,
}

/// The ratings of `names` from `results`, over the players who have scored games (a list
/// stopped early may leave some without: they are listed in `unrated`). With `prior_draws`
/// None, pure maximum likelihood, or, when that is unbounded (a player who won or lost every
/// game), one virtual draw between every two players who met, said in the table.
pub fn rate(
    names: &[String],
    results: &[PairingResult],
    anchor: Anchor,
    prior_draws: Option<f64>,
) -> Result<RatingTable, RatingError> {
    // The players with games, and each one's place among them.
    let mut played = vec![false; names.len()];
    for r in results.iter().filter(|r| r.tally.scored() > 0) {
        played[r.first] = true;
        played[r.second] = true;
    }
    let rated: Vec<usize> = (0..names.len()).filter(|&i| played[i]).collect();
    let place = |i: usize| rated.iter().position(|&r| r == i);
    // An anchor without games cannot hold the zero: the mean does.
    let (anchor, anchor_name) = match anchor {
        Anchor::Player(i) => match place(i) {
            Some(p) => (Anchor::Player(p), Some(names[i].clone())),
            None => (Anchor::Mean, None),
        },
        Anchor::Mean => (Anchor::Mean, None),
    };
    let records: Vec<PairRecord> = results
        .iter()
        .filter_map(|r| {
            Some(PairRecord {
                first: place(r.first)?,
                second: place(r.second)?,
                games: r.tally.scored(),
                points: r.tally.points(),
            })
        })
        .collect();
    let fit = |prior| fit_ratings(rated.len(), &records, anchor, prior);
    let (ratings, prior, unbounded) = match prior_draws {
        Some(prior) => (fit(prior)?, prior, Vec::new()),
        None => match fit(0.0) {
            Ok(ratings) => (ratings, 0.0, Vec::new()),
            Err(RatingError::Unbounded { players }) => {
                let names = players.iter().map(|&p| names[rated[p]].clone()).collect();
                (fit(1.0)?, 1.0, names)
            }
            Err(error) => return Err(error),
        },
    };
    let mut rows: Vec<RatingRow> = ratings
        .into_iter()
        .zip(&rated)
        .map(|(rating, &i)| RatingRow {
            rank: 0,
            name: names[i].clone(),
            rating,
        })
        .collect();
    rows.sort_by(|x, y| y.rating.elo.total_cmp(&x.rating.elo));
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    Ok(RatingTable {
        rows,
        prior_draws: prior,
        unbounded,
        anchor: anchor_name,
        unrated: (0..names.len())
            .filter(|&i| !played[i])
            .map(|i| names[i].clone())
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use tafl_engine::{Side, WinReason};

    use super::*;
    use crate::matches::{Ending, GameEntry};
    use crate::stats::elo_from_score;

    fn tally(a_points: &[f64]) -> Tally {
        let games = a_points
            .iter()
            .map(|&p| GameEntry {
                label: String::new(),
                a_side: Side::Attackers,
                ending: match p {
                    1.0 => Ending::Won {
                        winner: Side::Attackers,
                        reason: WinReason::KingCaptured,
                    },
                    0.0 => Ending::Won {
                        winner: Side::Defenders,
                        reason: WinReason::KingEscaped,
                    },
                    _ => Ending::PlyLimit,
                },
                plies: 40,
            })
            .collect();
        Tally {
            games,
            ..Tally::default()
        }
    }

    #[test]
    fn a_round_robin_meets_every_two_players_once_and_a_gauntlet_one_against_all() {
        assert_eq!(schedule(3, None), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(schedule(3, Some(1)), vec![(1, 0), (1, 2)]);
    }

    #[test]
    fn two_players_are_listed_by_the_elo_of_their_score() {
        let names = ["new".to_string(), "old".to_string()];
        let results = [PairingResult {
            first: 1,
            second: 0,
            tally: tally(&[1.0, 0.0, 0.5, 0.0]),
        }];
        let table = rate(&names, &results, Anchor::Player(1), None).unwrap();
        assert_eq!(table.rows[0].name, "new");
        let expected = elo_from_score(2.5 / 4.0);
        assert!(
            (table.rows[0].rating.elo - expected).abs() < 1e-6,
            "{table:?}"
        );
        assert_eq!(table.rows[1].rating.elo, 0.0);
        assert_eq!(table.prior_draws, 0.0);
    }

    #[test]
    fn a_player_who_won_everything_gets_a_prior_said_in_the_table() {
        let names = ["a".to_string(), "b".to_string()];
        let results = [PairingResult {
            first: 0,
            second: 1,
            tally: tally(&[1.0, 1.0]),
        }];
        let table = rate(&names, &results, Anchor::Mean, None).unwrap();
        assert_eq!(table.prior_draws, 1.0);
        assert_eq!(table.unbounded, vec!["b".to_string()]);
        // 2.5 of 3 with the virtual draw.
        let expected = elo_from_score(2.5 / 3.0) / 2.0;
        assert!(
            (table.rows[0].rating.elo - expected).abs() < 1e-6,
            "{table:?}"
        );
        assert_eq!(
            table.rows[0].rating.score, 1.0,
            "the score is the real games'"
        );
    }

    #[test]
    fn players_without_games_are_left_out_of_the_fit_and_listed_apart() {
        let names = ["a".to_string(), "b".to_string(), "c".to_string()];
        let results = [PairingResult {
            first: 0,
            second: 2,
            tally: tally(&[1.0, 0.0, 0.5]),
        }];
        let table = rate(&names, &results, Anchor::Player(2), None).unwrap();
        assert_eq!(table.unrated, vec!["b".to_string()]);
        assert_eq!(table.rows.len(), 2);
        assert!(
            table.rows.iter().all(|r| r.rating.elo.abs() < 1e-6),
            "{table:?}"
        );
        // An anchor without games gives way to the mean.
        let table = rate(&names, &results, Anchor::Player(1), None).unwrap();
        assert_eq!(table.anchor, None);
        assert_eq!(table.rows.len(), 2);
    }
}
