//! How a command's result leaves the process: its own exit code, success when only the reader
//! of standard output went away, and any other error as one line on standard error.

use std::process::ExitCode;

use crate::output::is_broken_pipe;

/// The exit code of a command's `result`, its error (if any) reported on standard error.
/// Errors are input errors: one line, exit status 2.
pub fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
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
