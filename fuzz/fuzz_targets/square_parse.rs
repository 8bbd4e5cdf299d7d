//! `Square::parse` on arbitrary text and board sizes: never panics; what it reads prints back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tafl_engine::Square;

fuzz_target!(|data: &[u8]| {
    let Some((&size, rest)) = data.split_first() else {
        return;
    };
    let dim = 7 + size % 13;
    if let Ok(text) = std::str::from_utf8(rest)
        && let Ok(sq) = Square::parse(text, dim)
    {
        assert_eq!(Square::parse(&sq.to_string(), dim), Ok(sq));
    }
});
