//! Swiss pairing in the manner of FIDE's Dutch system (C.04.3), simplified for small
//! correspondence events:
//!
//! 1. Players are ranked by points, then rating, then id.
//! 2. With an odd count, the lowest-ranked player who has not had a bye sits out (scoring a
//!    win), provided the others can still be paired; a second bye only when everyone had one.
//! 3. From the top down, each player is paired within their score group as the Dutch system
//!    does it (the group's upper half against its lower half: the first against the one half
//!    the group below them, then the next), trying the nearest alternatives when that pair
//!    already met, and floating down to the next score group only when their own has nobody
//!    left. Two players never meet twice: the search backtracks until every player has a new
//!    opponent, or says there is no such pairing.
//! 4. Sides: the player who has defended more (then: who defended last) attacks; with equal
//!    histories the higher-ranked player attacks on odd boards and defends on even ones.
//!
//! What it leaves out of the full Dutch rules: colour preferences as absolute criteria
//! (three alike in a row is avoided by step 4 in practice, not forbidden), and the finer
//! floater criteria; both matter in over-the-board events with one game a day, less over
//! weeks of correspondence.

use std::cmp::Reverse;
use std::collections::HashSet;

use tafl_engine::Side;

use super::points::Points;
use super::round_plan::{Pairing, RoundPlan};
use crate::domain::PlayerId;

/// A bound on the search's steps: a round with no new pairing for everyone is told so
/// instead of searching forever.
const SEARCH_BUDGET: u32 = 200_000;

/// What the pairing needs to know of a player before a round.
#[derive(Debug, Clone, PartialEq)]
pub struct SwissEntrant {
    pub player: PlayerId,
    pub points: Points,
    /// The rating at the start of the tournament (ranks players on equal points).
    pub rating: i32,
    /// Everyone this player has met, in any round.
    pub opponents: Vec<PlayerId>,
    /// The sides played, in order.
    pub sides: Vec<Side>,
    pub had_bye: bool,
}

impl SwissEntrant {
    fn side_balance(&self) -> i64 {
        self.sides
            .iter()
            .map(|s| match s {
                Side::Attackers => 1,
                Side::Defenders => -1,
            })
            .sum()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    #[error("a Swiss round needs at least two players")]
    TooFewPlayers,
    #[error("no pairing gives every player an opponent they have not met yet")]
    NoNewPairing,
}

/// Pairs the next round.
pub fn pair_round(entrants: &[SwissEntrant]) -> Result<RoundPlan, SwissError> {
    if entrants.len() < 2 {
        return Err(SwissError::TooFewPlayers);
    }
    let mut ranked: Vec<&SwissEntrant> = entrants.iter().collect();
    ranked.sort_by_key(|e| (Reverse(e.points), Reverse(e.rating), e.player));
    let met: HashSet<(PlayerId, PlayerId)> = entrants
        .iter()
        .flat_map(|e| e.opponents.iter().map(move |o| (e.player, *o)))
        .collect();
    let search = Search {
        ranked: &ranked,
        met: &met,
    };

    let all: Vec<usize> = (0..ranked.len()).collect();
    let (pairs, bye) = if ranked.len().is_multiple_of(2) {
        (search.pair(&all)?, None)
    } else {
        search.pair_with_bye(&all)?
    };
    let pairings = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (high, low))| sides(ranked[high], ranked[low], board))
        .collect();
    Ok(RoundPlan {
        pairings,
        bye: bye.map(|i| ranked[i].player),
    })
}

/// Two players' places in the ranking, the higher-ranked first.
type Pair = (usize, usize);

struct Search<'a> {
    ranked: &'a [&'a SwissEntrant],
    met: &'a HashSet<(PlayerId, PlayerId)>,
}

