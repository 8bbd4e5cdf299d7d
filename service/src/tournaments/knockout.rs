//! The stages of groups then knockout, replayed from the seeds and the results so far: which
//! round comes next, or who has won. Stage one puts every player in groups by rating
//! ([`seed_groups`]); each group plays a double round robin, its rounds played side by side
//! with the other groups' (a stage lasts as long as its largest group). The group winners
//! make the next stage's groups, until one player is left. A group whose first place is
//! shared after every tie-break sends those players to a play-off (a double round robin
//! among them) while the other winners wait; a play-off that ends shared again is decided by
//! seed (rating at sign-up), so a tournament always ends.
//!
//! Nothing of this is stored: the stage of round `n` follows from the seeds and the rounds
//! before it, so a restart, another instance or a reader all see the same plan.

use std::collections::HashMap;

use super::format::Format;
use super::groups::{GroupOutcome, Seed, group_outcome, seed_groups};
use super::round_plan::RoundPlan;
use super::round_robin;
use super::standings::{ScoredGame, standings};
use crate::domain::PlayerId;

/// A decided game of a round, as the stages count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundResult {
    pub round: u32,
    pub game: ScoredGame,
}

/// What comes after the rounds played so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The pairings of the next round (every group of the stage at once).
    Round(RoundPlan),
    /// One player is left.
    Won(PlayerId),
}

/// The stage being played: its groups, and the group winners waiting for a play-off to end.
struct Stage {
    groups: Vec<Vec<PlayerId>>,
    waiting: Vec<PlayerId>,
    play_off: bool,
}

/// How many rounds the first stage (the group stage, every player seeded into a group) lasts:
/// its largest group's double round robin.
pub fn first_stage_rounds(seeds: &[Seed], group_size: usize) -> u32 {
    let longest = seed_groups(seeds, group_size)
        .iter()
        .map(|g| round_robin::double(g).len())
        .max()
        .unwrap_or(0);
    u32::try_from(longest).unwrap_or(u32::MAX)
}

/// Round `next` (counted from 1) of a groups-then-knockout tournament of `seeds` with groups
/// of at most `group_size`, after `results` (every decided game of rounds before `next` that
/// counts). `unranked` withdrew from the first stage with their games annulled: they win no
/// group of it (their games are not in `results`).
pub fn next_round(
    seeds: &[Seed],
    group_size: usize,
    results: &[RoundResult],
    next: u32,
    unranked: &[PlayerId],
) -> Next {
    let rating: HashMap<PlayerId, i32> = seeds.iter().map(|s| (s.player, s.rating)).collect();
    let seeds_of = |players: &[PlayerId]| -> Vec<Seed> {
        players
            .iter()
            .map(|&player| Seed {
                player,
                rating: rating.get(&player).copied().unwrap_or_default(),
            })
            .collect()
    };
    let mut stage = Stage {
        groups: seed_groups(seeds, group_size),
        waiting: Vec::new(),
        play_off: false,
    };
    let mut first_round = 1u32;
    loop {
        if stage.groups.is_empty() {
            // Fewer than two players: the one left (if any) has won.
            return match stage.waiting.first().or(seeds.first().map(|s| &s.player)) {
                Some(&p) => Next::Won(p),
                None => Next::Round(RoundPlan {
                    pairings: Vec::new(),
                    bye: None,
                }),
            };
        }
        let schedules: Vec<Vec<RoundPlan>> = stage
            .groups
            .iter()
            .map(|g| round_robin::double(g))
            .collect();
        let length = schedules.iter().map(Vec::len).max().unwrap_or(0);
        let length = u32::try_from(length).unwrap_or(u32::MAX);
        let end = first_round.saturating_add(length);
        if next < end {
            let index = usize::try_from(next - first_round).unwrap_or(usize::MAX);
            // A player a group's round leaves out simply waits: no point for it, as every
            // member of an odd group waits the same number of rounds.
            let pairings = schedules
                .iter()
                .filter_map(|s| s.get(index))
                .flat_map(|plan| plan.pairings.iter().copied())
                .collect();
            return Next::Round(RoundPlan {
                pairings,
                bye: None,
            });
        }
        let stage_games: Vec<ScoredGame> = results
            .iter()
            .filter(|r| (first_round..end).contains(&r.round))
            .map(|r| r.game)
            .collect();
        let mut winners = Vec::new();
        let mut shared = Vec::new();
        let first_stage = first_round == 1;
        for group in &stage.groups {
            let ranked: Vec<PlayerId> = group
                .iter()
                .copied()
                .filter(|p| !(first_stage && unranked.contains(p)))
                .collect();
            if ranked.is_empty() {
                continue;
            }
            let games: Vec<ScoredGame> = stage_games
                .iter()
                .filter(|g| group.contains(&g.attackers) && group.contains(&g.defenders))
                .copied()
                .collect();
            let table = standings(
                &ranked,
                &games,
                &[],
                Format::GroupsKnockout { group_size: 2 }.tie_breaks(),
            );
            match group_outcome(&table) {
                GroupOutcome::Winner(p) => winners.push(p),
                GroupOutcome::Shared(tied) if stage.play_off => {
                    if let Some(best) = best_seed(&seeds_of(&tied)) {
                        winners.push(best);
                    }
                }
                GroupOutcome::Shared(tied) => shared.push(tied),
            }
        }
        first_round = end;
        let mut advancing = stage.waiting;
        advancing.extend(winners);
        stage = if shared.is_empty() {
            if let [winner] = advancing.as_slice() {
                return Next::Won(*winner);
            }
            Stage {
                groups: seed_groups(&seeds_of(&advancing), group_size),
                waiting: Vec::new(),
                play_off: false,
            }
        } else {
            Stage {
                groups: shared,
                waiting: advancing,
                play_off: true,
            }
        };
    }
}

