//! OpenTafl notation, read and written: moves, position records, rules strings and game
//! records (`.otg`), so that games move between tafl tools.

mod move_text;
pub mod otg;
mod position_record;
mod rules_string;

pub use move_text::canonical_notation;
