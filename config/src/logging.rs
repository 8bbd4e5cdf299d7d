//! Logs for `taflbot serve`: text on a terminal, plain text (never colour codes) or JSON
//! otherwise, written by a background thread so that logging never blocks or fails a request.
//! When the output cannot keep up (or cannot be written: a full disk), lines are dropped and
//! counted (`taflbot_log_lines_dropped_total` in `/metrics`).

use std::io::IsTerminal;
use std::sync::OnceLock;

use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};

use crate::{LogConfig, LogFormat};

static DROPPED: OnceLock<ErrorCounter> = OnceLock::new();

/// Keep it while the program runs: dropping it flushes what is buffered.
pub struct LogGuard {
    _worker: WorkerGuard,
}

/// Installs the process's logger; `RUST_LOG` overrides the configured filter.
pub fn init(config: &LogConfig) -> LogGuard {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .or_else(|_| tracing_subscriber::EnvFilter::try_new(&config.filter))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let terminal = std::io::stdout().is_terminal();
    let (writer, worker) = NonBlockingBuilder::default()
        .lossy(true)
        .thread_name("taflbot-log")
        .finish(std::io::stdout());
    let _ = DROPPED.set(writer.error_counter());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    let _ = match config.format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Text => builder.with_ansi(false).try_init(),
        LogFormat::Auto => builder.with_ansi(terminal).try_init(),
    };
    LogGuard { _worker: worker }
}

/// Lines dropped so far because the output could not take them.
pub fn dropped_lines() -> usize {
    DROPPED.get().map_or(0, ErrorCounter::dropped_lines)
}

/// An error and its causes on one line (`outer: inner: root`), for a log line. An error's own
/// `Display` names only itself (its causes are its `source()` chain, and a client must never
/// see them), so the one place that logs a failure logs it through this.
pub struct ErrorChain<'a>(pub &'a (dyn std::error::Error + 'static));

impl std::fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(error) = cause {
            write!(f, ": {error}")?;
            cause = error.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn a_chain_names_each_cause_once_in_order() {
        let error = Outer(std::io::Error::other("root"));
        assert_eq!(ErrorChain(&error).to_string(), "outer: root");
    }
}