impl Search<'_> {
    /// The lowest-ranked player without a bye sits out if the rest can be paired; failing
    /// that, the next one up; a repeated bye only when nobody else can take it.
    fn pair_with_bye(&self, all: &[usize]) -> Result<(Vec<Pair>, Option<usize>), SwissError> {
        let fresh = all.iter().rev().filter(|&&i| !self.ranked[i].had_bye);
        let repeated = all.iter().rev().filter(|&&i| self.ranked[i].had_bye);
        for &bye in fresh.chain(repeated) {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != bye).collect();
            match self.pair(&rest) {
                Ok(pairs) => return Ok((pairs, Some(bye))),
                Err(SwissError::NoNewPairing) => continue,
                Err(other) => return Err(other),
            }
        }
        Err(SwissError::NoNewPairing)
    }

    fn pair(&self, players: &[usize]) -> Result<Vec<Pair>, SwissError> {
        let mut budget = SEARCH_BUDGET;
        let mut pairs = Vec::with_capacity(players.len() / 2);
        if self.extend(players.to_vec(), &mut pairs, &mut budget) {
            Ok(pairs)
        } else {
            Err(SwissError::NoNewPairing)
        }
    }

    /// Pairs the top player of `unpaired` (in rank order) and recurses; backtracks when the
    /// rest cannot be paired.
    fn extend(&self, unpaired: Vec<usize>, pairs: &mut Vec<Pair>, budget: &mut u32) -> bool {
        let Some((&top, rest)) = unpaired.split_first() else {
            return true;
        };
        for candidate in self.candidates(top, rest) {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let remaining: Vec<usize> = rest.iter().copied().filter(|&i| i != candidate).collect();
            pairs.push((top, candidate));
            if self.extend(remaining, pairs, budget) {
                return true;
            }
            pairs.pop();
        }
        false
    }

    /// The opponents to try for `top`, best first: its score group's member half the group
    /// below it, then the rest of the lower half, then the upper half upwards, then lower
    /// groups in rank order. Players `top` already met are left out.
    fn candidates(&self, top: usize, rest: &[usize]) -> Vec<usize> {
        let points = self.ranked[top].points;
        let (group, lower): (Vec<usize>, Vec<usize>) =
            rest.iter().partition(|&&i| self.ranked[i].points == points);
        // `top` is the first of its group of `group.len() + 1`: its Dutch opponent is the
        // first of the group's lower half.
        let half = group.len().div_ceil(2);
        let split = half.saturating_sub(1).min(group.len());
        let (upper_half, lower_half) = group.split_at(split);
        lower_half
            .iter()
            .chain(upper_half.iter().rev())
            .chain(lower.iter())
            .copied()
            .filter(|&i| {
                !self
                    .met
                    .contains(&(self.ranked[top].player, self.ranked[i].player))
            })
            .collect()
    }
}

