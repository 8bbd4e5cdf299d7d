//! `hnefatafl-basic-htp [DEPTH]`: the hnefatafl text protocol on stdin/stdout, answered by the
//! hnefatafl-copenhagen library, with `generate_move` answered by its `basic` AI (default
//! depth 4, as `hnefatafl-text-protocol` uses) as `= play ROLE FROM TO` and nothing more.

use std::io::{self, BufRead, Write};

use hnefatafl_copenhagen::ai::{AI, AiBasic};
use hnefatafl_copenhagen::game::Game;

fn main() -> io::Result<()> {
    let depth = match std::env::args().nth(1) {
        Some(text) => match text.parse::<u8>() {
            Ok(depth) if depth > 0 => depth,
            _ => {
                eprintln!("usage: hnefatafl-basic-htp [DEPTH]  (DEPTH: 1-255, default 4)");
                std::process::exit(2);
            }
        },
        None => 4,
    };
    let mut game = Game::default();
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let reply = match line.split_whitespace().next() {
            Some("quit") => return Ok(()),
            Some("generate_move") => {
                let mut ai = AiBasic::new(depth, true);
                match ai.generate_move(&mut game) {
                    Ok(generated) => format!("= {}", generated.play),
                    Err(error) => format!("? {error}"),
                }
            }
            _ => match game.read_line(&line) {
                Ok(Some(message)) => format!("= {message}"),
                Ok(None) => continue,
                Err(error) => format!("? {error}"),
            },
        };
        writeln!(out, "{reply}\n")?;
        out.flush()?;
    }
    Ok(())
}
