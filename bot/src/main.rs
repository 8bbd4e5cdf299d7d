//! The `taflbot` binary: parses the command line and reports errors in one line.

use std::process::ExitCode;

use clap::Parser;
use taflbot::cli::{Cli, is_broken_pipe, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    // No subcommand: run the service.
    let command = cli
        .command
        .unwrap_or_else(|| taflbot::cli::Command::Serve(Default::default()));
    match run(command) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
