//! OpenTafl notation, read and written: moves, position records, rules strings and game
//! records (`.otg`, with variations and comments as a [`GameRecord`] tree), and the plain move
//! lists of public tafl archives, so that games move between tafl tools.

mod capture_list;
pub mod move_list;
mod move_text;
pub mod otg;
mod position_record;
mod record_tree;
mod rules_string;

pub use move_text::canonical_notation;
pub use record_tree::{GameRecord, LineOfPlay, RecordedMove};
