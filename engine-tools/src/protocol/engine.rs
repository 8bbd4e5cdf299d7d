//! Our AI as an OpenTafl Engine Protocol engine (`opentafl-engine-protocol.txt`): commands on
//! the input, one per line; answers on the output.

use std::io::{BufRead, Write};
use std::time::Duration;

use tafl_engine::ai::{SearchLimits, Searcher};
use tafl_engine::{Game, Position, Rules, Side};

/// What the engine does by default with no clock: think this long per move.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

pub struct OtepEngine {
    searcher: Searcher,
    game: Option<Game>,
    /// The last `clock` command.
    clock: Option<Clock>,
    move_time: Duration,
    /// Search threads for a move (an analysis takes every core).
    threads: usize,
}

impl OtepEngine {
    pub fn new(move_time: Option<Duration>, table_mib: usize) -> OtepEngine {
        OtepEngine {
            searcher: Searcher::new(table_mib),
            game: None,
            clock: None,
            move_time: move_time.unwrap_or(DEFAULT_MOVE_TIME),
            threads: 1,
        }
    }

    /// Searches each move on `threads` threads (1 by default).
    pub fn with_threads(mut self, threads: usize) -> OtepEngine {
        self.threads = threads.clamp(1, SearchLimits::MAX_THREADS);
        self
    }

    /// Serves commands until `goodbye` or the end of the input.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        writeln!(output, "hello")?;
        output.flush()?;
        for line in input.lines() {
            let line = line?;
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
            let replies = match command {
                "goodbye" => break,
                _ => self.handle(command, rest.trim()),
            };
            for reply in replies {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
        }
        Ok(())
    }

    /// One command; returns the lines to send back.
    pub fn handle(&mut self, command: &str, rest: &str) -> Vec<String> {
        match command {
            "rules" => match Rules::from_opentafl(rest) {
                Ok(rules) => {
                    self.game = Some(Game::new(rules));
                    Vec::new()
                }
                Err(e) => vec![format!("error -1 cannot read the rules: {e}")],
            },
            "position" => self.set_position(rest, None),
            "side" => match (rest.parse::<Side>(), &self.game) {
                (Ok(side), Some(game)) => {
                    let position = game.position().with_side_to_move(side);
                    self.game = Some(Game::from_position(game.rules().clone(), position));
                    Vec::new()
                }
                _ => vec![format!("error 0 bad side command: {rest}")],
            },
            "clock" => match Clock::parse(rest) {
                Some(clock) => {
                    self.clock = Some(clock);
                    Vec::new()
                }
                None => vec![format!("status unreadable clock: {rest}")],
            },
            "opponent-move" => self.opponent_move(rest),
            "play" => self.play(rest),
            "move" => self.set_position(rest, None),
            "analyze" => self.analyze(rest),
            "finish" | "error" => Vec::new(),
            other => vec![format!("status unknown command {other}")],
        }
    }

    fn set_position(&mut self, record: &str, to_move: Option<Side>) -> Vec<String> {
        let Some(game) = &self.game else {
            return vec!["error 0 position before rules".to_string()];
        };
        let to_move = to_move.unwrap_or(game.side_to_move());
        if game.position().to_opentafl() == record.trim() && game.side_to_move() == to_move {
            return Vec::new();
        }
        match Position::from_opentafl(record, to_move) {
            Ok(position) => {
                self.game = Some(Game::from_position(game.rules().clone(), position));
                Vec::new()
            }
            Err(e) => vec![format!("error 0 cannot read the position: {e}")],
        }
    }

    fn opponent_move(&mut self, rest: &str) -> Vec<String> {
        let Some(game) = &mut self.game else {
            return vec!["error 0 opponent-move before rules".to_string()];
        };
        let (moves, record) = rest.split_once(' ').unwrap_or((rest, ""));
        let mut applied = true;
        for text in moves.split('|') {
            if game.play_str(text).is_err() {
                applied = false;
                break;
            }
        }
        // Trust the host's position if ours differs (or the move was not ours to judge).
        let record = record.trim();
        if !applied || (!record.is_empty() && game.position().to_opentafl() != record) {
            let mover_done = game.side_to_move();
            return self.set_position(
                record,
                Some(if applied {
                    mover_done
                } else {
                    mover_done.opponent()
                }),
            );
        }
        Vec::new()
    }
}

/// A `clock` command: `<attacker-ms>[*] <defender-ms>[*] [<overtime-s> <attacker-overtimes>
/// <defender-overtimes>]` (a `*` marks time left in the current overtime period).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Clock {
    /// Main time left (or, with a `*`, time left in the current period), per side.
    left_ms: [u64; 2],
    overtime_ms: u64,
    /// Overtime periods left, per side.
    overtimes: [u64; 2],
}

