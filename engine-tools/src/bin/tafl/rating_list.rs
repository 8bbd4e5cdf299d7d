//! `tafl rating-list`: a round robin (or a gauntlet) of levels and external engines on paired
//! openings, then maximum-likelihood ratings with 95% intervals (`tafl_tools::rating_list`),
//! printed as a table followed by the command and settings that produced it.

use std::process::ExitCode;

use clap::Args;
use tafl_engine::Rules;
use tafl_tools::matches::{Entrant, MatchSettings, opening_book};
use tafl_tools::rating_list::{PairingResult, RatingTable, play_round_robin, rate, schedule};
use tafl_tools::stats::Anchor;

use super::RulesSource;
use super::interrupt::{INTERRUPTED, stop_flag};
use super::players::{BudgetArgs, GameArgs, command_line, report_game, settings};

#[derive(Debug, Args)]
pub struct RatingListArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// A player (give two or more): a level (1-5, 5t2), otep:COMMAND or htp:COMMAND,
    /// optionally NAME= before it and @time-ms=N,nodes=N,threads=N after it.
    #[arg(long = "player", required = true, num_args = 1)]
    pub players: Vec<Entrant>,
    /// Play only this player (by name) against each of the others.
    #[arg(long)]
    pub gauntlet: Option<String>,
    /// Rate this player (by name) 0; by default the ratings' mean is 0.
    #[arg(long)]
    pub anchor: Option<String>,
    /// Virtual draws between every two players who met (BayesElo's prior). By default none,
    /// unless pure maximum likelihood is unbounded (a player won or lost everything): then 1,
    /// said under the table.
    #[arg(long)]
    pub prior_draws: Option<f64>,
    /// Openings per pairing (each played twice, once from each side).
    #[arg(long, default_value_t = 4)]
    pub openings: usize,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub games: GameArgs,
}

pub fn run(args: RatingListArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    let names: Vec<String> = args.players.iter().map(|p| p.name.clone()).collect();
    if names.len() < 2 {
        anyhow::bail!("a rating list needs two players or more (--player, repeated)");
    }
    if let Some(name) = names
        .iter()
        .enumerate()
        .find_map(|(i, n)| names[..i].contains(n).then_some(n))
    {
        anyhow::bail!("two players are called {name}: name them apart with NAME=SPEC");
    }
    let index = |name: &str| {
        names.iter().position(|n| n == name).ok_or_else(|| {
            anyhow::anyhow!("no player is called {name} (players: {})", names.join(", "))
        })
    };
    let gauntlet = args.gauntlet.as_deref().map(index).transpose()?;
    let anchor = match args.anchor.as_deref() {
        Some(name) => Anchor::Player(index(name)?),
        None => Anchor::Mean,
    };
    let stop = stop_flag()?;
    let settings = settings(&args.budget, &args.games, args.openings, 0, stop);
    let book = opening_book(&rules, &settings);
    let pairings = schedule(names.len(), gauntlet);
    let results = play_round_robin(
        &rules,
        &book,
        &args.players,
        &pairings,
        &settings,
        &mut |game| report_game(game),
    )?;
    let table = rate(&names, &results, anchor, args.prior_draws)?;
    print_table(&table)?;
    print_settings(&args, &rules, &settings, book.len(), &results, &table)?;
    let stopped = results.iter().find_map(|r| r.tally.aborted.clone());
    if let Some(reason) = stopped {
        super::outln!("stopped early: {reason}");
        return Ok(ExitCode::FAILURE);
    }
    if results.iter().any(|r| r.tally.interrupted) || results.len() < pairings.len() {
        super::outln!("stopped by Ctrl-C: the table counts the games finished before it");
        return Ok(ExitCode::from(INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The list, best first, and what it needed said under it.
fn print_table(table: &RatingTable) -> anyhow::Result<()> {
    super::outln!("| rank | name | Elo | ± | games | score |");
    super::outln!("|---|---|---|---|---|---|");
    for row in &table.rows {
        let error = if row.rating.error > 0.0 {
            format!("{:.0}", row.rating.error)
        } else {
            "anchor".to_string()
        };
        super::outln!(
            "| {} | {} | {:+.0} | {error} | {} | {:.1}% |",
            row.rank,
            row.name,
            row.rating.elo + 0.0,
            row.rating.games,
            100.0 * row.rating.score
        );
    }
    super::outln!();
    if !table.unrated.is_empty() {
        super::outln!("not rated (no games): {}", table.unrated.join(", "));
    }
    if !table.unbounded.is_empty() {
        super::outln!(
            "note: pure maximum likelihood is unbounded (the games between {} and the other players were all won by one side), so 1 virtual draw was added between every two players who met (--prior-draws)",
            table.unbounded.join(", ")
        );
    }
    Ok(())
}

/// The exact command, then the settings and the players that produced the table.
fn print_settings(
    args: &RatingListArgs,
    rules: &Rules,
    settings: &MatchSettings,
    openings: usize,
    results: &[PairingResult],
    table: &RatingTable,
) -> anyhow::Result<()> {
    let names: Vec<&str> = args.players.iter().map(|p| p.name.as_str()).collect();
    let played: usize = results.iter().map(|r| r.tally.games.len()).sum();
    let unscored: u32 = results
        .iter()
        .map(|r| r.tally.games.len() as u32 - r.tally.scored())
        .sum();
    super::outln!("command: {}", command_line());
    super::outln!(
        "settings: {} ({} openings of {} random plies, seed {}, each played from both sides per pairing; {} pairings, {played} games, {unscored} not scored); ratings by maximum likelihood on the logistic Elo scale, {}, ± the 95% interval from the likelihood's curvature{}; games at {} plies scored as draws",
        args.rules
            .variant
            .clone()
            .unwrap_or_else(|| format!("rules {}", rules.to_opentafl())),
        openings,
        settings.book_plies,
        settings.seed,
        results.len(),
        match &table.anchor {
            None => "mean 0".to_string(),
            Some(name) => format!("{name} = 0"),
        },
        if table.prior_draws > 0.0 {
            format!(", {} virtual draw(s) per pairing", table.prior_draws)
        } else {
            String::new()
        },
        settings.max_plies
    );
    for player in &args.players {
        super::outln!(
            "  {}: {} ({})",
            player.name,
            player.spec,
            player.budget(&settings.budget).describe()
        );
    }
    for result in results {
        for line in result.tally.refused.iter().chain(&result.tally.failed) {
            super::outln!(
                "  apart ({} - {}): {line}",
                names[result.first],
                names[result.second]
            );
        }
    }
    Ok(())
}
