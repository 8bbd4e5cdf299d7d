//! `tafl tune`: fits the evaluation weights of a variant to self-play results (Texel's
//! method), then checks the fitted weights against the defaults in a paired match
//! (`tafl_tools::tune`).

use std::process::ExitCode;

use clap::Args;
use tafl_engine::ai::FEATURE_NAMES;
use tafl_tools::tune::{TuneSettings, check_match, fit_weights};

use super::RulesSource;

#[derive(Debug, Args)]
pub struct TuneArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 60)]
    pub games: usize,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 3_000)]
    pub nodes: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub book_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Gradient descent passes.
    #[arg(long, default_value_t = 3_000)]
    pub epochs: usize,
    /// Gradient descent step.
    #[arg(long, default_value_t = 400_000.0)]
    pub rate: f64,
    /// Openings of the check match (tuned against default weights, each opening twice).
    #[arg(long, default_value_t = 6)]
    pub check_openings: usize,
}

pub fn run(args: TuneArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    let settings = TuneSettings {
        games: args.games,
        nodes: args.nodes,
        book_plies: args.book_plies,
        seed: args.seed,
        epochs: args.epochs,
        rate: args.rate,
        check_openings: args.check_openings,
    };
    let fitted = fit_weights(&rules, &settings);
    eprintln!(
        "{} games ({} attacker wins, {} defender wins, {} draws), {} positions",
        fitted.games, fitted.attacker_wins, fitted.defender_wins, fitted.draws, fitted.positions
    );
    super::outln!(
        "loss: default {:.5}, fitted {:.5}",
        fitted.default_loss,
        fitted.fitted_loss
    );
    super::outln!("| feature | default | fitted |");
    super::outln!("|---|---|---|");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        super::outln!(
            "| {name} | {} | {} |",
            fitted.default_weights.0[i],
            fitted.fitted_weights.0[i]
        );
    }
    super::outln!("fitted: Weights({:?})", fitted.fitted_weights.0);

    let check = check_match(&rules, &settings, &fitted);
    super::outln!(
        "check match, fitted vs default at {} nodes/move: {} of {} ({:.1}%)",
        check.nodes,
        check.score,
        check.games,
        100.0 * check.score / check.games.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}