/// Who attacks: the one who has defended more, then the one who defended last; otherwise the
/// higher-ranked player on odd boards (counted from 1).
fn sides(high: &SwissEntrant, low: &SwissEntrant, board: usize) -> Pairing {
    let high_attacks = match high.side_balance().cmp(&low.side_balance()) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (high.sides.last(), low.sides.last()) {
            (Some(Side::Defenders), Some(Side::Attackers)) => true,
            (Some(Side::Attackers), Some(Side::Defenders)) => false,
            _ => board.is_multiple_of(2),
        },
    };
    if high_attacks {
        Pairing {
            attackers: high.player,
            defenders: low.player,
        }
    } else {
        Pairing {
            attackers: low.player,
            defenders: high.player,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn entrants(ratings: &[i32]) -> Vec<SwissEntrant> {
        ratings
            .iter()
            .enumerate()
            .map(|(i, &rating)| SwissEntrant {
                player: PlayerId(i as i64 + 1),
                points: Points::ZERO,
                rating,
                opponents: Vec::new(),
                sides: Vec::new(),
                had_bye: false,
            })
            .collect()
    }

    /// Plays a round: the higher-rated player always wins (deterministic results).
    fn play(entrants: &mut [SwissEntrant], plan: &RoundPlan) {
        let index: HashMap<PlayerId, usize> = entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.player, i))
            .collect();
        for p in &plan.pairings {
            let (a, d) = (index[&p.attackers], index[&p.defenders]);
            let winner = if entrants[a].rating >= entrants[d].rating {
                a
            } else {
                d
            };
            entrants[winner].points += Points::ONE;
            entrants[a].opponents.push(p.defenders);
            entrants[a].sides.push(Side::Attackers);
            entrants[d].opponents.push(p.attackers);
            entrants[d].sides.push(Side::Defenders);
        }
        if let Some(bye) = plan.bye {
            let b = index[&bye];
            entrants[b].points += Points::ONE;
            entrants[b].had_bye = true;
        }
    }

    #[test]
    fn the_first_round_pairs_the_top_half_against_the_bottom_half() {
        let plan = pair_round(&entrants(&[2000, 1900, 1800, 1700, 1600, 1500])).unwrap();
        let mut pairs: Vec<(i64, i64)> = plan
            .pairings
            .iter()
            .map(|p| {
                (
                    p.attackers.0.min(p.defenders.0),
                    p.attackers.0.max(p.defenders.0),
                )
            })
            .collect();
        pairs.sort();
        assert_eq!(pairs, vec![(1, 4), (2, 5), (3, 6)]);
        assert_eq!(plan.bye, None);
    }

    #[test]
    fn five_players_over_five_rounds_never_meet_twice_and_each_sits_out_once() {
        let mut players = entrants(&[2100, 2000, 1900, 1800, 1700]);
        let mut byes = Vec::new();
        for round in 0..5 {
            let plan = pair_round(&players).unwrap_or_else(|e| panic!("round {round}: {e}"));
            assert_eq!(plan.pairings.len(), 2);
            byes.push(plan.bye.expect("an odd count has a bye"));
            play(&mut players, &plan);
        }
        let distinct: HashSet<_> = byes.iter().collect();
        assert_eq!(distinct.len(), 5, "byes {byes:?}");
        for e in &players {
            let met: HashSet<_> = e.opponents.iter().collect();
            assert_eq!(
                met.len(),
                e.opponents.len(),
                "{:?} met someone twice",
                e.player
            );
            assert_eq!(met.len(), 4, "with five rounds each meets the other four");
        }
        assert_eq!(byes[0], PlayerId(5), "the lowest-ranked sits out first");
    }

    #[test]
    fn leaders_meet_leaders_and_sides_alternate() {
        let mut players = entrants(&[2400, 2300, 2200, 2100, 2000, 1900, 1800, 1700]);
        let first = pair_round(&players).unwrap();
        play(&mut players, &first);
        let second = pair_round(&players).unwrap();
        let winners: HashSet<PlayerId> = (1..=4).map(PlayerId).collect();
        for p in &second.pairings {
            assert_eq!(
                winners.contains(&p.attackers),
                winners.contains(&p.defenders),
                "round 2 pairs within score groups: {p:?}"
            );
            let first_side = |player: PlayerId| {
                players
                    .iter()
                    .find(|e| e.player == player)
                    .map(|e| e.sides[0])
            };
            let (a, d) = (first_side(p.attackers), first_side(p.defenders));
            if a != d {
                assert_eq!(
                    a,
                    Some(Side::Defenders),
                    "who defended in round 1 attacks in round 2: {p:?}"
                );
            }
        }
    }

    #[test]
    fn a_round_with_no_new_pairing_is_refused_not_searched_forever() {
        let mut players = entrants(&[2000, 1900, 1800, 1700]);
        for _ in 0..3 {
            let plan = pair_round(&players).unwrap();
            play(&mut players, &plan);
        }
        assert_eq!(pair_round(&players), Err(SwissError::NoNewPairing));
        assert_eq!(pair_round(&players[..1]), Err(SwissError::TooFewPlayers));
    }

    #[test]
    fn many_players_pair_quickly_without_rematches() {
        let ratings: Vec<i32> = (0..64).map(|i| 2000 - i * 7).collect();
        let mut players = entrants(&ratings);
        for _ in 0..7 {
            let plan = pair_round(&players).unwrap();
            play(&mut players, &plan);
        }
        for e in &players {
            let met: HashSet<_> = e.opponents.iter().collect();
            assert_eq!(met.len(), 7);
        }
    }
}
