//! The positions the search benches share.

use tafl_engine::ai::{SearchLimits, selfplay};
use tafl_engine::{Game, variant};

/// Copenhagen middle games: 16 to 28 plies of quick self-play from seeded openings.
pub fn middle_games() -> Vec<Game> {
    let Some(copenhagen) = variant("copenhagen") else {
        return Vec::new();
    };
    let rules = copenhagen.rules();
    let quick = SearchLimits {
        random_margin: 40,
        ..SearchLimits::nodes(3_000).with_table_mib(4)
    };
    selfplay::opening_book(&rules, 4, 4, 2026)
        .iter()
        .enumerate()
        .map(|(i, opening)| {
            selfplay::play_game(&rules, opening, &quick, &quick, 16 + 4 * i as u32, i as u64)
        })
        .filter(|g| !g.is_over())
        .collect()
}
