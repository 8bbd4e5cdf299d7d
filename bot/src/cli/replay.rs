//! `taflbot replay`: plays moves and prints the referee's answer to each as one JSON line.

use std::process::ExitCode;

use clap::Args;
use serde_json::json;
use tafl_engine::{Game, Move};

use super::GameSource;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// Moves in notation: e5-e8, e5 e8 (quoted), e5e8...
    pub moves: Vec<String>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let (rules, position) = args.game.load()?;
    let dim = rules.dim();
    let mut game = Game::from_position(rules, position);
    for (index, text) in args.moves.iter().enumerate() {
        let result = Move::parse(text, dim)
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.to_string()));
        match result {
            Ok(report) => {
                let line = json!({
                    "index": index,
                    "ply": report.ply,
                    "side": report.side,
                    "move": report.notation,
                    "captures": report.captures,
                    "warning": report.warning,
                    "outcome": report.outcome,
                    "position": game.position().to_opentafl(),
                    "to_move": game.side_to_move(),
                });
                super::outln!("{line}");
            }
            Err(reason) => {
                let line = json!({"error": {"index": index, "move": text, "reason": reason}});
                super::outln!("{line}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
