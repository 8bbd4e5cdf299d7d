//! `tafl engine`: our AI behind the OpenTafl Engine Protocol on standard input and output.

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use tafl_tools::protocol::engine::OtepEngine;

#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Longest think per move in milliseconds (a fortieth of the clock is used when shorter).
    #[arg(long, default_value_t = 2000)]
    pub move_time_ms: u64,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash_mib: u32,
    /// Search threads per move (an analysis uses every core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
}

pub fn run(args: EngineArgs) -> anyhow::Result<ExitCode> {
    let mut engine = OtepEngine::new(
        Some(Duration::from_millis(args.move_time_ms)),
        args.hash_mib as usize,
    )
    .with_threads(args.threads as usize);
    let stdin = std::io::stdin();
    engine.run(stdin.lock(), std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}
