//! Driving an external engine through the OpenTafl Engine Protocol, as OpenTafl does.

use std::time::Duration;

use tafl_engine::{Game, Move, Outcome, Side};

use super::player::{Player, PlayerError};
use super::process::Process;

pub struct OtepPlayer {
    process: Process,
    move_time: Duration,
    pending: Option<Move>,
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
    pub fn spawn(command: &str, move_time: Option<Duration>) -> Result<OtepPlayer, PlayerError> {
        let mut process = Process::spawn(command)?;
        let hello = process.receive(Duration::from_secs(5))?;
        if hello.trim() != "hello" {
            return Err(PlayerError::Protocol {
                engine: command.to_string(),
                detail: format!("expected hello, got {hello:?}"),
            });
        }
        Ok(OtepPlayer {
            process,
            move_time: move_time.unwrap_or(Duration::from_secs(1)),
            pending: None,
        })
    }
}

impl Player for OtepPlayer {
    fn name(&self) -> String {
        format!("otep:{}", self.process.name)
    }

    fn start(&mut self, game: &Game) -> Result<(), PlayerError> {
        self.pending = None;
        self.process
            .send(&format!("rules {}", rules_from_here(game)))?;
        Ok(())
    }

    fn opponent_moved(&mut self, _game: &Game, mv: Move) -> Result<(), PlayerError> {
        self.pending = Some(mv);
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        if let Some(mv) = self.pending.take() {
            self.process.send(&format!(
                "opponent-move {mv} {}",
                game.position().to_opentafl()
            ))?;
        }
        self.process
            .send(&format!("play {}", game.side_to_move()))?;
        let ms = self.move_time.as_millis();
        self.process
            .send(&format!("clock {} {} 0 0 0", ms * 40, ms * 40))?;
        let timeout = self.move_time * 10 + Duration::from_secs(5);
        loop {
            let line = self.process.receive(timeout)?;
            let line = line.trim();
            if let Some(text) = line.strip_prefix("move ") {
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

    fn accepted(&mut self, game: &Game) -> Result<(), PlayerError> {
        self.process
            .send(&format!("move {}", game.position().to_opentafl()))?;
        Ok(())
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
        let _ = self.process.send(&format!("finish {code}"));
    }
}

impl Drop for OtepPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("goodbye");
    }
}
