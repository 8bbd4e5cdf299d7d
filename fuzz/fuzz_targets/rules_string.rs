//! `Rules::from_opentafl` on arbitrary text: never panics; what it reads writes back to the same
//! rules, and a game can start from them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::{Game, Rules};

fuzz_target!(|text: &str| {
    if let Ok(rules) = Rules::from_opentafl(text) {
        assert_eq!(Rules::from_opentafl(&rules.to_opentafl()).as_ref(), Ok(&rules));
        let _ = Game::new(rules).legal_moves();
    }
});
