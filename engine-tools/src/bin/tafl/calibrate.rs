//! `tafl calibrate`: self-play games at a level from a seeded book, then their positions
//! searched as an analysis would and binned by the defenders' predicted winning chance, against
//! the defenders' actual score in those games (docs/ai.md, "Analysis").

use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use tafl_engine::ai::analysis::calibrate;
use tafl_engine::ai::{Level, SearchLimits, selfplay};

use super::RulesSource;

#[derive(Debug, Args)]
pub struct CalibrateArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// Self-play games (each opening of the book played once).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// The level both sides play at.
    #[arg(long, default_value = "4")]
    pub level: Level,
    /// Multiply the level's time and node budgets by this (quicker games).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f64,
    /// Seed of the opening book.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies in each opening.
    #[arg(long, default_value_t = 2)]
    pub book_plies: u32,
    /// Games still going after this many plies count as draws.
    #[arg(long, default_value_t = 200)]
    pub max_plies: u32,
    /// Search time per sampled position, in milliseconds.
    #[arg(long, default_value_t = 100)]
    pub ms_per_position: u64,
    /// Sample every Nth position, from the first after the opening.
    #[arg(long, default_value_t = 4)]
    pub every: u32,
}

pub fn run(args: CalibrateArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    if !(args.scale.is_finite() && args.scale > 0.0) {
        anyhow::bail!("--scale must be a number above 0, not {}", args.scale);
    }
    let mut limits = args.level.limits();
    limits.time = limits.time.map(|t| t.mul_f64(args.scale));
    limits.nodes = limits
        .nodes
        .map(|n| ((n as f64) * args.scale).max(100.0) as u64);
    let book = selfplay::opening_book(&rules, args.book_plies, args.games, args.seed);
    let mut games = Vec::with_capacity(book.len());
    for (i, opening) in book.iter().enumerate() {
        let game = selfplay::play_game(
            &rules,
            opening,
            &limits,
            &limits,
            args.max_plies,
            args.seed ^ i as u64,
        );
        eprintln!(
            "game {}/{}: {} plies, {}",
            i + 1,
            book.len(),
            game.ply(),
            game.outcome()
                .map_or_else(|| "unfinished".to_owned(), |o| o.describe())
        );
        games.push(game);
    }
    let search = SearchLimits::time(Duration::from_millis(args.ms_per_position)).with_table_mib(64);
    let bins = calibrate(&games, args.book_plies, args.every, &search);
    super::outln!("| predicted (defenders) | positions | mean predicted | observed score |");
    super::outln!("|---|---|---|---|");
    for bin in &bins {
        super::outln!(
            "| {:.0}-{:.0}% | {} | {:.1}% | {:.1}% |",
            bin.from,
            bin.to,
            bin.positions,
            bin.predicted,
            bin.observed
        );
    }
    Ok(ExitCode::SUCCESS)
}
