//! The `taflbot` binary: parses the command line and reports errors in one line.

use std::process::ExitCode;

use clap::Parser;
use taflbot::cli::{Cli, is_broken_pipe, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        eprintln!("error: no subcommand given; see taflbot --help");
        return ExitCode::from(2);
    };
    match run(command) {
        Ok(code) => code,
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
