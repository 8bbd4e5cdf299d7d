//! `tafl bestmove`: the AI's move for a position, as one JSON line.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use tafl_engine::Game;
use tafl_engine::ai::{Level, SearchLimits, search};

use super::GameSource;

#[derive(Debug, Args)]
pub struct BestmoveArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// Moves played from the position before searching (repetition is then known), e.g. "a4-a3 d3-c3".
    #[arg(long)]
    pub moves: Option<String>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// How long to think: a level, or explicit budgets (which override the level's).
#[derive(Debug, Clone, Args)]
pub struct BudgetArgs {
    /// Playing level 1 (beginner) to 5 (strongest), or its name.
    #[arg(long)]
    pub level: Option<Level>,
    /// Time budget per move in milliseconds.
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Node budget per move (deterministic with --seed when no time limit is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Deepest iteration in plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Seed of the random choice of the weaker levels.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search threads (default: the level's own, one without a level).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: Option<u32>,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash_mib: Option<u32>,
}

impl BudgetArgs {
    pub fn limits(&self) -> SearchLimits {
        let explicit = self.time_ms.is_some() || self.nodes.is_some() || self.depth.is_some();
        let mut limits = match self.level {
            Some(level) => level.limits(),
            None => SearchLimits::default(),
        };
        if explicit {
            limits.time = self.time_ms.map(Duration::from_millis);
            limits.nodes = self.nodes;
            limits.depth = self.depth;
        }
        limits.seed = self.seed;
        if let Some(threads) = self.threads {
            limits = limits.with_threads(threads as usize);
        }
        if let Some(mib) = self.hash_mib {
            limits.table_mib = mib as usize;
        }
        limits
    }
}

pub fn run(args: BestmoveArgs) -> anyhow::Result<ExitCode> {
    let (rules, position) = args.game.load()?;
    let mut game = Game::from_position(rules, position);
    if let Some(moves) = &args.moves {
        for (i, text) in moves.split_whitespace().enumerate() {
            game.play_str(text)
                .with_context(|| format!("--moves: move {} ({text:?})", i + 1))?;
        }
    }
    let limits = args.budget.limits();
    let Some(result) = search(&game, &limits) else {
        match game.outcome() {
            Some(outcome) => bail!("the game is over: {}", outcome.describe()),
            None => bail!("no move to search"),
        }
    };
    let line = serde_json::json!({
        "move": result.best_move.to_string(),
        "score": result.score,
        "mate_in": result.mate_in,
        "depth": result.depth,
        "nodes": result.nodes,
        "time_ms": result.elapsed.as_millis() as u64,
        "nps": (result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-6)) as u64,
        "pv": result.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
    });
    super::outln!("{line}");
    Ok(ExitCode::SUCCESS)
}
