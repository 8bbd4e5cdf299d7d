//! The slash commands, one file per group.

pub mod analyze;
pub mod challenge;
pub mod challenges;
pub mod common;
pub mod follow;
pub mod game;
pub mod handle;
pub mod help;
pub mod history;
pub mod info;
pub mod moderation;
pub mod moves;
pub mod notify;
pub mod privacy;
pub mod settings;
pub mod standings;
pub mod web;

use super::{BotError, Data};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![
        challenge::challenge(),
        challenge::play(),
        challenges::challenges(),
        moves::move_piece(),
        game::board(),
        game::resign(),
        game::draw(),
        game::record(),
        history::history(),
        info::games(),
        info::rules(),
        info::token(),
        handle::handle(),
        standings::leaderboard(),
        standings::stats(),
        notify::notify(),
        settings::settings(),
        moderation::abort(),
        follow::follow(),
        analyze::analyze(),
        analyze::hint(),
        web::web(),
        privacy::privacy(),
        help::help(),
    ]
}
