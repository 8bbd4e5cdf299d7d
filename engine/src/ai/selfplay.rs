//! Games between two searches: seeded random openings and whole games, for level matches,
//! tuning and tests.

use crate::game::Game;
use crate::moves::Move;
use crate::rules::Rules;
use crate::side::Side;

use super::limits::SearchLimits;
use super::rng::SplitMix;
use super::search::Searcher;

/// `count` distinct openings of `plies` moves each, from a seed: at every ply a random choice
/// among the moves a shallow search finds within a small margin of the best, so no opening
/// starts with a blunder (and none ends the game).
pub fn opening_book(rules: &Rules, plies: u32, count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut book: Vec<Vec<Move>> = Vec::with_capacity(count);
    let mut searcher = Searcher::new(1);
    let mut attempt = 0u64;
    while book.len() < count && attempt < count as u64 * 20 {
        attempt += 1;
        let mut rng = SplitMix::new(seed ^ attempt.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut game = Game::new(rules.clone());
        let mut line = Vec::new();
        for _ in 0..plies {
            let limits = SearchLimits {
                time: None,
                nodes: Some(4_000),
                depth: Some(2),
                random_margin: 40,
                seed: rng.next_u64(),
                table_mib: 1,
                ..SearchLimits::default()
            };
            let Some(result) = searcher.search(&game, &limits) else {
                break;
            };
            if game.play(result.best_move).is_err() || game.is_over() {
                break;
            }
            line.push(result.best_move);
        }
        if line.len() == plies as usize && !book.contains(&line) {
            book.push(line);
        }
    }
    book
}

/// One game: the opening, then each side's searcher with its limits, until the game ends or
/// `max_plies` moves have been played (then it is left unfinished: a draw for scoring).
pub fn play_game(
    rules: &Rules,
    opening: &[Move],
    attackers: &SearchLimits,
    defenders: &SearchLimits,
    max_plies: u32,
    seed: u64,
) -> Game {
    let mut game = Game::new(rules.clone());
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut searchers = [
        Searcher::new(attackers.table_mib),
        Searcher::new(defenders.table_mib),
    ];
    while !game.is_over() && game.ply() < max_plies {
        let (index, limits) = match game.side_to_move() {
            Side::Attackers => (0, attackers),
            Side::Defenders => (1, defenders),
        };
        let limits = limits
            .clone()
            .with_seed(seed ^ u64::from(game.ply()).wrapping_mul(0x9E37_79B9));
        let Some(result) = searchers[index].search(&game, &limits) else {
            break;
        };
        if game.play(result.best_move).is_err() {
            break;
        }
    }
    game
}

/// Points for `side` in a finished (or abandoned) game: 1 win, 0.5 draw or unfinished, 0 loss.
pub fn points(game: &Game, side: Side) -> f64 {
    match game.outcome().map(|o| o.winner()) {
        Some(Some(winner)) if winner == side => 1.0,
        Some(Some(_)) => 0.0,
        _ => 0.5,
    }
}
