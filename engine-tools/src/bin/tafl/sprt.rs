//! `tafl sprt`: an engine change (A) against a baseline (B: a level of an older build behind
//! the engine protocol, or the same binary with other settings), game pairs on paired
//! openings until the SPRT decides (`tafl_tools::sprt`); after each pair the LLR and its
//! bounds, at the end the verdict with the Elo estimate and its 95% interval.

use std::process::ExitCode;

use clap::Args;
use tafl_tools::matches::{Entrant, opening_book};
use tafl_tools::sprt::{SprtEvent, SprtPlan, run_sprt};
use tafl_tools::stats::{Results, Sprt, SprtStatus};

use super::RulesSource;
use super::interrupt::stop_flag;
use super::match_runner::finish;
use super::players::{BudgetArgs, GameArgs, SideArgs, command_line, report_game, settings};

#[derive(Debug, Args)]
pub struct SprtArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// The change: a level (5, 5t2), otep:COMMAND or htp:COMMAND, optionally NAME= before it
    /// and @time-ms=N,nodes=N,threads=N after it.
    #[arg(long)]
    pub a: Entrant,
    /// The baseline, as --a (e.g. "otep:/path/to/old/tafl engine --move-time-ms 1000").
    #[arg(long)]
    pub b: Entrant,
    #[command(flatten)]
    pub sides: SideArgs,
    /// H0: the change is worth this many Elo (logistic).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub elo0: f64,
    /// H1: the change is worth this many Elo.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Stop undecided after this many games (the book holds half as many openings).
    #[arg(long, default_value_t = 1000)]
    pub max_games: usize,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub games: GameArgs,
}

pub fn run(args: SprtArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    let test = Sprt::new(args.elo0, args.elo1, args.alpha, args.beta)?;
    let (a, b) = args.sides.apply(&args.a, &args.b)?;
    let stop = stop_flag()?;
    let settings = settings(
        &args.budget,
        &args.games,
        args.max_games.div_ceil(2),
        0,
        stop,
    );
    let book = opening_book(&rules, &settings);
    if book.len() < settings.openings {
        eprintln!(
            "note: only {} distinct openings of {} plies; they are played again in turn",
            book.len(),
            settings.book_plies
        );
    }
    super::outln!(
        "SPRT of A = {a} ({}) against B = {b} ({}): H0 Elo {} against H1 Elo {}, alpha {}, beta {}; bounds {:.2} and {:.2}",
        a.budget(&settings.budget).describe(),
        b.budget(&settings.budget).describe(),
        test.elo0,
        test.elo1,
        test.alpha,
        test.beta,
        test.lower_bound(),
        test.upper_bound()
    );
    let plan = SprtPlan {
        test,
        max_games: args.max_games,
    };
    let mut lines = Vec::new();
    let outcome = run_sprt(&rules, &book, &a, &b, &settings, &plan, &mut |event| {
        match event {
            SprtEvent::Game(game) => report_game(game),
            SprtEvent::Pair(progress) => lines.push(format!(
                "pairs {} (games {}): pentanomial {} LLR {:.2} ({:.2}, {:.2})",
                progress.pairs,
                progress.games,
                counts(&progress.pentanomial),
                progress.llr,
                test.lower_bound(),
                test.upper_bound()
            )),
        }
        // Each pair's line as soon as it is known.
        for line in lines.drain(..) {
            println!("{line}");
        }
    })?;
    let progress = outcome.progress;
    let verdict = match progress.status {
        SprtStatus::Continue if outcome.tally.interrupted => "inconclusive (stopped)".to_string(),
        SprtStatus::Continue => format!("inconclusive at {} games", progress.games),
        status => status.to_string(),
    };
    super::outln!(
        "verdict: {verdict}; LLR {:.2} ({:.2}, {:.2}) after {} pairs, {} games",
        progress.llr,
        test.lower_bound(),
        test.upper_bound(),
        progress.pairs,
        progress.games
    );
    match outcome.estimate {
        Some(estimate) => super::outln!("Elo of A over B: {estimate} from the pairs"),
        None => super::outln!("Elo of A over B: no complete pair"),
    }
    super::outln!("A over B: {}", outcome.tally.summary());
    for line in outcome.tally.breakdown(&a.name, &b.name) {
        super::outln!("  {line}");
    }
    for line in outcome.tally.refused.iter().chain(&outcome.tally.failed) {
        super::outln!("  apart: {line}");
    }
    super::outln!("command: {}", command_line());
    finish(&outcome.tally)
}

/// Pair counts from 0 to 2 points: `[LL LD WL+DD DW WW]` as fishtest prints them.
fn counts(results: &Results) -> String {
    let counts: Vec<String> = results.counts().iter().map(ToString::to_string).collect();
    format!("[{}]", counts.join(" "))
}
