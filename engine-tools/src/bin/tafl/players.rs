//! Arguments shared by `match`, `sprt` and `rating-list`: each side's own budget, the shared
//! budget, and how games are played and recorded.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use tafl_tools::matches::{Entrant, MatchSettings, SideBudget};
use tafl_tools::protocol::player::MoveBudget;

/// A and B's own budgets (they replace the shared --time-ms/--nodes for that side).
#[derive(Debug, Args)]
pub struct SideArgs {
    /// A's time per move in milliseconds (an external engine's clock).
    #[arg(long)]
    pub a_time_ms: Option<u64>,
    /// A's nodes per move (our levels only).
    #[arg(long)]
    pub a_nodes: Option<u64>,
    /// A's search threads (our levels only).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub a_threads: Option<u64>,
    /// B's time per move in milliseconds.
    #[arg(long)]
    pub b_time_ms: Option<u64>,
    /// B's nodes per move.
    #[arg(long)]
    pub b_nodes: Option<u64>,
    /// B's search threads.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub b_threads: Option<u64>,
}

impl SideArgs {
    /// A and B with their flags applied over their specs' own budgets.
    pub fn apply(&self, a: &Entrant, b: &Entrant) -> anyhow::Result<(Entrant, Entrant)> {
        let side = |time_ms, nodes, threads: Option<u64>| SideBudget {
            time_ms,
            nodes,
            threads: threads.map(|t| t as usize),
        };
        Ok((
            a.with_budget(&side(self.a_time_ms, self.a_nodes, self.a_threads))?,
            b.with_budget(&side(self.b_time_ms, self.b_nodes, self.b_threads))?,
        ))
    }
}

/// The budget both sides share, and the host's patience with external engines.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Time per move for both sides (overrides the levels' budgets; a side's own wins).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Nodes per move for both sides (overrides the levels' budgets; a side's own wins).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Multiply the levels' own budgets by this factor (quick matches).
    #[arg(long)]
    pub scale: Option<f64>,
    /// How long an otep: engine is left alone after it moves before it is told anything
    /// (OpenTafl applies its own move only after announcing it).
    #[arg(long, default_value_t = 500)]
    pub engine_settle_ms: u64,
    /// How long an external engine may take over a move before it loses on time and is
    /// restarted (default: ten move times and 5 s for otep:, 30 minutes for htp:).
    #[arg(long)]
    pub engine_timeout_ms: Option<u64>,
}

/// How games are played and recorded.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// Random plies in each opening.
    #[arg(long, default_value_t = 2)]
    pub book_plies: u32,
    /// Seed of the opening book and of the levels' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games still going after this many plies are scored as draws.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Directory for the .otg records.
    #[arg(long, default_value = "match-games")]
    pub out: PathBuf,
}

/// The match settings for `openings` openings after `skip` skipped ones.
pub fn settings(
    budget: &BudgetArgs,
    games: &GameArgs,
    openings: usize,
    skip_openings: usize,
    stop: Arc<AtomicBool>,
) -> MatchSettings {
    MatchSettings {
        openings,
        skip_openings,
        book_plies: games.book_plies,
        seed: games.seed,
        budget: MoveBudget {
            time: budget.time_ms.map(Duration::from_millis),
            nodes: budget.nodes,
            threads: None,
            scale: budget.scale,
            engine_settle: Some(Duration::from_millis(budget.engine_settle_ms)),
            engine_timeout: budget.engine_timeout_ms.map(Duration::from_millis),
            stop: Some(stop),
        },
        max_plies: games.max_plies,
        out: games.out.clone(),
    }
}

/// The command line that was run, quoted so it can be pasted back.
pub fn command_line() -> String {
    std::env::args()
        .map(|arg| {
            if !arg.is_empty()
                && arg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@+".contains(c))
            {
                arg
            } else {
                format!("'{}'", arg.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One line per game as it ends: how, after how many plies, the mean think time, the record.
pub fn report_game(game: &tafl_tools::matches::PlayedGame) {
    let mean_ms = |a: bool| {
        let times: Vec<f64> = game
            .think
            .iter()
            .filter(|(side, _)| (*side == game.a_side) == a)
            .map(|(_, time)| time.as_secs_f64() * 1000.0)
            .collect();
        times.iter().sum::<f64>() / times.len().max(1) as f64
    };
    eprintln!(
        "{}: {} after {} plies (mean think A {:.0} ms, B {:.0} ms) -> {}",
        game.label,
        game.result,
        game.plies,
        mean_ms(true),
        mean_ms(false),
        game.file.display()
    );
    for name in &game.restarted {
        eprintln!("  {name} restarted (a fresh process) before the next game");
    }
}
