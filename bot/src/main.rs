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
            eprintln!("error: {}", said_once(&error));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes in one line, each said once: most errors already quote their cause
/// in their own words, so a cause whose words are already there is not repeated.
fn said_once(error: &anyhow::Error) -> String {
    let mut text = error.to_string();
    for cause in error.chain().skip(1) {
        let words = cause.to_string();
        if !text.contains(&words) {
            text.push_str(": ");
            text.push_str(&words);
        }
    }
    text
}
