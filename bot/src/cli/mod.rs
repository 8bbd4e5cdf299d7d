//! The `taflbot` command line: what operators and players use, one file per subcommand. The
//! engine lab is the `tafl` binary (crate tafl-tools) and the load tests `taflbot-bench`; the
//! rules options, the `rules` and `variants` commands and the one-line errors are tafl-cli's,
//! shared with `tafl`.

mod analyze;
mod discord;
mod discord_register;
mod import;
mod login_link;
mod render;
pub mod serve;
mod server_database;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tafl_cli::rules::RulesCommand;

pub(crate) use tafl_cli::{GameSource, outln};

#[derive(Debug, Parser)]
#[command(
    name = "taflbot",
    version,
    about = "Tafl by correspondence: Discord bot, HTTP service and rules engine"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    // `variants` and `rules`, the same as tafl's.
    #[command(flatten)]
    Rules(RulesCommand),
    /// Judge every ply of a game: winning chance, better moves, marks, accuracy (JSON lines).
    Analyze(analyze::AnalyzeArgs),
    /// Draw a position as a PNG board image.
    Render(render::RenderArgs),
    /// Run the service: HTTP API, scheduler, webhooks, Discord when configured (the default).
    Serve(serve::ServeArgs),
    /// Helpers for running the bot on a real Discord server (`discord invite-url`, `discord
    /// register`).
    Discord(discord::DiscordArgs),
    /// Print a one-time link that signs a player in to the web client.
    LoginLink(login_link::LoginLinkArgs),
    /// Import game records (.otg, or archive move lists) into the server's database.
    Import(import::ImportArgs),
}

/// Runs a subcommand; errors are input errors reported by the caller in one line.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Rules(command) => command.run(),
        Command::Analyze(args) => analyze::run(args),
        Command::Render(args) => render::run(args),
        Command::Serve(args) => serve::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Discord(args) => discord::run(args),
        Command::LoginLink(args) => login_link::run(&args),
        Command::Import(args) => import::run(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
