//! `tafl legal`: the legal moves of a position, one per line.

use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use tafl_engine::{Game, Square};

use super::GameSource;

#[derive(Debug, Args)]
pub struct LegalArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// Only the moves of the piece on this square.
    #[arg(long)]
    pub from: Option<String>,
}

pub fn run(args: LegalArgs) -> anyhow::Result<ExitCode> {
    let (rules, position) = args.game.load()?;
    let dim = rules.dim();
    let game = Game::from_position(rules, position);
    let moves = match &args.from {
        Some(text) => {
            let from = Square::parse(text, dim).context("bad --from")?;
            game.legal_moves_from(from)
        }
        None => game.legal_moves(),
    };
    for mv in &moves {
        super::outln!("{mv}");
    }
    Ok(ExitCode::SUCCESS)
}
