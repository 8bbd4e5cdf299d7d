//! A pairing's results: every game with its ending, the points per opening pair, and the
//! summaries drawn from them (W/L/D and score, Elo, results by side, endings by kind).

use tafl_engine::Side;

use super::ending::Ending;
use super::game::GameRun;
use crate::stats::Results;

/// One game of a pairing, scored or not.
#[derive(Debug, Clone)]
pub struct GameEntry {
    pub label: String,
    /// The side A played.
    pub a_side: Side,
    pub ending: Ending,
    pub plies: u32,
}

impl GameEntry {
    /// A's points (None: not scored).
    pub fn a_points(&self) -> Option<f64> {
        self.ending.points(self.a_side)
    }
}

/// Won, lost and drawn games of one player.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
}

impl Record {
    pub fn games(&self) -> u32 {
        self.won + self.lost + self.drawn
    }

    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => (f64::from(self.won) + 0.5 * f64::from(self.drawn)) / f64::from(games),
        }
    }

    /// The other player's record of the same games.
    pub fn mirrored(&self) -> Record {
        Record {
            won: self.lost,
            lost: self.won,
            drawn: self.drawn,
        }
    }

    fn add(&mut self, points: f64) {
        match points {
            p if p > 0.75 => self.won += 1,
            p if p < 0.25 => self.lost += 1,
            _ => self.drawn += 1,
        }
    }
}

impl std::fmt::Display for Record {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} won, {} lost, {} drawn ({:.1}%)",
            self.won,
            self.lost,
            self.drawn,
            100.0 * self.score()
        )
    }
}

/// How many games ended one way, and who won them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndingCount {
    pub kind: &'static str,
    pub games: u32,
    pub a_won: u32,
    pub b_won: u32,
}

/// One pairing's results (A against B).
#[derive(Debug, Default)]
pub struct Tally {
    /// Every game played, scored or not, in order.
    pub games: Vec<GameEntry>,
    /// A's points per complete opening pair (0 to 2).
    pub pair_points: Vec<f64>,
    /// Games stopped because an external engine refused a move our referee allowed.
    pub refused: Vec<String>,
    /// Games stopped by a failure (timeouts included: they are scored, the others not).
    pub failed: Vec<String>,
    /// Games an external engine ended by its own house rules (scored by its verdict).
    pub adjudicated: Vec<String>,
    /// External engines started afresh after a game they did not end cleanly.
    pub restarts: Vec<String>,
    /// The match was stopped before its end (Ctrl-C).
    pub interrupted: bool,
    /// The pairing could not go on (an engine could not be restarted, a record not written).
    pub aborted: Option<String>,
}

impl Tally {
    /// Adds a game A played as `a_side`, and lists it apart when it failed or an engine
    /// ended it by its own rules.
    pub fn add(&mut self, label: &str, a_side: Side, ending: Ending, run: &GameRun) {
        match (&run.failure, &run.adjudication) {
            (Some((_, error)), _) if error.is_rules_difference() => {
                self.refused.push(format!("{label}: {error}"));
            }
            (Some((_, error)), _) => self.failed.push(format!("{label}: {error}")),
            (None, Some((engine, verdict))) => self.adjudicated.push(format!(
                "{label}: {engine} said {} after {} plies",
                verdict.said,
                run.game.ply()
            )),
            (None, None) => {}
        }
        if ending == Ending::Interrupted {
            self.interrupted = true;
        }
        self.games.push(GameEntry {
            label: label.to_string(),
            a_side,
            ending,
            plies: run.game.ply(),
        });
    }

    /// A's record over the scored games.
    pub fn record(&self) -> Record {
        self.record_where(|_| true)
    }

    /// A's record over the scored games where A played `side`.
    pub fn record_as(&self, side: Side) -> Record {
        self.record_where(|game| game.a_side == side)
    }

    fn record_where(&self, keep: impl Fn(&GameEntry) -> bool) -> Record {
        let mut record = Record::default();
        for game in self.games.iter().filter(|g| keep(g)) {
            if let Some(points) = game.a_points() {
                record.add(points);
            }
        }
        record
    }

    pub fn wins(&self) -> u32 {
        self.record().won
    }

    pub fn losses(&self) -> u32 {
        self.record().lost
    }

    pub fn draws(&self) -> u32 {
        self.record().drawn
    }

    /// Scored games.
    pub fn scored(&self) -> u32 {
        self.record().games()
    }

    /// A's points.
    pub fn points(&self) -> f64 {
        self.games.iter().filter_map(GameEntry::a_points).sum()
    }

    pub fn score(&self) -> f64 {
        self.record().score()
    }

    /// Half-width of the 95% interval of the score, from the spread of the pair scores.
    pub fn interval(&self) -> Option<f64> {
        let n = self.pair_points.len();
        if n < 2 {
            return None;
        }
        let scores: Vec<f64> = self.pair_points.iter().map(|p| p / 2.0).collect();
        let mean = scores.iter().sum::<f64>() / n as f64;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Some(1.96 * (var / n as f64).sqrt())
    }

    /// A's game results: lost, drawn, won.
    pub fn trinomial(&self) -> Results {
        let record = self.record();
        Results::Trinomial([record.lost, record.drawn, record.won])
    }

    /// A's complete opening pairs by points: 0, 1/2, 1, 3/2, 2.
    pub fn pentanomial(&self) -> Results {
        let mut counts = [0; 5];
        for points in &self.pair_points {
            let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
            counts[index] += 1;
        }
        Results::Pentanomial(counts)
    }

