//! Driving an external engine through the hnefatafl text protocol (`hnefatafl-text-protocol`
//! of the hnefatafl-copenhagen crate, after the Go Text Protocol): `play ROLE FROM TO`,
//! `generate_move`, answers `= ...` or `? error`. It plays Copenhagen on 11x11 and 13x13 and
//! its own Brandubh on 7x7 (`board_size 7`). After every ply its board is compared with ours
//! and its `final_status` read, since it ends some games by rules of its own.

use std::time::Duration;

use tafl_engine::{Game, Move, Position, Side, Square};

use super::player::{Player, PlayerError, Verdict};
use super::process::{Process, ProcessError};

/// The least time `generate_move` is given before the engine counts as hung.
const GENERATE_MOVE_WAIT: Duration = Duration::from_secs(30 * 60);

pub struct HtpPlayer {
    command: String,
    process: Process,
    move_time: Duration,
    /// How long `generate_move` may take (None: at least `GENERATE_MOVE_WAIT`).
    timeout: Option<Duration>,
}

fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "a",
        Side::Defenders => "d",
    }
}

impl HtpPlayer {
    pub fn spawn(command: &str, move_time: Option<Duration>) -> Result<HtpPlayer, ProcessError> {
        Ok(HtpPlayer {
            command: command.to_string(),
            process: Process::spawn(command)?,
            move_time: move_time.unwrap_or(Duration::from_secs(60)),
            timeout: None,
        })
    }

    /// Waits at most `timeout` for a move (None: ten move times, at least 30 minutes).
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> HtpPlayer {
        self.timeout = timeout;
        self
    }

    /// Sends a command and returns the text after `=`, or the error after `?`.
    fn command(
        &mut self,
        line: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, ProcessError> {
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

    /// Sends a command the engine must accept; a `?` answer is a protocol failure.
    fn expect_ok(&mut self, line: &str, timeout: Duration) -> Result<String, PlayerError> {
        match self.command(line, timeout)? {
            Ok(reply) => Ok(reply),
            Err(e) => Err(self.protocol(format!("{line}: {e}"))),
        }
    }

    fn protocol(&self, detail: String) -> PlayerError {
        PlayerError::Protocol {
            engine: self.process.name.clone(),
            detail,
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
        let dim = game.rules().dim();
        if dim != 11 {
            self.expect_ok(&format!("board_size {dim}"), Duration::from_secs(10))?;
        }
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
        // The protocol has no clock: hnefatafl-copenhagen's depth-4 search takes what it takes
        // (minutes in a crowded middle game on a loaded machine), so the wait is generous.
        let timeout = self
            .timeout
            .unwrap_or((self.move_time * 10).max(GENERATE_MOVE_WAIT));
        let reply = self.expect_ok("generate_move", timeout)?;
        // "play attacker resigns _": hnefatafl-copenhagen gives up a lost game.
        if reply.split_whitespace().any(|word| word == "resigns") {
            return Err(PlayerError::Resigned {
                engine: self.name(),
            });
        }
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
            None => Err(self.protocol(format!("unreadable generate_move reply {reply:?}"))),
        }
    }

    fn verdict(&mut self, game: &Game) -> Result<Option<Verdict>, PlayerError> {
        let timeout = Duration::from_secs(10);
        let board = self.expect_ok("show_board_open_tafl", timeout)?;
        let ours = game.position().to_opentafl();
        if from_top_down_record(&board).as_deref() != Some(ours.as_str()) {
            return Err(PlayerError::Disagrees {
                engine: self.name(),
                ply: game.ply(),
                theirs: board,
                ours,
            });
        }
        let status = self.expect_ok("final_status", timeout)?;
        let winner = match status.as_str() {
            "ongoing" => return Ok(None),
            "attacker_wins" => Some(Side::Attackers),
            "defender_wins" => Some(Side::Defenders),
            "draw" => None,
            other => {
                return Err(self.protocol(format!("final_status: unknown status {other:?}")));
            }
        };
        Ok(Some(Verdict {
            winner,
            said: status,
        }))
    }

    fn finish(&mut self, _game: &Game) {}
}

/// The engine's board (`/3AAAAA3/.../`, top rank first, A attacker, D defender) as our
/// position record (rank 1 first, t, T, K), or None if it is not a board.
fn from_top_down_record(record: &str) -> Option<String> {
    let rows: Vec<String> = record
        .trim()
        .trim_matches('/')
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .map(|c| match c {
                    'A' => 't',
                    'D' => 'T',
                    other => other,
                })
                .collect()
        })
        .collect();
    let ours = format!("/{}/", rows.join("/"));
    // Read back through our own parser, so a malformed record is refused, not compared.
    Position::from_opentafl(&ours, Side::Attackers)
        .ok()
        .map(|position| position.to_opentafl())
}

impl Drop for HtpPlayer {
    fn drop(&mut self) {
        let _ = self.process.send("quit");
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// A fake engine: a shell script answering every command, with `board` as its board.
    fn fake_engine(name: &str, board: &str) -> (HtpPlayer, std::path::PathBuf) {
        let script =
            std::env::temp_dir().join(format!("taflbot-fake-htp-{name}-{}.sh", std::process::id()));
        std::fs::write(
            &script,
            format!(
                "while read line; do case \"$line\" in\n\
                 show_board_open_tafl) echo '= {board}';;\n\
                 final_status) echo '= draw';;\n\
                 generate_move) echo 'thinking...'; echo '= play defender resigns _';;\n\
                 *) echo '= ';;\n\
                 esac; echo; done\n"
            ),
        )
        .unwrap();
        let player = HtpPlayer::spawn(&format!("sh {}", script.display()), None).unwrap();
        (player, script)
    }

    fn brandubh() -> Game {
        Game::new(
            tafl_engine::variant("brandubh-hnefatafl-org")
                .unwrap()
                .rules(),
        )
    }

    #[test]
    fn the_engines_board_reads_top_rank_first() {
        assert_eq!(
            from_top_down_record("/A6/7/7/7/7/7/6D/").as_deref(),
            Some("/6T/7/7/7/7/7/t6/")
        );
        assert_eq!(
            from_top_down_record("/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/").as_deref(),
            Some(brandubh().position().to_opentafl().as_str())
        );
        assert_eq!(from_top_down_record("= nonsense"), None);
    }

    #[test]
    fn a_verdict_and_a_resignation_are_read() {
        let (mut engine, script) = fake_engine("agrees", "/3A3/3A3/3D3/AADKDAA/3D3/3A3/3A3/");
        let game = brandubh();
        engine.start(&game).unwrap();
        assert_eq!(
            engine.verdict(&game).unwrap(),
            Some(Verdict {
                winner: None,
                said: "draw".into()
            })
        );
        assert!(matches!(
            engine.choose(&game),
            Err(PlayerError::Resigned { .. })
        ));
        std::fs::remove_file(script).unwrap();
    }

    #[test]
    fn a_board_that_differs_from_ours_is_reported() {
        let (mut engine, script) = fake_engine("differs", "/3A3/3A3/3D3/AADKD1A/3D3/3A3/3A3/");
        let game = brandubh();
        engine.start(&game).unwrap();
        match engine.verdict(&game) {
            Err(PlayerError::Disagrees { ply, theirs, .. }) => {
                assert_eq!(ply, 0);
                assert!(theirs.contains("AADKD1A"), "{theirs}");
            }
            other => panic!("expected a disagreement, got {other:?}"),
        }
        std::fs::remove_file(script).unwrap();
    }
}
