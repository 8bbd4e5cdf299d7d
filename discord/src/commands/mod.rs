//! The slash commands, one file per group.

pub mod analyze;
pub mod annotate;
pub mod challenge;
pub mod challenges;
pub mod common;
pub mod conditional;
pub mod explorer;
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
pub mod puzzle;
pub mod settings;
pub mod standings;
pub mod team_match;
pub mod tournament;
pub mod vacation;
pub mod web;

use serenity::all::{InstallationContext, InteractionContext};

use super::{BotError, Data};

/// The commands that also work in a direct message with the bot: those about the player, not
/// about a channel's game. The others are registered for servers only, so Discord does not
/// offer them where they could only be refused.
const IN_BOT_DMS: [&str; 15] = [
    "challenges",
    "vacation",
    "games",
    "notify",
    "handle",
    "token",
    "web",
    "help",
    "rules",
    "history",
    "stats",
    "leaderboard",
    "analyze",
    "puzzle",
    "explorer",
];

/// Every command the bot registers, with where it may be used.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    let mut commands = every_command();
    declare_contexts(&mut commands);
    commands
}

/// Declares each command's install and interaction contexts: the bot is installed in servers
/// (never on a user's account), and its commands work in servers, some in its DMs too.
fn declare_contexts(commands: &mut [poise::Command<Data, BotError>]) {
    for command in commands {
        command.install_context = Some(vec![InstallationContext::Guild]);
        let mut contexts = vec![InteractionContext::Guild];
        if IN_BOT_DMS.contains(&&*command.name) {
            contexts.push(InteractionContext::BotDm);
        }
        command.interaction_context = Some(contexts);
    }
}

fn every_command() -> Vec<poise::Command<Data, BotError>> {
    vec![
        challenge::challenge(),
        challenge::play(),
        challenges::challenges(),
        moves::move_piece(),
        conditional::conditional(),
        game::board(),
        game::resign(),
        game::draw(),
        game::record(),
        history::history(),
        annotate::annotate(),
        info::games(),
        info::rules(),
        info::token(),
        handle::handle(),
        standings::leaderboard(),
        standings::stats(),
        tournament::tournament(),
        team_match::team_match(),
        notify::notify(),
        vacation::vacation(),
        settings::settings(),
        moderation::abort(),
        follow::follow(),
        analyze::analyze(),
        analyze::hint(),
        puzzle::puzzle(),
        explorer::explorer(),
        web::web(),
        privacy::privacy(),
        help::help(),
    ]
}
