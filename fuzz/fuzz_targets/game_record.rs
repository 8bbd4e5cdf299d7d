//! `otg::read_record` on arbitrary text: never panics; what it reads, with its comments and
//! variations, writes back to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::otg;

fuzz_target!(|text: &str| {
    if let Ok(record) = otg::read_record(text) {
        let written = otg::write_record(&record);
        let again = otg::read_record(&written).expect("a written record reads back");
        assert_eq!(again.game.history(), record.game.history());
        assert_eq!(again.main, record.main);
    }
});