impl Clock {
    fn parse(text: &str) -> Option<Clock> {
        let fields: Vec<u64> = text
            .split_whitespace()
            .map(|f| f.trim_end_matches('*').parse().ok())
            .collect::<Option<_>>()?;
        match fields[..] {
            [attackers, defenders] => Some(Clock {
                left_ms: [attackers, defenders],
                overtime_ms: 0,
                overtimes: [0, 0],
            }),
            [
                attackers,
                defenders,
                overtime_s,
                attacker_overtimes,
                defender_overtimes,
            ] => Some(Clock {
                left_ms: [attackers, defenders],
                overtime_ms: overtime_s.saturating_mul(1000),
                overtimes: [attacker_overtimes, defender_overtimes],
            }),
            _ => None,
        }
    }
}

/// Time for one move: a fortieth of the main time left plus nine tenths of an overtime period
/// when one is left, and never more than `move_time`.
fn budget(clock: Option<Clock>, move_time: Duration, side: Side) -> Duration {
    let Some(clock) = clock else {
        return move_time;
    };
    let index = match side {
        Side::Attackers => 0,
        Side::Defenders => 1,
    };
    let overtime = if clock.overtimes[index] > 0 {
        clock.overtime_ms / 10 * 9
    } else {
        0
    };
    Duration::from_millis(clock.left_ms[index] / 40 + overtime)
        .max(Duration::from_millis(20))
        .min(move_time)
}

impl OtepEngine {
    fn play(&mut self, rest: &str) -> Vec<String> {
        let (clock, move_time, threads) = (self.clock, self.move_time, self.threads);
        let Some(game) = &mut self.game else {
            return vec!["error -1 play before rules".to_string()];
        };
        if let Ok(side) = rest.parse::<Side>()
            && side != game.side_to_move()
        {
            let position = game.position().with_side_to_move(side);
            *game = Game::from_position(game.rules().clone(), position);
        }
        let limits =
            SearchLimits::time(budget(clock, move_time, game.side_to_move())).with_threads(threads);
        let Some(result) = self.searcher.search(game, &limits) else {
            return vec!["error 0 no move: the game is over".to_string()];
        };
        // The host confirms with "move <position>"; play it now so the next opponent-move applies.
        let _ = game.play(result.best_move);
        vec![
            format!(
                "status depth {} score {} nodes {}",
                result.depth, result.score, result.nodes
            ),
            format!("move {}", result.best_move),
        ]
    }

    fn analyze(&mut self, rest: &str) -> Vec<String> {
        let Some(game) = &self.game else {
            return vec!["error 0 analyze before rules".to_string()];
        };
        let seconds: f64 = rest
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(1.0);
        let budget = Duration::from_secs_f64(seconds.clamp(0.01, 3600.0));
        // An analysis is one long search the host waits for: every core.
        let limits = SearchLimits::time(budget).all_cores();
        match self.searcher.search(game, &limits) {
            Some(result) => {
                let line: Vec<String> = result.pv.iter().map(ToString::to_string).collect();
                vec![format!("analysis 1 {} {}", line.join("|"), result.score)]
            }
            None => vec!["error 0 nothing to analyse: the game is over".to_string()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn converse(input: &str) -> Vec<String> {
        let mut engine = OtepEngine::new(Some(Duration::from_millis(50)), 1);
        let mut out = Vec::new();
        engine.run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn greets_plays_legal_moves_and_follows_the_opponent() {
        let rules = tafl_engine::variant("brandubh").unwrap().rules();
        let lines = converse(&format!(
            "rules {}\nplay attackers\ngoodbye\nplay attackers\n",
            rules.to_opentafl()
        ));
        assert_eq!(lines[0], "hello");
        let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
        assert_eq!(moves.len(), 1, "{lines:?}");
        let mut game = Game::new(rules.clone());
        game.play_str(moves[0].trim_start_matches("move ")).unwrap();
        // A second engine hears that move as the opponent's and answers for the defenders.
        let lines = converse(&format!(
            "rules {}\nopponent-move {} {}\nplay defenders\n",
            rules.to_opentafl(),
            moves[0].trim_start_matches("move "),
            game.position().to_opentafl()
        ));
        let reply = lines.iter().find_map(|l| l.strip_prefix("move ")).unwrap();
        assert!(game.play_str(reply).is_ok(), "{lines:?}");
    }

    #[test]
    fn a_clock_with_overtime_gives_most_of_a_period_per_move() {
        let long = Duration::from_secs(60);
        let per_move = Clock::parse("0 0 2 99 99");
        assert_eq!(
            budget(per_move, long, Side::Attackers),
            Duration::from_millis(1800)
        );
        let main_only = Clock::parse("40000* 80000 0 0 0");
        assert_eq!(
            budget(main_only, long, Side::Defenders),
            Duration::from_millis(2000)
        );
        // No period left for the attackers: a fortieth of their main time only.
        let spent = Clock::parse("4000 4000 5 0 3");
        assert_eq!(
            budget(spent, long, Side::Attackers),
            Duration::from_millis(100)
        );
        assert_eq!(
            budget(per_move, Duration::from_millis(500), Side::Attackers),
            Duration::from_millis(500)
        );
        assert_eq!(Clock::parse("1 2 3"), None);
        assert_eq!(Clock::parse("soon later"), None);
    }

    #[test]
    fn reports_bad_rules_as_a_critical_error() {
        let lines = converse("rules dim:99\n");
        assert!(lines[1].starts_with("error -1"), "{lines:?}");
    }
}
