//! The `tafl` binary: the engine lab on the command line, apart from the service. Rules and
//! positions (`variants`, `rules`, `legal`, `replay`, `perft`), the AI (`bestmove`,
//! `calibrate`, `engine`), matches and their measures (`match`, `sprt`, `rating-list`) and
//! tuning (`tune`). One file per subcommand; errors are input errors, reported in one line
//! with exit status 2.

mod bestmove;
mod calibrate;
mod engine;
mod interrupt;
mod legal;
mod match_runner;
mod perft;
mod players;
mod rating_list;
mod replay;
mod sprt;
mod tune;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tafl_cli::rules::RulesCommand;
use tafl_cli::{GameSource, RulesSource, outln};

#[derive(Debug, Parser)]
#[command(
    name = "tafl",
    version,
    about = "The tafl engine lab: rules, legal moves, replay, perft, best move, engine protocol, matches, tuning"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    // `variants` and `rules`, the same as taflbot's.
    #[command(flatten)]
    Rules(RulesCommand),
    /// List legal moves of a position.
    Legal(legal::LegalArgs),
    /// Replay moves and print the referee's answer to each as a JSON line.
    Replay(replay::ReplayArgs),
    /// Count move sequences of a given depth (perft).
    Perft(perft::PerftArgs),
    /// The AI's best move for a position, as JSON (move, score, depth, nodes, time, pv).
    Bestmove(bestmove::BestmoveArgs),
    /// Check the analysis's winning chance against self-play results, per decile.
    Calibrate(calibrate::CalibrateArgs),
    /// Speak the OpenTafl Engine Protocol on stdin/stdout (for OpenTafl and other hosts).
    Engine(engine::EngineArgs),
    /// Paired games between two players (levels or external engines), refereed by us.
    Match(match_runner::MatchArgs),
    /// Test an engine change against a baseline by SPRT over game pairs (paired openings).
    Sprt(sprt::SprtArgs),
    /// A round robin (or gauntlet) of players, rated by maximum likelihood with error bars.
    RatingList(rating_list::RatingListArgs),
    /// Fit the AI's evaluation weights to self-play results (Texel's method).
    Tune(tune::TuneArgs),
}

fn main() -> ExitCode {
    tafl_cli::exit_code(run(Cli::parse().command))
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Rules(command) => command.run(),
        Command::Legal(args) => legal::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Bestmove(args) => bestmove::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Match(args) => match_runner::run(args),
        Command::Sprt(args) => sprt::run(args),
        Command::RatingList(args) => rating_list::run(args),
        Command::Tune(args) => tune::run(args),
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
