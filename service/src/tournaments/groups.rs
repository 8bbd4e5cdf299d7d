//! Groups, then knockout, as hnefatafl.org and the World Tafl Federation run them: players
//! are seeded into groups by rating in a snake (the strongest four of two groups go 1, 2 | 4,
//! 3 | ...), each group plays a double round robin (each pair once per side), the group
//! winners go on into new groups, until one player is left. A group whose first place is
//! shared after every tie-break plays again among those players (a play-off).

use std::cmp::Reverse;

use super::standings::Standing;
use crate::domain::PlayerId;

/// A player as seeding sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seed {
    pub player: PlayerId,
    pub rating: i32,
}

/// The groups of a stage: `ceil(n / max_size)` groups, sizes within one of each other,
/// filled in a snake by rating. One player: no stage (the tournament is won).
pub fn seed_groups(players: &[Seed], max_size: usize) -> Vec<Vec<PlayerId>> {
    if players.len() < 2 {
        return Vec::new();
    }
    let max_size = max_size.max(2);
    let count = players.len().div_ceil(max_size);
    let mut ranked = players.to_vec();
    ranked.sort_by_key(|s| (Reverse(s.rating), s.player));
    let mut groups = vec![Vec::new(); count];
    for (i, seed) in ranked.into_iter().enumerate() {
        let (row, column) = (i / count, i % count);
        let group = if row % 2 == 0 {
            column
        } else {
            count - 1 - column
        };
        groups[group].push(seed.player);
    }
    // A group of one would have no games (3 players in groups of 2 gives 2 and 1): then
    // the groups may be one larger.
    if groups.iter().any(|g| g.len() < 2) {
        return seed_groups(players, max_size + 1);
    }
    groups
}

/// How a finished group ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupOutcome {
    /// One player is first after every tie-break.
    Winner(PlayerId),
    /// First place is shared: these players play off.
    Shared(Vec<PlayerId>),
}

/// The group's result from its final standings.
pub fn group_outcome(standings: &[Standing]) -> GroupOutcome {
    let first: Vec<PlayerId> = standings
        .iter()
        .filter(|s| s.rank == 1)
        .map(|s| s.player)
        .collect();
    match first.as_slice() {
        [winner] => GroupOutcome::Winner(*winner),
        _ => GroupOutcome::Shared(first),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::HashSet;

    use super::super::points::Points;
    use super::super::standings::{GameScore, ScoredGame, TieBreak, standings};
    use super::*;

    pub(in crate::tournaments) fn seeds(n: i64) -> Vec<Seed> {
        // Player 1 is the strongest.
        (1..=n)
            .map(|i| Seed {
                player: PlayerId(i),
                rating: 2500 - i as i32 * 10,
            })
            .collect()
    }

    fn ids(group: &[PlayerId]) -> Vec<i64> {
        group.iter().map(|p| p.0).collect()
    }

    #[test]
    fn eight_players_in_groups_of_four_are_seeded_in_a_snake() {
        let groups = seed_groups(&seeds(8), 4);
        assert_eq!(groups.len(), 2);
        assert_eq!(ids(&groups[0]), vec![1, 4, 5, 8]);
        assert_eq!(ids(&groups[1]), vec![2, 3, 6, 7]);
    }

    #[test]
    fn groups_are_within_one_of_each_other_and_never_a_group_of_one() {
        for n in 2..=40 {
            for size in 2..=6 {
                let groups = seed_groups(&seeds(n), size);
                let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
                let (min, max) = (sizes.iter().min(), sizes.iter().max());
                assert!(min >= Some(&2), "{n} in groups of {size}: {sizes:?}");
                assert!(
                    max.zip(min).is_some_and(|(max, min)| max - min <= 1),
                    "{n} in groups of {size}: {sizes:?}"
                );
                let all: HashSet<PlayerId> = groups.concat().into_iter().collect();
                assert_eq!(all.len() as i64, n);
            }
        }
        assert!(seed_groups(&seeds(1), 4).is_empty(), "one player has won");
    }

    #[test]
    fn a_group_has_a_winner_or_a_play_off() {
        let (a, b) = (PlayerId(1), PlayerId(2));
        let split = vec![
            ScoredGame {
                attackers: a,
                defenders: b,
                score: GameScore::AttackersWon,
            },
            ScoredGame {
                attackers: b,
                defenders: a,
                score: GameScore::AttackersWon,
            },
        ];
        let order = [
            TieBreak::DirectEncounter,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ];
        let table = standings(&[a, b], &split, &[], &order);
        assert_eq!(group_outcome(&table), GroupOutcome::Shared(vec![a, b]));

        let won = vec![
            split[0],
            ScoredGame {
                score: GameScore::Draw,
                ..split[1]
            },
        ];
        let table = standings(&[a, b], &won, &[], &order);
        assert_eq!(group_outcome(&table), GroupOutcome::Winner(a));
        assert_eq!(table[0].points, Points::from_halves(3));
    }
}