    /// The games by how they ended, in a fixed order of kinds.
    pub fn endings(&self) -> Vec<EndingCount> {
        let mut kinds: Vec<(u8, EndingCount)> = Vec::new();
        for game in &self.games {
            let kind = game.ending.kind();
            let index = match kinds.iter().position(|(_, count)| count.kind == kind) {
                Some(index) => index,
                None => {
                    let count = EndingCount {
                        kind,
                        games: 0,
                        a_won: 0,
                        b_won: 0,
                    };
                    kinds.push((game.ending.rank(), count));
                    kinds.len() - 1
                }
            };
            let count = &mut kinds[index].1;
            count.games += 1;
            match game.a_points() {
                Some(p) if p > 0.75 => count.a_won += 1,
                Some(p) if p < 0.25 => count.b_won += 1,
                _ => {}
            }
        }
        kinds.sort_by_key(|(rank, _)| *rank);
        kinds.into_iter().map(|(_, count)| count).collect()
    }

    /// One line: games, W/L/D, score with its interval, Elo from the pairs, and what was
    /// reported apart.
    pub fn summary(&self) -> String {
        let interval = self
            .interval()
            .map_or("n/a".to_string(), |h| format!("±{:.1}%", 100.0 * h));
        let elo = match (self.pentanomial().elo(), self.trinomial().elo()) {
            (Some(elo), _) => format!("; Elo {elo} over {} pairs", self.pair_points.len()),
            (None, Some(elo)) => format!("; Elo {elo}"),
            _ => String::new(),
        };
        let unscored = self.games.len() as u32 - self.scored();
        format!(
            "{} games: {} won, {} lost, {} drawn; score {:.1}% {interval} (95%){elo}{}{}{}{}",
            self.scored(),
            self.wins(),
            self.losses(),
            self.draws(),
            100.0 * self.score(),
            if unscored == 0 {
                String::new()
            } else {
                format!("; {unscored} not scored")
            },
            if self.refused.is_empty() {
                String::new()
            } else {
                format!("; {} reported apart (refused moves)", self.refused.len())
            },
            if self.adjudicated.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} of them ended by the engine's own rules",
                    self.adjudicated.len()
                )
            },
            if self.interrupted {
                "; stopped before the end"
            } else {
                ""
            },
        )
    }

    /// Lines under the summary: each player's results as attackers and as defenders, then the
    /// games by how they ended (and who won them).
    pub fn breakdown(&self, a: &str, b: &str) -> Vec<String> {
        let (a_att, a_def) = (
            self.record_as(Side::Attackers),
            self.record_as(Side::Defenders),
        );
        let mut lines = vec![
            format!("A {a} as attackers: {a_att}; as defenders: {a_def}"),
            format!(
                "B {b} as attackers: {}; as defenders: {}",
                a_def.mirrored(),
                a_att.mirrored()
            ),
        ];
        let endings: Vec<String> = self
            .endings()
            .iter()
            .map(|count| {
                let mut winners = Vec::new();
                if count.a_won > 0 {
                    winners.push(format!("A won {}", count.a_won));
                }
                if count.b_won > 0 {
                    winners.push(format!("B won {}", count.b_won));
                }
                if winners.is_empty() {
                    format!("{} {}", count.kind, count.games)
                } else {
                    format!("{} {} ({})", count.kind, count.games, winners.join(", "))
                }
            })
            .collect();
        if !endings.is_empty() {
            lines.push(format!("endings: {}", endings.join("; ")));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use tafl_engine::WinReason;

    use super::*;

    fn entry(a_side: Side, ending: Ending) -> GameEntry {
        GameEntry {
            label: String::new(),
            a_side,
            ending,
            plies: 10,
        }
    }

    #[test]
    fn the_results_are_split_by_side_and_by_ending() {
        let escape = Ending::Won {
            winner: Side::Defenders,
            reason: WinReason::KingEscaped,
        };
        let tally = Tally {
            games: vec![
                // Opening 1: A wins as defenders, loses on time as attackers.
                entry(Side::Defenders, escape),
                entry(
                    Side::Attackers,
                    Ending::Timeout {
                        loser: Side::Attackers,
                    },
                ),
                // Opening 2: B escapes against A; the second game fails (not scored).
                entry(Side::Attackers, escape),
                entry(Side::Defenders, Ending::EngineFailure),
            ],
            pair_points: vec![1.0],
            ..Tally::default()
        };
        assert_eq!(
            tally.record(),
            Record {
                won: 1,
                lost: 2,
                drawn: 0
            }
        );
        assert_eq!(tally.record_as(Side::Attackers).lost, 2);
        assert_eq!(tally.record_as(Side::Defenders).won, 1);
        assert_eq!(
            tally.endings(),
            vec![
                EndingCount {
                    kind: "king escaped",
                    games: 2,
                    a_won: 1,
                    b_won: 1
                },
                EndingCount {
                    kind: "timeout",
                    games: 1,
                    a_won: 0,
                    b_won: 1
                },
                EndingCount {
                    kind: "engine failure (not scored)",
                    games: 1,
                    a_won: 0,
                    b_won: 0
                },
            ]
        );
        assert_eq!(tally.pentanomial(), Results::Pentanomial([0, 0, 1, 0, 0]));
        let lines = tally.breakdown("L3", "L2");
        assert_eq!(
            lines[1],
            "B L2 as attackers: 0 won, 1 lost, 0 drawn (0.0%); as defenders: 2 won, 0 lost, 0 drawn (100.0%)"
        );
        assert!(
            tally.summary().contains("1 not scored"),
            "{}",
            tally.summary()
        );
    }
}
