//! A team match's score: each game's points to the team of the player who scored them.

use crate::domain::TeamSide;
use crate::tournaments::{GameScore, Points};

/// One decided game of the match, with the team of each player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamGame {
    pub attackers_team: TeamSide,
    pub score: GameScore,
}

/// The points of home and away.
pub fn team_points(games: &[TeamGame]) -> [Points; 2] {
    let mut points = [Points::ZERO, Points::ZERO];
    let index = |team: TeamSide| match team {
        TeamSide::Home => 0,
        TeamSide::Away => 1,
    };
    for g in games {
        let (attackers, defenders) = g.score.points();
        points[index(g.attackers_team)] += attackers;
        points[index(g.attackers_team.other())] += defenders;
    }
    points
}

/// The team with more points; `None` for a draw.
pub fn winner(points: [Points; 2]) -> Option<TeamSide> {
    match points[0].cmp(&points[1]) {
        std::cmp::Ordering::Greater => Some(TeamSide::Home),
        std::cmp::Ordering::Less => Some(TeamSide::Away),
        std::cmp::Ordering::Equal => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_boards_worked_by_hand() {
        // Board 1: home wins with the attackers, then draws with the defenders (1.5 - 0.5).
        // Board 2: away wins both (0 - 2). Home 1.5, away 2.5: away wins.
        let games = [
            TeamGame {
                attackers_team: TeamSide::Home,
                score: GameScore::AttackersWon,
            },
            TeamGame {
                attackers_team: TeamSide::Away,
                score: GameScore::Draw,
            },
            TeamGame {
                attackers_team: TeamSide::Home,
                score: GameScore::DefendersWon,
            },
            TeamGame {
                attackers_team: TeamSide::Away,
                score: GameScore::AttackersWon,
            },
        ];
        let points = team_points(&games);
        assert_eq!(points.map(Points::as_f64), [1.5, 2.5]);
        assert_eq!(winner(points), Some(TeamSide::Away));
    }

    #[test]
    fn equal_points_are_a_draw() {
        let games = [
            TeamGame {
                attackers_team: TeamSide::Home,
                score: GameScore::AttackersWon,
            },
            TeamGame {
                attackers_team: TeamSide::Away,
                score: GameScore::AttackersWon,
            },
        ];
        let points = team_points(&games);
        assert_eq!(points.map(Points::as_f64), [1.0, 1.0]);
        assert_eq!(winner(points), None);
    }
}
