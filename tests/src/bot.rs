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

/// The settings of one instance against `fake` that runs `shards` (`"0"`, `"1-3"`, or empty for
/// all) of `count`, with an SQLite file of its own in `dir`, HTTP on a free port and no
/// webhooks; tests change what they need before [`start_instance`].
pub fn shard_instance_config(
    fake: &crate::fake_discord::FakeDiscord,
    dir: &std::path::Path,
    count: u16,
    shards: &str,
) -> taflbot::config::Config {
    let mut config = taflbot::config::Config::default();
    fake.connect(&mut config);
    config.discord.shard_count = Some(count);
    config.discord.shards = shards.to_owned();
    config.database.path = dir.join(format!("taflbot-{shards}.db"));
    config.http.listen = "127.0.0.1:0".to_owned();
    config.webhooks.enabled = false;
    config
}

/// Starts an app with `config`, a manual clock of its own, no AI and no scheduler.
#[allow(
    clippy::expect_used,
    reason = "test harness: a failed start fails the test with its reason"
)]
pub async fn start_instance(config: taflbot::config::Config) -> taflbot::app::RunningApp {
    use taflbot::service::Clock;
    init_logging();
    let options = taflbot::app::AppOptions {
        clock: std::sync::Arc::new(taflbot::service::ManualClock::new(
            taflbot::service::SystemClock.now_ms(),
        )),
        picker: None,
        scheduler: false,
    };
    taflbot::app::RunningApp::start(config, options)
        .await
        .expect("the app starts")
}
