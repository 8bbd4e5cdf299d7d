//! `tafl replay`: plays moves and prints the referee's answer to each as one JSON line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use serde_json::json;
use tafl_engine::{Game, Move, MoveReport, otg};

use super::GameSource;

#[derive(Debug, Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// An OpenTafl game record (.otg) to replay first: its rules, start position and moves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "rules", "position", "to_move"])]
    pub otg: Option<PathBuf>,
    /// Moves in notation: e5-e8, e5 e8 (quoted), e5e8...
    pub moves: Vec<String>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let (mut game, recorded) = match &args.otg {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let (record, _tags) =
                otg::read(&text).with_context(|| format!("bad game record {}", path.display()))?;
            let moves: Vec<Move> = record.history().iter().map(|r| r.mv).collect();
            let game = Game::start_from(record.rules().clone(), *record.start_position())
                .with_context(|| format!("{} cannot be replayed from its start", path.display()))?;
            (game, moves)
        }
        None => {
            let (rules, position) = args.game.load()?;
            (Game::from_position(rules, position), Vec::new())
        }
    };
    // The record's moves were checked by the reader; replaying them again gives each position.
    for (index, mv) in recorded.iter().enumerate() {
        let report = game
            .play(*mv)
            .with_context(|| format!("move {} of the record", index + 1))?;
        print_report(index, &report, &game)?;
    }
    let dim = game.rules().dim();
    for (offset, text) in args.moves.iter().enumerate() {
        let index = recorded.len() + offset;
        let result = Move::parse(text, dim)
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.to_string()));
        match result {
            Ok(report) => print_report(index, &report, &game)?,
            Err(reason) => {
                let line = json!({"error": {"index": index, "move": text, "reason": reason}});
                super::outln!("{line}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(index: usize, report: &MoveReport, game: &Game) -> anyhow::Result<()> {
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
    Ok(())
}
