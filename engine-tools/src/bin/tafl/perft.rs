//! `tafl perft`: counts move sequences, optionally split by first move.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use tafl_engine::perft::{divide, perft};

use super::GameSource;

#[derive(Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// Plies to count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub depth: u32,
    /// Print the count under each first move.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let (rules, position) = args.game.load()?;
    let started = Instant::now();
    let total = if args.divide {
        let split = divide(&rules, &position, args.depth);
        for (mv, count) in &split {
            super::outln!("{mv}: {count}");
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        perft(&rules, &position, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    super::outln!("perft({}) = {total}", args.depth);
    eprintln!(
        "{seconds:.3} s, {:.1} M leaves/s",
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(ExitCode::SUCCESS)
}
