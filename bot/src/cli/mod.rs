//! The `taflbot` command line: one file per subcommand.

mod analyze;
pub mod bench;
mod bestmove;
mod calibrate;
mod discord;
mod engine;
mod game_source;
mod legal;
mod login_link;
mod match_runner;
mod output;
mod perft;
mod render;
mod replay;
mod rules;
pub mod serve;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use game_source::{GameSource, PositionArgs, RulesSource};
pub use output::is_broken_pipe;
pub(crate) use output::outln;

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
    /// List the named variants.
    Variants,
    /// Print a readable summary of a variant's rules (and its OpenTafl rules string).
    Rules(rules::RulesArgs),
    /// List legal moves of a position.
    Legal(legal::LegalArgs),
    /// Replay moves and print the referee's answer to each as a JSON line.
    Replay(replay::ReplayArgs),
    /// Count move sequences of a given depth (perft).
    Perft(perft::PerftArgs),
    /// The AI's best move for a position, as JSON (move, score, depth, nodes, time, pv).
    Bestmove(bestmove::BestmoveArgs),
    /// Judge every ply of a game: winning chance, better moves, marks, accuracy (JSON lines).
    Analyze(analyze::AnalyzeArgs),
    /// Check the analysis's winning chance against self-play results, per decile.
    Calibrate(calibrate::CalibrateArgs),
    /// Speak the OpenTafl Engine Protocol on stdin/stdout (for OpenTafl and other hosts).
    Engine(engine::EngineArgs),
    /// Paired games between two players (levels or external engines), refereed by us.
    Match(match_runner::MatchArgs),
    /// Fit the AI's evaluation weights to self-play results (Texel's method).
    Tune(tune::TuneArgs),
    /// Draw a position as a PNG board image.
    Render(render::RenderArgs),
    /// Run the service: HTTP API, scheduler, webhooks, Discord when configured (the default).
    Serve(serve::ServeArgs),
    /// Load tests of the service (`bench http`).
    Bench(bench::BenchArgs),
    /// Helpers for running the bot on a real Discord server (`discord invite-url`).
    Discord(discord::DiscordArgs),
    /// Print a one-time link that signs a player in to the web client.
    LoginLink(login_link::LoginLinkArgs),
}

/// Runs a subcommand; errors are input errors reported by the caller in one line.
pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Variants => rules::list_variants(),
        Command::Rules(args) => rules::run(args),
        Command::Legal(args) => legal::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bestmove(args) => bestmove::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Match(args) => match_runner::run(args),
        Command::Tune(args) => tune::run(args),
        Command::Render(args) => render::run(args),
        Command::Serve(args) => serve::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(args),
        Command::Discord(args) => discord::run(args),
        Command::LoginLink(args) => login_link::run(&args),
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
