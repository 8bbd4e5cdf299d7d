//! The `taflbot-bench` binary: load tests of the service, reporting errors in one line.

use std::process::ExitCode;

use clap::Parser;
use taflbot_bench::{Cli, run};

fn main() -> ExitCode {
    tafl_cli::exit_code(run(Cli::parse()))
}
