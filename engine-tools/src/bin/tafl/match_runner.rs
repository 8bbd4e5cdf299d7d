//! `tafl match`: paired games between two players (our levels or external engines), each with
//! its own budget if wanted, our engine refereeing (`tafl_tools::matches`); prints W/L/D, the
//! score with a 95% interval and the Elo from the pairs, each player's results by side and the
//! games by how they ended (also when stopped by Ctrl-C); writes every game as .otg.

use std::process::ExitCode;

use clap::Args;
use tafl_tools::matches::{
    Entrant, PlayedGame, Tally, ladder_pairings, level_entrant, opening_book, run_pairing,
};

use super::RulesSource;
use super::interrupt::{INTERRUPTED, stop_flag};
use super::players::{BudgetArgs, GameArgs, SideArgs, report_game, settings};

#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// First player: a level (1-5 or its name), a level on N search threads (5t2),
    /// otep:COMMAND or htp:COMMAND; optionally NAME= before it and
    /// @time-ms=N,nodes=N,threads=N after it.
    #[arg(long, required_unless_present = "ladder")]
    pub a: Option<Entrant>,
    /// Second player, as --a.
    #[arg(long, required_unless_present = "ladder")]
    pub b: Option<Entrant>,
    #[command(flatten)]
    pub sides: SideArgs,
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
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub games: GameArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    let stop = stop_flag()?;
    let settings = settings(
        &args.budget,
        &args.games,
        args.openings,
        args.skip_openings,
        stop,
    );
    let book = opening_book(&rules, &settings);
    if book.len() < settings.openings {
        eprintln!(
            "note: only {} distinct openings of {} plies",
            book.len(),
            settings.book_plies
        );
    }
    let mut on_game = |game: &PlayedGame| report_game(game);
    if args.ladder {
        super::outln!("| level | against | games | won | lost | drawn | score | 95% interval |");
        super::outln!("|---|---|---|---|---|---|---|---|");
        for (level, below) in ladder_pairings() {
            let (a, b) = args
                .sides
                .apply(&level_entrant(level), &level_entrant(below))?;
            let tally = run_pairing(&rules, &book, &a, &b, &settings, &mut on_game)?;
            super::outln!(
                "| {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                level.number(),
                below.number(),
                tally.scored(),
                tally.wins(),
                tally.losses(),
                tally.draws(),
                100.0 * tally.score(),
                tally
                    .interval()
                    .map_or("n/a".into(), |h| format!("±{:.1}%", 100.0 * h))
            );
            if tally.interrupted || tally.aborted.is_some() {
                return finish(&tally);
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(a), Some(b)) = (&args.a, &args.b) else {
        anyhow::bail!("say --a and --b, or --ladder");
    };
    let (a, b) = args.sides.apply(a, b)?;
    let tally = run_pairing(&rules, &book, &a, &b, &settings, &mut on_game)?;
    super::outln!(
        "A = {a} ({}), B = {b} ({}): {}",
        a.budget(&settings.budget).describe(),
        b.budget(&settings.budget).describe(),
        tally.summary()
    );
    for line in tally.breakdown(&a.name, &b.name) {
        super::outln!("  {line}");
    }
    for line in tally.refused.iter().chain(&tally.failed) {
        super::outln!("  apart: {line}");
    }
    for line in &tally.adjudicated {
        super::outln!("  adjudicated: {line}");
    }
    finish(&tally)
}

/// The exit status: 130 when stopped by Ctrl-C, 1 when the pairing could not go on.
pub fn finish(tally: &Tally) -> anyhow::Result<ExitCode> {
    if let Some(reason) = &tally.aborted {
        super::outln!("stopped early: {reason}");
        return Ok(ExitCode::FAILURE);
    }
    if tally.interrupted {
        super::outln!("stopped by Ctrl-C: the summary counts the games finished before it");
        return Ok(ExitCode::from(INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}
