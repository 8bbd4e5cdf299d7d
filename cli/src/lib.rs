//! tafl-cli: what the command lines share, so that `taflbot` (the service, with `rules` and
//! `analyze` for players) and `tafl` (the engine tooling) parse and report alike without one
//! depending on the other. This crate is the binaries' edge: its errors are `anyhow` errors,
//! reported by [`exit_code`] in one line.
//!
//! - [`GameSource`], [`RulesSource`], [`PositionArgs`]: which rules and which position
//!   (`--variant`, `--rules`, `--position`, `--to-move`), refused when no game can begin there;
//! - [`rules`]: the `variants` and `rules` commands, offered by both binaries;
//! - [`outln!`] and [`exit_code`]: output that stops quietly when the reader goes away
//!   (`tafl perft ... | head`), and every other error in one line with exit status 2;
//! - `testing` (feature `testing`): running a binary in its tests and checking its answer.

mod exit;
mod game_source;
mod output;
pub mod rules;
#[cfg(feature = "testing")]
pub mod testing;

pub use exit::exit_code;
pub use game_source::{GameSource, PositionArgs, RulesSource};
