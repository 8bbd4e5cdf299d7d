//! `taflbot discord register [--guild ID]`: registers this build's slash commands with Discord
//! and exits, a deploy step. With several instances `serve` leaves the commands alone unless
//! told to (`discord.register_commands`), so an old instance of a rolling deploy never puts its
//! old list back; run this once the new build is out.

use std::num::NonZeroU64;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serenity::all::GuildId;

use crate::config::Config;

#[derive(Debug, clap::Args)]
pub struct RegisterArgs {
    /// Register in this server only (shown at once there) instead of globally (Discord may
    /// take up to an hour to show a global change everywhere).
    #[arg(long, value_name = "ID")]
    pub guild: Option<NonZeroU64>,
    /// Config file (see config.example.toml) holding `[discord] token`; TAFLBOT_* variables
    /// override it.
    #[arg(long, short, env = "TAFLBOT_CONFIG")]
    pub config: Option<PathBuf>,
}

pub fn run(args: RegisterArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let guild = args.guild.map(GuildId::from);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let count = runtime.block_on(crate::discord::register_commands(&config.discord, guild))?;
    match guild {
        Some(guild) => super::outln!("registered {count} slash commands in server {guild}"),
        None => super::outln!(
            "registered {count} slash commands globally (Discord may take up to an hour to show \
             them everywhere)"
        ),
    }
    Ok(ExitCode::SUCCESS)
}
