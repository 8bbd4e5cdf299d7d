//! What a loaded configuration must satisfy before anything starts: each rule one line, its
//! message saying in the settings' own words what is wrong.

use super::{Config, ConfigError};

/// Refuses with `message` unless `holds`.
fn ensure(holds: bool, message: impl Into<String>) -> Result<(), ConfigError> {
    if holds {
        Ok(())
    } else {
        Err(ConfigError::Invalid(message.into()))
    }
}

impl Config {
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        let (database, http, games) = (&self.database, &self.http, &self.games);
        // Settings read by a parser of their own say what is wrong themselves.
        http.listen_addr()?;
        http.trusted_proxies()?;
        self.discord.shard_plan()?;
        database.location()?;
        self.webhooks.target_policy()?;
        self.mail.check()?;

        let url = http.public_url.trim();
        let web_url = url.is_empty() || url.starts_with("http://") || url.starts_with("https://");
        ensure(
            (1..=24 * 3600).contains(&games.claim_lease_secs),
            "games.claim_lease_secs must be between 1 and 86400 seconds",
        )?;
        ensure(
            web_url,
            format!("http.public_url {url:?} must start with http:// or https://"),
        )?;
        ensure(
            games.login_link_minutes >= 1,
            "games.login_link_minutes must be at least 1",
        )?;
        ensure(
            games.web_session_days >= 1,
            "games.web_session_days must be at least 1",
        )?;
        ensure(
            games.engine_strong_at_once >= 1,
            "games.engine_strong_at_once must be at least 1",
        )?;
        ensure(
            games.hints_waiting_per_player >= 1,
            "games.hints_waiting_per_player must be at least 1",
        )?;
        ensure(
            games.analysis_max_queued_per_player >= 1,
            "games.analysis_max_queued_per_player must be at least 1",
        )?;
        ensure(
            games.analysis_max_queued_new_account >= 1,
            "games.analysis_max_queued_new_account must be at least 1",
        )?;
        ensure(
            games.analysis_max_queued_per_address >= 1,
            "games.analysis_max_queued_per_address must be at least 1",
        )?;
        ensure(database.readers >= 1, "database.readers must be at least 1")?;
        ensure(
            database.max_batch >= 1,
            "database.max_batch must be at least 1",
        )?;
        // Comparisons written so that NaN (TOML's `nan`) fails them.
        ensure(
            http.rate_limit_per_second > 0.0,
            "http.rate_limit_per_second must be above 0",
        )?;
        ensure(
            http.registration_per_minute > 0.0,
            "http.registration_per_minute must be above 0",
        )?;
        ensure(
            http.anonymous_per_second > 0.0,
            "http.anonymous_per_second must be above 0",
        )?;
        ensure(
            games.max_bank_ratio >= 1.0 && games.max_bank_ratio.is_finite(),
            "games.max_bank_ratio must be a number of at least 1",
        )?;
        ensure(
            http.sign_in_failures_per_minute > 0.0,
            "http.sign_in_failures_per_minute must be above 0",
        )?;
        ensure(
            http.max_connections_per_address >= 1,
            "http.max_connections_per_address must be at least 1",
        )?;
        ensure(
            (1..=3_600_000).contains(&http.body_timeout_ms),
            "http.body_timeout_ms must be between 1 and 3600000 (an hour)",
        )?;
        ensure(
            (1..=3_600_000).contains(&http.request_timeout_ms),
            "http.request_timeout_ms must be between 1 and 3600000 (an hour)",
        )?;
        let webhooks = &self.webhooks;
        ensure(
            webhooks.max_in_flight >= 1,
            "webhooks.max_in_flight must be at least 1",
        )?;
        ensure(
            (1..=webhooks.max_in_flight).contains(&webhooks.max_in_flight_per_endpoint),
            "webhooks.max_in_flight_per_endpoint must be between 1 and webhooks.max_in_flight",
        )?;
        ensure(
            webhooks.breaker_failures >= 1,
            "webhooks.breaker_failures must be at least 1",
        )?;
        ensure(
            webhooks.timeout_ms >= 1,
            "webhooks.timeout_ms must be at least 1",
        )?;
        ensure(
            webhooks.max_attempts >= 1,
            "webhooks.max_attempts must be at least 1",
        )?;
        self.validate_discord()
    }

    /// The Discord delivery's bounds: every request ends, a bounded number of channels at
    /// once, and the invalid-request budget stays under Discord's 10,000 in 10 minutes.
    fn validate_discord(&self) -> Result<(), ConfigError> {
        let discord = &self.discord;
        ensure(
            (100..=120_000).contains(&discord.request_timeout_ms),
            "discord.request_timeout_ms must be between 100 and 120000",
        )?;
        ensure(
            (1..=64).contains(&discord.delivery_channels),
            "discord.delivery_channels must be between 1 and 64",
        )?;
        ensure(
            (1..=9_000).contains(&discord.invalid_request_budget),
            "discord.invalid_request_budget must be between 1 and 9000 (Discord bans at 10000)",
        )?;
        ensure(
            (10..=2_000).contains(&discord.defer_after_ms),
            "discord.defer_after_ms must be between 10 and 2000 (Discord waits 3 s in all)",
        )?;
        ensure(
            discord.refused_access_retry_secs <= 7 * 24 * 3600,
            "discord.refused_access_retry_secs must be at most 604800 (7 days)",
        )?;
        let key = discord.interactions_public_key.trim();
        ensure(
            key.is_empty() || (key.len() == 64 && key.bytes().all(|b| b.is_ascii_hexdigit())),
            "discord.interactions_public_key must be the application's public key: \
             64 hexadecimal digits, as the Developer Portal shows it",
        )?;
        ensure(
            (1..=365).contains(&discord.removed_server_grace_days),
            "discord.removed_server_grace_days must be between 1 and 365",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each rule, broken by one variable, refuses the configuration with its own message.
    #[test]
    fn each_rule_refuses_a_bad_value_with_its_message() {
        let cases = [
            (
                "TAFLBOT_GAMES_CLAIM_LEASE_SECS",
                "0",
                "games.claim_lease_secs must be between 1 and 86400",
            ),
            (
                "TAFLBOT_GAMES_CLAIM_LEASE_SECS",
                "86401",
                "games.claim_lease_secs must be between 1 and 86400",
            ),
            (
                "TAFLBOT_HTTP_PUBLIC_URL",
                "tafl.example.org",
                "http.public_url \"tafl.example.org\" must start with http:// or https://",
            ),
            (
                "TAFLBOT_GAMES_LOGIN_LINK_MINUTES",
                "0",
                "games.login_link_minutes must be at least 1",
            ),
            (
                "TAFLBOT_GAMES_WEB_SESSION_DAYS",
                "0",
                "games.web_session_days must be at least 1",
            ),
            (
                "TAFLBOT_DATABASE_READERS",
                "0",
                "database.readers must be at least 1",
            ),
            (
                "TAFLBOT_DATABASE_MAX_BATCH",
                "0",
                "database.max_batch must be at least 1",
            ),
            (
                "TAFLBOT_HTTP_RATE_LIMIT_PER_SECOND",
                "0",
                "http.rate_limit_per_second must be above 0",
            ),
            (
                "TAFLBOT_HTTP_REGISTRATION_PER_MINUTE",
                "-1",
                "http.registration_per_minute must be above 0",
            ),
            (
                "TAFLBOT_HTTP_ANONYMOUS_PER_SECOND",
                "0.0",
                "http.anonymous_per_second must be above 0",
            ),
            (
                "TAFLBOT_GAMES_MAX_BANK_RATIO",
                "0.5",
                "games.max_bank_ratio must be a number of at least 1",
            ),
            (
                "TAFLBOT_WEBHOOKS_MAX_ATTEMPTS",
                "0",
                "webhooks.max_attempts must be at least 1",
            ),
            (
                "TAFLBOT_HTTP_SIGN_IN_FAILURES_PER_MINUTE",
                "0",
                "http.sign_in_failures_per_minute must be above 0",
            ),
            (
                "TAFLBOT_HTTP_MAX_CONNECTIONS_PER_ADDRESS",
                "0",
                "http.max_connections_per_address must be at least 1",
            ),
            (
                "TAFLBOT_HTTP_BODY_TIMEOUT_MS",
                "0",
                "http.body_timeout_ms must be between 1 and 3600000",
            ),
            (
                "TAFLBOT_HTTP_REQUEST_TIMEOUT_MS",
                "3600001",
                "http.request_timeout_ms must be between 1 and 3600000",
            ),
            (
                "TAFLBOT_WEBHOOKS_MAX_IN_FLIGHT",
                "0",
                "webhooks.max_in_flight must be at least 1",
            ),
            (
                "TAFLBOT_WEBHOOKS_MAX_IN_FLIGHT_PER_ENDPOINT",
                "65",
                "webhooks.max_in_flight_per_endpoint must be between 1 and webhooks.max_in_flight",
            ),
            (
                "TAFLBOT_WEBHOOKS_BREAKER_FAILURES",
                "0",
                "webhooks.breaker_failures must be at least 1",
            ),
            (
                "TAFLBOT_WEBHOOKS_TIMEOUT_MS",
                "0",
                "webhooks.timeout_ms must be at least 1",
            ),
            (
                "TAFLBOT_HTTP_LISTEN",
                "here",
                "http.listen \"here\" is not an address",
            ),
            (
                "TAFLBOT_HTTP_TRUSTED_PROXIES",
                "proxy.internal",
                "http.trusted_proxies: \"proxy.internal\" is not an address",
            ),
            ("TAFLBOT_DISCORD_SHARDS", "2", "needs discord.shard_count"),
            (
                "TAFLBOT_DATABASE_URL",
                "redis://cache",
                "database.url scheme \"redis\" is not supported",
            ),
            (
                "TAFLBOT_WEBHOOKS_ALLOW_PRIVATE",
                "10.0.0.0/40",
                "10.0.0.0/40",
            ),
            (
                "TAFLBOT_DISCORD_REQUEST_TIMEOUT_MS",
                "0",
                "discord.request_timeout_ms must be between 100 and 120000",
            ),
            (
                "TAFLBOT_DISCORD_DELIVERY_CHANNELS",
                "0",
                "discord.delivery_channels must be between 1 and 64",
            ),
            (
                "TAFLBOT_DISCORD_INVALID_REQUEST_BUDGET",
                "10000",
                "discord.invalid_request_budget must be between 1 and 9000",
            ),
            (
                "TAFLBOT_DISCORD_DEFER_AFTER_MS",
                "2500",
                "discord.defer_after_ms must be between 10 and 2000",
            ),
            (
                "TAFLBOT_DISCORD_REFUSED_ACCESS_RETRY_SECS",
                "9999999",
                "discord.refused_access_retry_secs must be at most 604800",
            ),
            (
                "TAFLBOT_DISCORD_INTERACTIONS_PUBLIC_KEY",
                "not-a-key",
                "discord.interactions_public_key must be the application's public key",
            ),
            (
                "TAFLBOT_DISCORD_REMOVED_SERVER_GRACE_DAYS",
                "0",
                "discord.removed_server_grace_days must be between 1 and 365",
            ),
        ];
        for (name, value, message) in cases {
            let env = [(name.to_owned(), value.to_owned())];
            match Config::from_sources(None, env) {
                Err(ConfigError::Invalid(said)) => {
                    assert!(said.contains(message), "{name}={value}: {said}");
                }
                other => panic!("{name}={value} was not refused as invalid: {other:?}"),
            }
        }
        assert!(
            Config::from_sources(None, []).is_ok(),
            "the defaults break a rule"
        );
    }
}
