//! `taflbot tune`: fits the evaluation weights of a variant to self-play results (Texel's
//! method), then checks the fitted weights against the defaults in a paired match.

use std::process::ExitCode;

use clap::Args;
use tafl_engine::ai::selfplay::{opening_book, play_game, points};
use tafl_engine::ai::tune::{Sample, fit, loss};
use tafl_engine::ai::{FEATURE_NAMES, SearchLimits, Weights, features};
use tafl_engine::{Game, Side};

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
    let start = Weights::for_rules(&rules);
    let play = SearchLimits {
        random_margin: 30,
        weights: Some(start),
        ..SearchLimits::nodes(args.nodes).with_table_mib(8)
    };
    let book = opening_book(&rules, args.book_plies, args.games, args.seed);
    let mut samples = Vec::new();
    let (mut attacker_wins, mut defender_wins, mut draws) = (0, 0, 0);
    for (i, opening) in book.iter().enumerate() {
        let game = play_game(&rules, opening, &play, &play, 250, args.seed ^ i as u64);
        let result = points(&game, Side::Defenders);
        match result {
            r if r > 0.75 => defender_wins += 1,
            r if r < 0.25 => attacker_wins += 1,
            _ => draws += 1,
        }
        // Replay and keep the quiet positions (no open line for the king) after the opening.
        let mut replay = Game::from_position(rules.clone(), *game.start_position());
        for report in game.history() {
            if replay.play(report.mv).is_err() {
                break;
            }
            let f = features(&rules, replay.position());
            if replay.ply() as usize > opening.len() && !replay.is_over() && f[2] == 0 {
                samples.push(Sample {
                    features: f,
                    result,
                });
            }
        }
    }
    eprintln!(
        "{} games ({attacker_wins} attacker wins, {defender_wins} defender wins, {draws} draws), {} positions",
        book.len(),
        samples.len()
    );
    let fitted = fit(&start, &samples, args.epochs, args.rate);
    super::outln!(
        "loss: default {:.5}, fitted {:.5}",
        loss(&start, &samples),
        loss(&fitted, &samples)
    );
    super::outln!("| feature | default | fitted |");
    super::outln!("|---|---|---|");
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        super::outln!("| {name} | {} | {} |", start.0[i], fitted.0[i]);
    }
    super::outln!("fitted: Weights({:?})", fitted.0);

    // Check: fitted against default weights, same node budget, each opening from both sides.
    let check_book = opening_book(&rules, 2, args.check_openings, args.seed.wrapping_add(99));
    let tuned = SearchLimits {
        weights: Some(fitted),
        ..SearchLimits::nodes(args.nodes * 5).with_table_mib(8)
    };
    let default = SearchLimits {
        weights: Some(start),
        ..tuned.clone()
    };
    let mut score = 0.0;
    for (i, opening) in check_book.iter().enumerate() {
        let g = play_game(&rules, opening, &tuned, &default, 250, i as u64);
        score += points(&g, Side::Attackers);
        let g = play_game(&rules, opening, &default, &tuned, 250, i as u64);
        score += points(&g, Side::Defenders);
    }
    let games = 2 * check_book.len();
    super::outln!(
        "check match, fitted vs default at {} nodes/move: {score} of {games} ({:.1}%)",
        args.nodes * 5,
        100.0 * score / games.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}
