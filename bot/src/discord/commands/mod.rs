//! The slash commands, one file per group.

pub mod help;

use super::{BotError, Data};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![help::help()]
}
