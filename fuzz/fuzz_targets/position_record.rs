//! `Position::from_opentafl` on arbitrary text: never panics; what it reads writes back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::{Position, Side};

fuzz_target!(|text: &str| {
    if let Ok(position) = Position::from_opentafl(text, Side::Defenders) {
        let again = Position::from_opentafl(&position.to_opentafl(), Side::Defenders);
        assert_eq!(again, Ok(position));
    }
});
