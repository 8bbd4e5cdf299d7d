//! Round robin by the circle method (Berger tables): with `n` players (a "bye" seat added
//! when `n` is odd) there are `n - 1` rounds; one seat stays, the others turn one place a
//! round, and the seats facing each other play. Sides: the fixed seat alternates, and on the
//! other boards the upper seat attacks on even boards and defends on odd ones, which keeps
//! every player's attacking and defending games within one of each other and never puts a
//! player on the same side three rounds running.

use super::round_plan::{Pairing, RoundPlan};
use crate::domain::PlayerId;

/// Every pair meets once, over `n - 1` rounds (`n` rounded up to even).
pub fn single(players: &[PlayerId]) -> Vec<RoundPlan> {
    let mut seats: Vec<Option<PlayerId>> = players.iter().copied().map(Some).collect();
    // With an odd count the bye takes the fixed seat: everyone then turns round the circle,
    // and each player's sides alternate strictly.
    if !seats.len().is_multiple_of(2) {
        seats.insert(0, None);
    }
    let n = seats.len();
    let mut rounds = Vec::with_capacity(n.saturating_sub(1));
    for round in 0..n.saturating_sub(1) {
        let mut plan = RoundPlan {
            pairings: Vec::with_capacity(n / 2),
            bye: None,
        };
        for board in 0..n / 2 {
            let (upper, lower) = (seats[board], seats[n - 1 - board]);
            let upper_attacks = if board == 0 {
                round.is_multiple_of(2)
            } else {
                board.is_multiple_of(2)
            };
            match (upper, lower) {
                (Some(a), Some(b)) => plan.pairings.push(if upper_attacks {
                    Pairing {
                        attackers: a,
                        defenders: b,
                    }
                } else {
                    Pairing {
                        attackers: b,
                        defenders: a,
                    }
                }),
                (Some(p), None) | (None, Some(p)) => plan.bye = Some(p),
                (None, None) => {}
            }
        }
        rounds.push(plan);
        if let Some(last) = seats.pop() {
            seats.insert(1, last);
        }
    }
    rounds
}

/// Every pair meets twice, once with each side: the single cycle, then again with the sides
/// swapped.
pub fn double(players: &[PlayerId]) -> Vec<RoundPlan> {
    let first = single(players);
    let second: Vec<RoundPlan> = first
        .iter()
        .map(|round| RoundPlan {
            pairings: round.pairings.iter().map(|p| p.swapped()).collect(),
            bye: round.bye,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use tafl_engine::Side;

    use super::*;

    fn players(n: i64) -> Vec<PlayerId> {
        (1..=n).map(PlayerId).collect()
    }

    #[test]
    fn every_pair_meets_exactly_once_and_each_player_once_a_round() {
        for n in 2..=13 {
            let players = players(n);
            let rounds = single(&players);
            let even = n + n % 2;
            assert_eq!(rounds.len() as i64, even - 1, "{n} players");
            let mut met = HashSet::new();
            for round in &rounds {
                let mut seen = HashSet::new();
                for p in &round.pairings {
                    assert!(seen.insert(p.attackers) && seen.insert(p.defenders));
                    let key = (
                        p.attackers.0.min(p.defenders.0),
                        p.attackers.0.max(p.defenders.0),
                    );
                    assert!(met.insert(key), "{key:?} met twice with {n} players");
                }
                if let Some(bye) = round.bye {
                    assert!(seen.insert(bye));
                }
                assert_eq!(seen.len() as i64, n, "everyone plays or sits out");
                assert_eq!(round.bye.is_some(), n % 2 == 1);
            }
            assert_eq!(met.len() as i64, n * (n - 1) / 2);
        }
    }

    #[test]
    fn sides_stay_balanced_and_never_three_alike_in_a_row() {
        for n in 2..=16 {
            let mut sides: HashMap<PlayerId, Vec<Side>> = HashMap::new();
            for round in single(&players(n)) {
                for p in round.pairings {
                    sides.entry(p.attackers).or_default().push(Side::Attackers);
                    sides.entry(p.defenders).or_default().push(Side::Defenders);
                }
            }
            for (player, played) in sides {
                let attacking = played.iter().filter(|s| **s == Side::Attackers).count() as i64;
                let defending = played.len() as i64 - attacking;
                assert!(
                    (attacking - defending).abs() <= 1,
                    "{player:?} of {n}: {played:?}"
                );
                assert!(
                    played.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                    "{player:?} of {n}: {played:?}"
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_has_each_pair_meet_once_on_each_side() {
        let rounds = double(&players(5));
        assert_eq!(rounds.len(), 10);
        let mut games = HashSet::new();
        for p in rounds.iter().flat_map(|r| &r.pairings) {
            assert!(games.insert((p.attackers, p.defenders)), "{p:?} twice");
        }
        assert_eq!(games.len(), 5 * 4, "every ordered pair once");
        let byes: HashSet<_> = rounds.iter().filter_map(|r| r.bye).collect();
        assert_eq!(byes.len(), 5, "each player sits out once a cycle");
    }
}
