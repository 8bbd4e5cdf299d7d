//! Standings: points (a win 1, a draw ½, a bye 1), then the tie-breaks in the order the
//! tournament chose:
//! - **Sonneborn-Berger**: the points of every opponent beaten, plus half the points of every
//!   opponent drawn (the World Tafl Federation's tie-break);
//! - **Buchholz**: the sum of the opponents' points (Swiss events' usual first tie-break);
//! - **direct encounter**: the points scored in the games among the players on equal points;
//! - **wins**: games won.
//!
//! Byes count as points but not as opponents, so they add to neither Sonneborn-Berger nor
//! Buchholz. Players equal on points and every tie-break share a rank.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::points::Points;
use crate::domain::PlayerId;

/// How a finished game of a tournament ended, as standings count it. A forfeit (a no-show,
/// a withdrawal) is a win for the player who stayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameScore {
    AttackersWon,
    DefendersWon,
    Draw,
}

impl GameScore {
    /// The points each side scored: (attackers, defenders).
    pub fn points(self) -> (Points, Points) {
        match self {
            GameScore::AttackersWon => (Points::ONE, Points::ZERO),
            GameScore::DefendersWon => (Points::ZERO, Points::ONE),
            GameScore::Draw => (Points::HALF, Points::HALF),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoredGame {
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    pub score: GameScore,
}

impl ScoredGame {
    /// The points each side scored: (attackers, defenders).
    fn points(&self) -> (Points, Points) {
        self.score.points()
    }

    /// Each player's view of the game: (player, opponent, points scored).
    fn sides(&self) -> [(PlayerId, PlayerId, Points); 2] {
        let (a, d) = self.points();
        [
            (self.attackers, self.defenders, a),
            (self.defenders, self.attackers, d),
        ]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    SonnebornBerger,
    Buchholz,
    DirectEncounter,
    Wins,
}

/// A Sonneborn-Berger score, in quarter points (an opponent's ½ times a draw's ½).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quarters(u64);

impl Quarters {
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 4.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    /// 1 for the leader; players tied on points and every tie-break share a rank.
    pub rank: u32,
    pub player: PlayerId,
    pub points: Points,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub sonneborn_berger: Quarters,
    pub buchholz: Points,
    pub direct_encounter: Points,
}

impl Standing {
    fn key(&self, order: &[TieBreak]) -> (Points, Vec<u64>) {
        let breaks = order
            .iter()
            .map(|t| match t {
                TieBreak::SonnebornBerger => self.sonneborn_berger.0,
                TieBreak::Buchholz => u64::from(self.buchholz.halves()),
                TieBreak::DirectEncounter => u64::from(self.direct_encounter.halves()),
                TieBreak::Wins => u64::from(self.wins),
            })
            .collect();
        (self.points, breaks)
    }
}

/// The standings of `players` (in seeding order, which breaks a complete tie for display)
/// after the finished `games` and the `byes` (one entry per bye taken).
pub fn standings(
    players: &[PlayerId],
    games: &[ScoredGame],
    byes: &[PlayerId],
    order: &[TieBreak],
) -> Vec<Standing> {
    let mut table: Vec<Standing> = players
        .iter()
        .map(|&player| Standing {
            rank: 0,
            player,
            points: Points::ZERO,
            played: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            sonneborn_berger: Quarters::default(),
            buchholz: Points::ZERO,
            direct_encounter: Points::ZERO,
        })
        .collect();
    let index: HashMap<PlayerId, usize> =
        players.iter().enumerate().map(|(i, p)| (*p, i)).collect();

    for game in games {
        for (player, _, scored) in game.sides() {
            let Some(&i) = index.get(&player) else {
                continue;
            };
            let row = &mut table[i];
            row.points += scored;
            row.played += 1;
            match scored {
                Points::ONE => row.wins += 1,
                Points::HALF => row.draws += 1,
                _ => row.losses += 1,
            }
        }
    }
    for bye in byes {
        if let Some(&i) = index.get(bye) {
            table[i].points += Points::ONE;
            table[i].byes += 1;
        }
    }

    let points: HashMap<PlayerId, Points> = table.iter().map(|s| (s.player, s.points)).collect();
    for game in games {
        for (player, opponent, scored) in game.sides() {
            let (Some(&i), Some(&theirs)) = (index.get(&player), points.get(&opponent)) else {
                continue;
            };
            let row = &mut table[i];
            row.buchholz += theirs;
            row.sonneborn_berger.0 += theirs.times_in_quarters(scored);
            if theirs == row.points {
                row.direct_encounter += scored;
            }
        }
    }

    // Stable: a complete tie keeps the seeding order.
    table.sort_by_cached_key(|s| Reverse(s.key(order)));
    let mut previous: Option<(Points, Vec<u64>)> = None;
    for position in 0..table.len() {
        let key = table[position].key(order);
        let rank = match &previous {
            Some(prev) if *prev == key => table[position - 1].rank,
            _ => position as u32 + 1,
        };
        table[position].rank = rank;
        previous = Some(key);
    }
    table
}

/// Who scored what against whom: `cells[i][j]` holds the points `players[i]` scored in each
/// game against `players[j]` (two in a double round robin), in the order the games are given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosstable {
    pub players: Vec<PlayerId>,
    pub cells: Vec<Vec<Vec<Points>>>,
}

pub fn crosstable(players: &[PlayerId], games: &[ScoredGame]) -> Crosstable {
    let index: HashMap<PlayerId, usize> =
        players.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let mut cells = vec![vec![Vec::new(); players.len()]; players.len()];
    for game in games {
        for (player, opponent, scored) in game.sides() {
            if let (Some(&i), Some(&j)) = (index.get(&player), index.get(&opponent)) {
                cells[i][j].push(scored);
            }
        }
    }
    Crosstable {
        players: players.to_vec(),
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: PlayerId = PlayerId(1);
    const B: PlayerId = PlayerId(2);
    const C: PlayerId = PlayerId(3);
    const D: PlayerId = PlayerId(4);

    fn game(attackers: PlayerId, defenders: PlayerId, score: GameScore) -> ScoredGame {
        ScoredGame {
            attackers,
            defenders,
            score,
        }
    }

    /// A 4-player round robin, worked by hand:
    /// A beats B, A draws C, D beats A; B beats C, B beats D; C draws D.
    /// Points: A 1½, B 2, C 1, D 1½.
    /// Sonneborn-Berger: A = B's 2 (win) + ½ × C's 1 + 0 = 2½;
    ///                   D = A's 1½ (win) + ½ × C's 1 = 2; B = C 1 + D 1½ = 2½; C = ½×1½ + ½×1½ = 1½.
    /// Buchholz: A = 2 + 1 + 1½ = 4½; D = 1½ + 2 + 1 = 4½; B = 1½ + 1 + 1½ = 4; C = 1½ + 2 + 1½ = 5.
    fn round_robin_games() -> Vec<ScoredGame> {
        vec![
            game(A, B, GameScore::AttackersWon),
            game(C, A, GameScore::Draw),
            game(D, A, GameScore::AttackersWon),
            game(B, C, GameScore::AttackersWon),
            game(D, B, GameScore::DefendersWon),
            game(C, D, GameScore::Draw),
        ]
    }

    #[test]
    fn points_and_tie_breaks_match_the_hand_computed_table() {
        let table = standings(
            &[A, B, C, D],
            &round_robin_games(),
            &[],
            &[TieBreak::SonnebornBerger, TieBreak::Buchholz],
        );
        let got: Vec<(PlayerId, u32, u32, f64, f64)> = table
            .iter()
            .map(|s| {
                (
                    s.player,
                    s.rank,
                    s.points.halves(),
                    s.sonneborn_berger.as_f64(),
                    s.buchholz.as_f64(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (B, 1, 4, 2.5, 4.0),
                (A, 2, 3, 2.5, 4.5),
                (D, 3, 3, 2.0, 4.5),
                (C, 4, 2, 1.5, 5.0),
            ]
        );
        let a = &table[1];
        assert_eq!((a.wins, a.draws, a.losses, a.played), (1, 1, 1, 3));
    }

    #[test]
    fn the_order_of_tie_breaks_decides_and_a_complete_tie_shares_a_rank() {
        // A and D are on 1½; direct encounter: D beat A.
        let table = standings(
            &[A, B, C, D],
            &round_robin_games(),
            &[],
            &[TieBreak::DirectEncounter, TieBreak::SonnebornBerger],
        );
        let order: Vec<PlayerId> = table.iter().map(|s| s.player).collect();
        assert_eq!(order, vec![B, D, A, C]);
        assert_eq!(table[1].direct_encounter, Points::ONE);

        // With Buchholz alone A and D are level in everything: one rank, seeding order kept.
        let level = standings(
            &[A, B, C, D],
            &round_robin_games(),
            &[],
            &[TieBreak::Buchholz],
        );
        let ranks: Vec<(PlayerId, u32)> = level.iter().map(|s| (s.player, s.rank)).collect();
        assert_eq!(ranks, vec![(B, 1), (A, 2), (D, 2), (C, 4)]);
    }

    #[test]
    fn a_bye_scores_a_point_but_is_no_opponent() {
        let games = vec![game(A, B, GameScore::AttackersWon)];
        let table = standings(&[A, B, C], &games, &[C], &[TieBreak::Buchholz]);
        let c = table.iter().find(|s| s.player == C).cloned();
        let c = c.unwrap_or_else(|| panic!("C is in the table"));
        assert_eq!((c.points, c.byes, c.played), (Points::ONE, 1, 0));
        assert_eq!(c.buchholz, Points::ZERO);
        assert_eq!(c.sonneborn_berger, Quarters::default());
    }

    #[test]
    fn the_crosstable_keeps_each_game_of_a_pair() {
        let games = vec![
            game(A, B, GameScore::AttackersWon),
            game(B, A, GameScore::Draw),
        ];
        let table = crosstable(&[A, B], &games);
        assert_eq!(table.cells[0][1], vec![Points::ONE, Points::HALF]);
        assert_eq!(table.cells[1][0], vec![Points::ZERO, Points::HALF]);
        assert!(table.cells[0][0].is_empty());
    }
}