/// The highest seed: best rating, then the lowest id.
fn best_seed(seeds: &[Seed]) -> Option<PlayerId> {
    seeds
        .iter()
        .min_by_key(|s| (std::cmp::Reverse(s.rating), s.player))
        .map(|s| s.player)
}

#[cfg(test)]
mod tests {
    use super::super::groups::tests::seeds;
    use super::super::standings::GameScore;
    use super::*;

    /// Plays rounds until someone wins, each game decided by `decide`; answers the winner
    /// and how many rounds it took.
    fn play(
        seeds: &[Seed],
        group_size: usize,
        decide: impl Fn(u32, PlayerId, PlayerId) -> GameScore,
    ) -> (PlayerId, u32, Vec<RoundPlan>) {
        let mut results = Vec::new();
        let mut plans = Vec::new();
        for round in 1..=200 {
            match next_round(seeds, group_size, &results, round, &[]) {
                Next::Won(p) => return (p, round - 1, plans),
                Next::Round(plan) => {
                    for p in &plan.pairings {
                        results.push(RoundResult {
                            round,
                            game: ScoredGame {
                                attackers: p.attackers,
                                defenders: p.defenders,
                                score: decide(round, p.attackers, p.defenders),
                            },
                        });
                    }
                    plans.push(plan);
                }
            }
        }
        panic!("no winner in 200 rounds");
    }

    fn stronger_wins(_: u32, a: PlayerId, d: PlayerId) -> GameScore {
        if a.0 < d.0 {
            GameScore::AttackersWon
        } else {
            GameScore::DefendersWon
        }
    }

    #[test]
    fn eight_players_in_groups_of_four_play_six_rounds_then_a_final_of_two() {
        let (winner, rounds, plans) = play(&seeds(8), 4, stronger_wins);
        assert_eq!(winner, PlayerId(1));
        // Two groups of four: a double round robin of 6 rounds, 4 games a round; then the two
        // group winners (1 and 2) meet once on each side.
        assert_eq!(rounds, 8);
        assert!(plans[..6].iter().all(|p| p.pairings.len() == 4));
        let final_pairs: Vec<(i64, i64)> = plans[6..]
            .iter()
            .flat_map(|p| p.pairings.iter().map(|g| (g.attackers.0, g.defenders.0)))
            .collect();
        assert_eq!(final_pairs.len(), 2);
        assert!(
            final_pairs.contains(&(1, 2)) && final_pairs.contains(&(2, 1)),
            "{final_pairs:?}"
        );
    }

    #[test]
    fn a_shared_first_place_plays_off_while_the_other_winners_wait() {
        // Sixteen players in groups of four: four groups, then one group of four winners.
        // In stage one, group one's top two split and draw the rest alike: a play-off.
        let decide = |round: u32, a: PlayerId, d: PlayerId| {
            // Players 1 and 8 (snake seeding puts them in one group) each win as attackers
            // against each other and beat everyone else: a shared first place.
            match (a.0, d.0) {
                (1 | 8, _) => GameScore::AttackersWon,
                (_, 1 | 8) => GameScore::DefendersWon,
                _ => stronger_wins(round, a, d),
            }
        };
        let (winner, rounds, plans) = play(&seeds(16), 4, decide);
        // Stage one: 6 rounds; then the play-off of 1 and 8 alone (2 rounds, split again, so
        // the higher seed goes on); then the four winners' group.
        let play_off: Vec<(i64, i64)> = plans[6]
            .pairings
            .iter()
            .map(|g| (g.attackers.0, g.defenders.0))
            .collect();
        assert_eq!(
            play_off.len(),
            1,
            "only the tied pair plays in round 7: {play_off:?}"
        );
        assert!(play_off[0] == (1, 8) || play_off[0] == (8, 1));
        assert_eq!(winner, PlayerId(1));
        // 6 + 2 (play-off) + 6 (the four winners' group).
        assert_eq!(rounds, 14);
    }

    #[test]
    fn a_player_whose_group_games_are_annulled_wins_no_group() {
        // Two players, one group: player 1 withdrew with their games annulled, so no game
        // counts. Without them the group is player 2's alone; with them it would be a shared
        // first place (both on 0) and a play-off.
        let seeds = seeds(2);
        assert_eq!(first_stage_rounds(&seeds, 4), 2);
        assert_eq!(
            next_round(&seeds, 4, &[], 3, &[PlayerId(1)]),
            Next::Won(PlayerId(2))
        );
        assert!(matches!(
            next_round(&seeds, 4, &[], 3, &[]),
            Next::Round(plan) if plan.pairings.len() == 1
        ));
    }

    #[test]
    fn a_play_off_shared_again_goes_to_the_higher_seed() {
        // Two players who always win as attackers: the group is shared, the play-off too.
        let (winner, rounds, _) = play(&seeds(2), 4, |_, _, _| GameScore::AttackersWon);
        assert_eq!(winner, PlayerId(1));
        assert_eq!(rounds, 4, "the group's two games, then the play-off's two");
    }
}
