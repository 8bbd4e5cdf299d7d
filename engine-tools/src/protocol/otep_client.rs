//! Driving an external engine through the OpenTafl Engine Protocol, as OpenTafl does, and as
//! real engines need it: OpenTafl itself logs to stdout before `hello`, plans its time from the
//! clock we send, and announces its move before it has applied it to its own board.

use std::time::{Duration, Instant};

use tafl_engine::{Game, Move, Outcome, Side};

use super::player::{Player, PlayerError};
use super::process::Process;

/// How long an engine may take to start and say `hello` (a JVM engine takes seconds).
const HELLO_TIMEOUT: Duration = Duration::from_secs(30);
/// Lines an engine may print before `hello` (start-up logs) before we give up on it.
const MAX_LINES_BEFORE_HELLO: usize = 200;
/// Overtime periods announced in the clock: enough that an engine never plans for its last.
const OVERTIME_PERIODS: u32 = 99;
/// The default pause after an engine's move before it is told anything.
pub const DEFAULT_SETTLE: Duration = Duration::from_millis(500);

pub struct OtepPlayer {
    process: Process,
    move_time: Duration,
    /// How long the engine is left alone after it announces a move: the protocol has no
    /// acknowledgement, and OpenTafl applies its move to its own board only after sending it.
    settle: Duration,
    /// When the engine last announced a move.
    moved_at: Option<Instant>,
    pending: Option<Move>,
    /// How long a move may take before the engine counts as hung (None: ten move times and 5 s).
    timeout: Option<Duration>,
    /// From the clock sent to the move read, for the last move.
    think: Option<Duration>,
}

/// The rules string of `game`'s rules with its current position as the start, so an engine
/// joins after the opening (the history before is not passed on).
pub fn rules_from_here(game: &Game) -> String {
    let position = game.position();
    let first = match position.side_to_move() {
        Side::Attackers => "atkf:y",
        Side::Defenders => "atkf:n",
    };
    let mut tokens: Vec<String> = game
        .rules()
        .to_opentafl()
        .split_whitespace()
        .filter(|t| !t.starts_with("start:") && !t.starts_with("atkf:"))
        .map(str::to_string)
        .collect();
    tokens.push(first.to_string());
    tokens.push(format!("start:{}", position.to_opentafl()));
    tokens.join(" ")
}

impl OtepPlayer {
    pub fn spawn(
        command: &str,
        move_time: Option<Duration>,
        settle: Option<Duration>,
    ) -> Result<OtepPlayer, PlayerError> {
        let mut process = Process::spawn(command)?;
        await_hello(&mut process, command)?;
        Ok(OtepPlayer {
            process,
            move_time: move_time.unwrap_or(Duration::from_secs(1)),
            settle: settle.unwrap_or(DEFAULT_SETTLE),
            moved_at: None,
            pending: None,
            timeout: None,
            think: None,
        })
    }

    /// Waits at most `timeout` for a move (None: ten move times and 5 s).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> OtepPlayer {
        self.timeout = timeout;
        self
    }

    /// Sends `line`, first waiting out what is left of the pause after the engine's last move.
    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        if let Some(moved_at) = self.moved_at.take() {
            let ready_at = moved_at + self.settle;
            let now = Instant::now();
            if ready_at > now {
                std::thread::sleep(ready_at - now);
            }
        }
        Ok(self.process.send(line)?)
    }
}

/// The clock for one move of `move_time`: no main time and an overtime period of the move
/// time (in whole seconds, as the protocol counts overtime), many periods left. An engine that
/// divides its main time by the moves it expects (OpenTafl plans a 200th of it early in an
/// 11x11 game) would otherwise think a fraction of the time meant.
fn clock_line(move_time: Duration) -> String {
    let seconds = move_time.as_millis().div_ceil(1000).max(1);
    format!("clock 0 0 {seconds} {OVERTIME_PERIODS} {OVERTIME_PERIODS}")
}

/// Reads up to `hello`, skipping what an engine logs before it (a bounded number of lines).
fn await_hello(process: &mut Process, command: &str) -> Result<(), PlayerError> {
    let deadline = Instant::now() + HELLO_TIMEOUT;
    for skipped in 0..=MAX_LINES_BEFORE_HELLO {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = process.receive(left)?;
        if line.trim() == "hello" {
            if skipped > 0 {
                tracing::debug!(engine = command, skipped, "lines before hello skipped");
            }
            return Ok(());
        }
    }
    Err(PlayerError::Protocol {
        engine: command.to_string(),
        detail: format!("no hello in its first {MAX_LINES_BEFORE_HELLO} lines"),
    })
}

impl Player for OtepPlayer {
    fn name(&self) -> String {
        format!("otep:{}", self.process.name)
    }

    fn start(&mut self, game: &Game) -> Result<(), PlayerError> {
        self.pending = None;
        self.send(&format!("rules {}", rules_from_here(game)))?;
        Ok(())
    }

    fn opponent_moved(&mut self, _game: &Game, mv: Move) -> Result<(), PlayerError> {
        self.pending = Some(mv);
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        if let Some(mv) = self.pending.take() {
            self.send(&format!(
                "opponent-move {mv} {}",
                game.position().to_opentafl()
            ))?;
        }
        self.send(&format!("play {}", game.side_to_move()))?;
        self.send(&clock_line(self.move_time))?;
        let asked = Instant::now();
        self.think = None;
        let timeout = self
            .timeout
            .unwrap_or(self.move_time * 10 + Duration::from_secs(5));
        loop {
            let line = self.process.receive(timeout)?;
            let line = line.trim();
            if let Some(text) = line.strip_prefix("move ") {
                self.moved_at = Some(Instant::now());
                self.think = Some(asked.elapsed());
                return Move::parse(text, game.rules().dim()).map_err(|e| PlayerError::Protocol {
                    engine: self.process.name.clone(),
                    detail: format!("unreadable move {text:?}: {e}"),
                });
            }
            if line.starts_with("error -1") {
                return Err(PlayerError::Protocol {
                    engine: self.process.name.clone(),
                    detail: line.to_string(),
                });
            }
        }
    }

    fn last_think(&self) -> Option<Duration> {
        self.think
    }

    fn accepted(&mut self, game: &Game) -> Result<(), PlayerError> {
        self.send(&format!("move {}", game.position().to_opentafl()))
    }

    fn finish(&mut self, game: &Game) {
        let code = match game.outcome() {
            None => 0,
            Some(Outcome::Draw { .. }) => 1,
            Some(Outcome::Win {
                winner: Side::Attackers,
                ..
            }) => 2,
            Some(Outcome::Win {
                winner: Side::Defenders,
                ..
            }) => 3,
        };
        let _ = self.send(&format!("finish {code}"));
    }
}

impl Drop for OtepPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("goodbye");
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_clock_gives_one_overtime_period_of_the_move_time_rounded_up_to_seconds() {
        assert_eq!(clock_line(Duration::from_millis(1000)), "clock 0 0 1 99 99");
        assert_eq!(clock_line(Duration::from_millis(1500)), "clock 0 0 2 99 99");
        assert_eq!(clock_line(Duration::from_millis(10)), "clock 0 0 1 99 99");
    }
}
