//! The `taflbot` binary: parses the command line and reports errors in one line.

use std::process::ExitCode;

use clap::Parser;
use taflbot::cli::{Cli, Command, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // No subcommand: run the service.
    let command = cli
        .command
        .unwrap_or_else(|| Command::Serve(Default::default()));
    tafl_cli::exit_code(run(command))
}
