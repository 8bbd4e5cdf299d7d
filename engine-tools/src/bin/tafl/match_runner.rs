//! `tafl match`: paired games between two players (our levels or external engines), our
//! engine refereeing (`tafl_tools::matches`); prints W/L/D and the score with a 95% interval,
//! writes every game as .otg.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use tafl_tools::matches::{MatchSettings, PlayedGame, ladder_pairings, opening_book, run_pairing};
use tafl_tools::protocol::player::{MoveBudget, PlayerSpec};

use super::RulesSource;

#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// First player: a level (1-5 or its name), a level on N search threads (5t2),
    /// otep:COMMAND (OpenTafl engine protocol) or htp:COMMAND (hnefatafl text protocol).
    #[arg(long, required_unless_present = "ladder")]
    pub a: Option<PlayerSpec>,
    /// Second player, as --a.
    #[arg(long, required_unless_present = "ladder")]
    pub b: Option<PlayerSpec>,
    /// Instead of --a/--b: every level against the one below it, as a table.
    #[arg(long)]
    pub ladder: bool,
    /// Openings (each played twice, once from each side).
    #[arg(long, default_value_t = 4)]
    pub openings: usize,
    /// Skip the first N openings of the book (to resume a match cut short, or to split one
    /// across processes: the book depends only on --seed, --openings and --book-plies).
    #[arg(long, default_value_t = 0)]
    pub skip_openings: usize,
    /// Random plies in each opening.
    #[arg(long, default_value_t = 2)]
    pub book_plies: u32,
    /// Seed of the opening book and of the levels' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fixed time per move (overrides the levels' budgets).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Fixed nodes per move (overrides the levels' budgets).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Multiply the levels' own budgets by this factor (quick matches).
    #[arg(long)]
    pub scale: Option<f64>,
    /// How long an otep: engine is left alone after it moves before it is told anything
    /// (OpenTafl applies its own move only after announcing it).
    #[arg(long, default_value_t = 500)]
    pub engine_settle_ms: u64,
    /// Games still going after this many plies are scored as draws.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Directory for the .otg records.
    #[arg(long, default_value = "match-games")]
    pub out: PathBuf,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    let settings = MatchSettings {
        openings: args.openings,
        skip_openings: args.skip_openings,
        book_plies: args.book_plies,
        seed: args.seed,
        budget: MoveBudget {
            time: args.time_ms.map(Duration::from_millis),
            nodes: args.nodes,
            scale: args.scale,
            engine_settle: Some(Duration::from_millis(args.engine_settle_ms)),
        },
        max_plies: args.max_plies,
        out: args.out,
    };
    let book = opening_book(&rules, &settings);
    if book.len() < settings.openings {
        eprintln!(
            "note: only {} distinct openings of {} plies",
            book.len(),
            settings.book_plies
        );
    }
    let mut on_game = |game: &PlayedGame| {
        eprintln!(
            "{}: {} after {} plies -> {}",
            game.label,
            game.result,
            game.plies,
            game.file.display()
        );
    };
    if args.ladder {
        super::outln!("| level | against | games | won | lost | drawn | score | 95% interval |");
        super::outln!("|---|---|---|---|---|---|---|---|");
        for (level, below) in ladder_pairings() {
            let tally = run_pairing(
                &rules,
                &book,
                &PlayerSpec::Level(level),
                &PlayerSpec::Level(below),
                &settings,
                &mut on_game,
            )?;
            super::outln!(
                "| {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                level.number(),
                below.number(),
                tally.games(),
                tally.wins,
                tally.losses,
                tally.draws,
                100.0 * tally.score(),
                tally
                    .interval()
                    .map_or("n/a".into(), |h| format!("±{:.1}%", 100.0 * h))
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(a), Some(b)) = (&args.a, &args.b) else {
        anyhow::bail!("say --a and --b, or --ladder");
    };
    let tally = run_pairing(&rules, &book, a, b, &settings, &mut on_game)?;
    super::outln!("A = {a}, B = {b}: {}", tally.summary());
    for line in tally.refused.iter().chain(&tally.failed) {
        super::outln!("  apart: {line}");
    }
    for line in &tally.adjudicated {
        super::outln!("  adjudicated: {line}");
    }
    Ok(ExitCode::SUCCESS)
}
