//! Driving an external engine through the hnefatafl text protocol (`hnefatafl-text-protocol`
//! of the hnefatafl-copenhagen crate, after the Go Text Protocol): `play ROLE FROM TO`,
//! `generate_move`, answers `= ...` or `? error`. It plays Copenhagen on 11x11.

use std::time::Duration;

use anyhow::anyhow;
use tafl_engine::{Game, Move, Side, Square};

use super::player::{Player, PlayerError, Process};

pub struct HtpPlayer {
    command: String,
    process: Process,
    move_time: Duration,
}

fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "a",
        Side::Defenders => "d",
    }
}

impl HtpPlayer {
    pub fn spawn(command: &str, move_time: Option<Duration>) -> anyhow::Result<HtpPlayer> {
        Ok(HtpPlayer {
            command: command.to_string(),
            process: Process::spawn(command)?,
            move_time: move_time.unwrap_or(Duration::from_secs(60)),
        })
    }

    /// Sends a command and returns the text after `=`, or the error after `?`.
    fn command(&mut self, line: &str, timeout: Duration) -> anyhow::Result<Result<String, String>> {
        self.process.send(line)?;
        loop {
            let reply = self.process.receive(timeout)?;
            let reply = reply.trim();
            if let Some(ok) = reply.strip_prefix('=') {
                return Ok(Ok(ok.trim().to_string()));
            }
            if let Some(err) = reply.strip_prefix('?') {
                return Ok(Err(err.trim().to_string()));
            }
        }
    }

    fn tell(&mut self, side: Side, mv: Move) -> Result<(), PlayerError> {
        let line = format!("play {} {} {}", role(side), mv.from, mv.to);
        match self.command(&line, Duration::from_secs(10))? {
            Ok(_) => Ok(()),
            Err(reply) => Err(PlayerError::Refused {
                engine: self.name(),
                mv,
                reply,
            }),
        }
    }
}

impl Player for HtpPlayer {
    fn name(&self) -> String {
        format!("htp:{}", self.process.name)
    }

    fn start(&mut self, game: &Game) -> Result<(), PlayerError> {
        // A fresh process per game: some versions have no reset_board.
        self.process = Process::spawn(&self.command)?;
        // The engine knows its own start position; replay the opening on it.
        for report in game.history() {
            self.tell(report.side, report.mv)?;
        }
        Ok(())
    }

    fn opponent_moved(&mut self, game: &Game, mv: Move) -> Result<(), PlayerError> {
        self.tell(game.side_to_move().opponent(), mv)
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let timeout = self.move_time * 10 + Duration::from_secs(180);
        let reply = match self.command("generate_move", timeout)? {
            Ok(reply) => reply,
            Err(e) => return Err(PlayerError::Failed(anyhow!("generate_move: {e}"))),
        };
        // "a d1 d4", or "play defender f8 f9, score: ...": the first two squares.
        let dim = game.rules().dim();
        let squares: Vec<Square> = reply
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter_map(|word| Square::parse(word, dim).ok())
            .take(2)
            .collect();
        let parsed = match squares[..] {
            [from, to] => Some(Move::new(from, to)),
            _ => None,
        };
        match parsed {
            Some(mv) => Ok(mv),
            None => Err(PlayerError::Failed(anyhow!(
                "{}: unreadable generate_move reply {reply:?}",
                self.process.name
            ))),
        }
    }

    fn finish(&mut self, _game: &Game) {}
}

impl Drop for HtpPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}
