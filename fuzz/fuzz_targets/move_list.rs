//! `move_list::read` on arbitrary text for Copenhagen rules: never panics, and what it reads
//! is a game the referee replays the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::{Game, move_list, variant};

fuzz_target!(|text: &str| {
    let Some(preset) = variant("copenhagen") else {
        return;
    };
    if let Ok(list) = move_list::read(text, preset.rules()) {
        let moves: Vec<_> = list.game.history().iter().map(|r| r.mv).collect();
        let again = Game::replay(preset.rules(), preset.rules().start_position(), &moves)
            .expect("a read move list replays");
        assert_eq!(again.history(), list.game.history());
    }
});
