//! Tuning: fits the evaluation weights of a variant to self-play results (Texel's method),
//! then checks the fitted weights against the defaults in a paired match.

use tafl_engine::ai::selfplay::{opening_book, play_game, points};
use tafl_engine::ai::tune::{Sample, fit, loss};
use tafl_engine::ai::{SearchLimits, Weights, features};
use tafl_engine::{Game, Rules, Side};

/// How to tune.
#[derive(Debug, Clone)]
pub struct TuneSettings {
    /// Self-play games to learn from.
    pub games: usize,
    /// Nodes per move in the self-play games (the check match gets five times as many).
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub book_plies: u32,
    pub seed: u64,
    /// Gradient descent passes.
    pub epochs: usize,
    /// Gradient descent step.
    pub rate: f64,
    /// Openings of the check match (tuned against default weights, each opening twice).
    pub check_openings: usize,
}

/// What the self-play games taught.
#[derive(Debug, Clone)]
pub struct Fitted {
    pub games: usize,
    pub attacker_wins: u32,
    pub defender_wins: u32,
    pub draws: u32,
    /// Quiet positions learnt from.
    pub positions: usize,
    pub default_weights: Weights,
    pub fitted_weights: Weights,
    pub default_loss: f64,
    pub fitted_loss: f64,
}

/// How the fitted weights fared against the defaults.
#[derive(Debug, Clone)]
pub struct CheckMatch {
    /// Nodes per move (five times the self-play games').
    pub nodes: u64,
    /// The fitted weights' points, of `games`.
    pub score: f64,
    pub games: usize,
}

/// Plays the self-play games and fits the weights to their results.
pub fn fit_weights(rules: &Rules, settings: &TuneSettings) -> Fitted {
    let start = Weights::for_rules(rules);
    let play = SearchLimits {
        random_margin: 30,
        weights: Some(start),
        ..SearchLimits::nodes(settings.nodes).with_table_mib(8)
    };
    let book = opening_book(rules, settings.book_plies, settings.games, settings.seed);
    let mut samples = Vec::new();
    let (mut attacker_wins, mut defender_wins, mut draws) = (0, 0, 0);
    for (i, opening) in book.iter().enumerate() {
        let game = play_game(rules, opening, &play, &play, 250, settings.seed ^ i as u64);
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
            let f = features(rules, replay.position());
            if replay.ply() as usize > opening.len() && !replay.is_over() && f[2] == 0 {
                samples.push(Sample {
                    features: f,
                    result,
                });
            }
        }
    }
    let fitted = fit(&start, &samples, settings.epochs, settings.rate);
    Fitted {
        games: book.len(),
        attacker_wins,
        defender_wins,
        draws,
        positions: samples.len(),
        default_weights: start,
        fitted_weights: fitted,
        default_loss: loss(&start, &samples),
        fitted_loss: loss(&fitted, &samples),
    }
}

/// Fitted against default weights, same node budget, each opening from both sides.
pub fn check_match(rules: &Rules, settings: &TuneSettings, fitted: &Fitted) -> CheckMatch {
    let nodes = settings.nodes * 5;
    let check_book = opening_book(
        rules,
        2,
        settings.check_openings,
        settings.seed.wrapping_add(99),
    );
    let tuned = SearchLimits {
        weights: Some(fitted.fitted_weights),
        ..SearchLimits::nodes(nodes).with_table_mib(8)
    };
    let default = SearchLimits {
        weights: Some(fitted.default_weights),
        ..tuned.clone()
    };
    let mut score = 0.0;
    for (i, opening) in check_book.iter().enumerate() {
        let g = play_game(rules, opening, &tuned, &default, 250, i as u64);
        score += points(&g, Side::Attackers);
        let g = play_game(rules, opening, &default, &tuned, 250, i as u64);
        score += points(&g, Side::Defenders);
    }
    CheckMatch {
        nodes,
        score,
        games: 2 * check_book.len(),
    }
}
