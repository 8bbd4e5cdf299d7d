//! Test-side settings of the bot: its token and logging.

use std::sync::Once;

/// The token the bot presents to the fake (the fake accepts any `Bot ...` token).
pub const FAKE_TOKEN: &str = "fake-bot-token";

/// Logs to the test output; `RUST_LOG` picks the level (warnings by default).
pub fn init_logging() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env()
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_test_writer()
            .try_init();
    });
}
