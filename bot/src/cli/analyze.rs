//! `taflbot analyze`: every ply of a game judged by the search (winning chance before and
//! after, the better move and its line, forced results, marks), one JSON line per ply, then a
//! summary with each side's accuracy, the worst moves and the wall time.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;
use tafl_engine::Game;
use tafl_engine::ai::analysis::{self, PlyAnalysis};
use tafl_engine::ai::{SearchLimits, available_threads, selfplay};

use super::GameSource;
use crate::service::{PlyView, analysis_chart};

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// A game record (.otg) to analyse.
    #[arg(long, conflicts_with_all = ["variant", "rules", "moves", "selfplay_plies"])]
    pub otg: Option<PathBuf>,
    #[command(flatten)]
    pub game: GameSource,
    /// The game's moves from the position, e.g. "a4-a3 d3-c3".
    #[arg(long, conflicts_with = "selfplay_plies")]
    pub moves: Option<String>,
    /// Instead of a record: a game of this many plies played by a quick search from a seeded
    /// opening (the benchmark's game).
    #[arg(long)]
    pub selfplay_plies: Option<u32>,
    /// Seed of the self-played game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search time per position, in milliseconds.
    #[arg(long, default_value_t = 500)]
    pub ms_per_ply: u64,
    /// Also draw the chart of the winning chance (PNG) to this file.
    #[arg(long)]
    pub chart: Option<PathBuf>,
    /// The chart's theme: light or dark.
    #[arg(long, default_value = "light")]
    pub theme: tafl_render::Theme,
    /// Search threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: Option<u32>,
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let game = load(&args)?;
    let threads = args.threads.map_or_else(available_threads, |t| t as usize);
    let limits = SearchLimits::time(Duration::from_millis(args.ms_per_ply)).with_threads(threads);
    let started = Instant::now();
    // Each ply is printed as it is judged; a closed output ends the command after the search.
    let mut output_error = None;
    let plies = analysis::analyse(&game, &limits, &mut |ply: &PlyAnalysis| {
        if output_error.is_none()
            && let Err(e) = writeln!(std::io::stdout().lock(), "{}", ply_line(ply))
        {
            output_error = Some(e);
        }
    });
    if let Some(e) = output_error {
        return Err(e.into());
    }
    let wall = started.elapsed();
    let summary = analysis::summarize(&plies);
    if let Some(path) = &args.chart {
        let views: Vec<PlyView> = plies.iter().map(PlyView::of).collect();
        let png = analysis_chart(&views, &format!("{} plies", game.ply()), args.theme)?;
        std::fs::write(path, png).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let line = serde_json::json!({
        "summary": summary,
        "plies": plies.len(),
        "ms_per_ply": args.ms_per_ply,
        "threads": threads,
        "wall_ms": wall.as_millis() as u64,
    });
    super::outln!("{line}");
    Ok(ExitCode::SUCCESS)
}

fn ply_line(ply: &PlyAnalysis) -> serde_json::Value {
    serde_json::json!({
        "ply": ply.ply,
        "side": ply.side.to_string(),
        "played": ply.played.to_string(),
        "mark": ply.mark,
        "before": (ply.before.defenders() * 10.0).round() / 10.0,
        "after": (ply.after.defenders() * 10.0).round() / 10.0,
        "best": ply.best.map(|m| m.to_string()),
        "line": ply.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "forced": ply.forced.as_ref().map(|f| f.describe()),
    })
}

fn load(args: &AnalyzeArgs) -> anyhow::Result<Game> {
    if let Some(path) = &args.otg {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let (game, _tags) = tafl_engine::otg::read(&text)
            .with_context(|| format!("{} is not a readable game record", path.display()))?;
        return Ok(game);
    }
    let (rules, position) = args.game.load()?;
    if let Some(plies) = args.selfplay_plies {
        let opening = selfplay::opening_book(&rules, 2, 1, args.seed)
            .into_iter()
            .next()
            .unwrap_or_default();
        let quick = SearchLimits::nodes(3_000).with_table_mib(4);
        let game = selfplay::play_game(&rules, &opening, &quick, &quick, plies, args.seed);
        if game.ply() < plies {
            eprintln!(
                "note: the self-played game ended after {} plies",
                game.ply()
            );
        }
        return Ok(game);
    }
    let mut game = Game::from_position(rules, position);
    let Some(moves) = &args.moves else {
        bail!("say which game: --otg FILE, --moves \"...\" or --selfplay-plies N");
    };
    for (i, text) in moves.split_whitespace().enumerate() {
        game.play_str(text)
            .with_context(|| format!("--moves: move {} ({text:?})", i + 1))?;
    }
    Ok(game)
}
