//! `otg::read` on arbitrary text: never panics; what it reads writes back to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::otg;

fuzz_target!(|text: &str| {
    if let Ok((game, tags)) = otg::read(text) {
        let written = otg::write(&game, &tags);
        let (again, _) = otg::read(&written).expect("a written record reads back");
        assert_eq!(again.history(), game.history());
    }
});
