//! For the binaries' tests (feature `testing`): run a command line and check its answer. A
//! failure here panics, and so fails the test that asked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

/// A binary under test, by its path (`env!("CARGO_BIN_EXE_<name>")`).
pub struct Binary(&'static str);

impl Binary {
    pub const fn new(path: &'static str) -> Binary {
        Binary(path)
    }

    /// Runs the binary with `args` (logs off) and checks that it did not panic.
    pub fn run(&self, args: &[&str]) -> Output {
        let output = Command::new(self.0)
            .args(args)
            .env("RUST_LOG", "off")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        output
    }

    /// An input error: a non-zero exit and a single line on standard error.
    pub fn assert_input_error(&self, args: &[&str], expected: &str) {
        let output = self.run(args);
        assert!(!output.status.success(), "{args:?} succeeded");
        let err = stderr(&output);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}
