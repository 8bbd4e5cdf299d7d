//! Starting the real bot against a fake Discord.

use std::sync::Once;

use taflbot::discord::{self, Data, DiscordError, DiscordSettings, RunningBot};

use crate::fake_discord::FakeDiscord;

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

/// The Discord settings that point the bot at `fake`, registering commands in its guild.
pub fn settings_for(fake: &FakeDiscord) -> DiscordSettings {
    DiscordSettings {
        token: FAKE_TOKEN.into(),
        api_base: fake.api_base(),
        guild_id: Some(fake.guild_id()),
    }
}

/// Starts the Discord front end against `fake`.
pub async fn start_bot(fake: &FakeDiscord, data: Data) -> Result<RunningBot, DiscordError> {
    init_logging();
    discord::start(settings_for(fake), data).await
}
