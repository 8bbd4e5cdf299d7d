//! Settings of the whole application: read from a TOML file (see `config.example.toml`),
//! then overridden by `TAFLBOT_<SECTION>_<KEY>` environment variables (`config/src/sources.rs`),
//! then checked (`config/src/rules.rs`).

pub mod backoff;
pub mod health;
pub mod logging;
pub mod shard_health;
pub mod telemetry;
use taflbot_domain as domain;
use taflbot_domain::client_addr;
use taflbot_domain::webhook_target;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

mod database_location;
mod discord_shards;
mod discord_stand_in;
mod mail;
mod rules;
mod sources;

pub use database_location::DatabaseLocation;
pub use discord_shards::ShardPlan;
pub use discord_stand_in::DiscordStandIn;
pub use mail::MailConfig;

/// Prefix of every environment variable that overrides a setting.
pub const ENV_PREFIX: &str = "TAFLBOT_";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read or is not TOML, or a setting in it or in a variable is unknown
    /// or of the wrong type; figment's message names the file or the variable.
    #[error("cannot load the settings: {0}")]
    Load(Box<figment::Error>),
    #[error("invalid setting: {0}")]
    Invalid(String),
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub database: DatabaseConfig,
    pub http: HttpConfig,
    pub games: GamesConfig,
    pub webhooks: WebhooksConfig,
    pub discord: DiscordConfig,
    pub mail: MailConfig,
    pub log: LogConfig,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// Which database: `sqlite://path` or a bare file path, or `postgres://...` (a database
    /// several instances may share). Empty: the SQLite file at `path`.
    pub url: String,
    /// SQLite file; created when absent. Used when `url` is empty.
    pub path: PathBuf,
    /// Read-only connections kept for queries (the single writer is separate).
    pub readers: usize,
    /// SQLite: how long a connection waits for a lock before giving up.
    pub busy_timeout_ms: u64,
    /// PostgreSQL: how long opening a connection may take (unless the URL sets
    /// `connect_timeout`); 0: the system's TCP timeout.
    pub connect_timeout_ms: u64,
    /// PostgreSQL: the longest a statement may run (`statement_timeout`); 0: no limit.
    pub statement_timeout_ms: u64,
    /// PostgreSQL: the longest a statement waits for a lock another session holds
    /// (`lock_timeout`); 0: no limit.
    pub lock_timeout_ms: u64,
    /// Most writes committed together in one durable transaction (group commit).
    pub max_batch: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    pub enabled: bool,
    pub listen: String,
    /// Whether `POST /api/v1/players` may register new players.
    pub allow_registration: bool,
    pub body_limit_bytes: usize,
    /// Sustained requests per second allowed per API token.
    #[serde(deserialize_with = "sources::exact_f64")]
    pub rate_limit_per_second: f64,
    /// Requests a token may make in a burst above the sustained rate.
    pub rate_limit_burst: u32,
    /// Sustained registrations (`POST /api/v1/players`) per minute per client address.
    #[serde(deserialize_with = "sources::exact_f64")]
    pub registration_per_minute: f64,
    /// Registrations one client address may make at once above that rate.
    pub registration_burst: u32,
    /// Sustained requests per second per client address without a token (public games,
    /// players, leaderboards).
    #[serde(deserialize_with = "sources::exact_f64")]
    pub anonymous_per_second: f64,
    /// Requests without a token one client address may make at once above that rate.
    pub anonymous_burst: u32,
    /// Rendered boards kept in memory.
    pub board_cache_entries: usize,
    /// Seconds between keep-alive lines on the event stream.
    pub stream_keepalive_secs: u64,
    /// Event streams one player may hold open at once (all their tokens together).
    pub max_streams_per_player: usize,
    /// Event streams the server holds open at once.
    pub max_streams: usize,
    /// Connections open at once (lowered at start to fit the file-descriptor limit).
    pub max_connections: usize,
    /// Connections one client address (an IPv6 client by its /64) may hold open at once;
    /// beyond, a new connection is closed as soon as it is accepted. Trusted proxies are
    /// not counted (every client behind one shares its address).
    pub max_connections_per_address: usize,
    /// A request's headers must arrive within this; an idle keep-alive connection is closed
    /// after it. Each connection gets between half and all of it, at random.
    pub header_read_timeout_ms: u64,
    /// A request's body must arrive whole within this (from the request's start); beyond,
    /// `408` and the connection is closed.
    pub body_timeout_ms: u64,
    /// A request must be answered within this (its body included); a request still waiting
    /// then (on a stuck database) is answered `503` with `Retry-After`. A streamed answer
    /// counts as answered once it starts.
    pub request_timeout_ms: u64,
    /// Failed sign-ins (an API token pasted into the web client's form that is not valid, a
    /// used or unknown sign-in link) per minute per client address, sustained.
    #[serde(deserialize_with = "sources::exact_f64")]
    pub sign_in_failures_per_minute: f64,
    /// Failed sign-ins one client address may make at once above that rate.
    pub sign_in_failures_burst: u32,
    /// Where people reach this server, e.g. `https://tafl.example.org` (no trailing slash):
    /// the start of sign-in links, and `https` here marks the session cookie `Secure`.
    /// Empty: `http://` and `listen`.
    pub public_url: String,
    /// Reverse proxies in front of taflbot (addresses like `127.0.0.1`, networks like
    /// `10.0.0.0/8`): a connection from one of them is counted against the client address it
    /// reports in `X-Forwarded-For`, not its own. Empty (the default): the header is ignored.
    /// In the environment: a comma-separated list.
    #[serde(deserialize_with = "sources::list_or_text")]
    pub trusted_proxies: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct GamesConfig {
    /// A pending challenge expires after this many seconds.
    pub challenge_expiry_secs: u64,
    /// Reminders are sent this many seconds before a player's deadline, one for each entry
    /// (the longest first; a turn shorter than an entry gets only the shorter ones). The older
    /// single `reminder_before_secs` is read as a list of one.
    #[serde(
        alias = "reminder_before_secs",
        deserialize_with = "sources::list_or_text"
    )]
    pub reminders_before_secs: Vec<u64>,
    /// A game without a clock reminds the player to move after this many seconds without a
    /// move, and again after each further period; 0: never.
    pub inactivity_reminder_secs: u64,
    /// How often the scheduler looks for timeouts, reminders and expired challenges.
    pub scheduler_interval_ms: u64,
    /// Highest AI level accepted in challenges (also bounded by the AI's own levels).
    pub max_ai_level: u8,
    /// The shortest time per move a clock may give, in seconds: a `per_move` clock's time, a
    /// `bank` clock's bank and its increment (unless 0). Shorter is not correspondence play.
    /// 3600 by default.
    pub min_move_clock_secs: u64,
    /// A bank clock's increment never raises a bank above this many times its initial bank.
    #[serde(deserialize_with = "sources::exact_f64")]
    pub max_bank_ratio: f64,
    /// Vacation days each player has in any 365 days (a rolling year): taken on request, or
    /// spent a day at a time when a correspondence clock would otherwise run out. 0: none.
    pub vacation_days_per_year: u32,
    /// Search time per position of a computer analysis, in milliseconds.
    pub analysis_ms_per_ply: u32,
    /// Analyses waiting at most; asking for one more is refused until the queue shortens.
    pub analysis_max_queued: u32,
    /// Search threads of an analysis (0: every core).
    pub analysis_threads: u32,
    /// Analyses one player may have waiting at once.
    pub analysis_max_queued_per_player: u32,
    /// Analyses a new account may have waiting at once (at most the above): an account is
    /// new while it is younger than `analysis_new_account_hours` or has no finished game, so
    /// accounts made by the dozen to fill the queue get a small share each.
    pub analysis_max_queued_new_account: u32,
    /// How long an account counts as new for the analysis queue, in hours (0: only a finished
    /// game makes it established).
    pub analysis_new_account_hours: u64,
    /// Analyses the accounts asking from one client address (an IPv6 client by its /64) may
    /// have waiting together, so that one address cannot fill the queue
    /// (`analysis_max_queued`) and others are still served.
    pub analysis_max_queued_per_address: u32,
    /// Searches (AI turns, hints, analysis positions) that run at once (0: one per core).
    pub engine_workers: u32,
    /// Of those, how many may take every core (the strongest AI level, an analysis on every
    /// thread) at once.
    pub engine_strong_at_once: u32,
    /// Hints one player may have waiting for the engine at once.
    pub hints_waiting_per_player: u32,
    /// Games against the AI one player may have going at once (0: no limit).
    pub max_ai_games_per_player: u32,
    /// A player waits this long between two new games against the AI (0: no wait).
    pub ai_game_cooldown_secs: u64,
    /// A player waits this long between two hints, and between two refutations of wrong
    /// puzzle moves (a try within it is answered without one) (0: no wait).
    pub hint_cooldown_secs: u64,
    /// A player waits this long between asking for two new analyses (0: no wait).
    pub analysis_cooldown_secs: u64,
    /// How often the daily puzzle is looked for where it is due (seconds, at least 1).
    pub daily_puzzle_check_secs: u64,
    /// Whether the opening explorer shows the engine's view beside the human figures: the
    /// positions asked about are searched in the background (a core's worth while many new
    /// positions are asked; off on a machine whose cores are wanted for answers and AI turns).
    pub explorer_evaluation: bool,
    /// A web sign-in link works once, for this many minutes.
    pub login_link_minutes: u64,
    /// A browser session lasts this many days (signing out ends it sooner).
    pub web_session_days: u64,
    /// Several instances on one database: how long an instance's claim on a job (a webhook
    /// delivery, a Discord post, an AI turn) stands; another instance takes the job over once
    /// it lapses (the claimer died). Longer than any one job takes.
    pub claim_lease_secs: u64,
    /// Titles by rating per variant, each `TITLE:RATING` (GM, IM, FM, CM, AM): a player's
    /// title is the highest whose rating their non-provisional rating reaches. The World Tafl
    /// Federation's by default; empty: no titles.
    #[serde(deserialize_with = "sources::list_or_text")]
    pub titles: Vec<crate::domain::TitleThreshold>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct WebhooksConfig {
    pub enabled: bool,
    /// Deliveries are given up after this many failed attempts.
    pub max_attempts: u32,
    /// Delay before the first retry; doubled after each failure.
    pub initial_backoff_ms: u64,
    pub max_backoff_ms: u64,
    /// How long one delivery may take before it counts as failed.
    pub timeout_ms: u64,
    /// Deliveries in flight at once, to all endpoints together.
    pub max_in_flight: usize,
    /// Deliveries in flight at once to one endpoint (one webhook URL): a slow endpoint holds
    /// this many places at most, and the others are delivered beside it.
    pub max_in_flight_per_endpoint: usize,
    /// Failed deliveries in a row after which an endpoint is left alone for a while (its
    /// circuit opens): its due deliveries wait, without counting as attempts, until one
    /// trial delivery succeeds. The wait doubles (with full jitter) from
    /// `initial_backoff_ms` up to `max_backoff_ms` each time the trial fails.
    pub breaker_failures: u32,
    /// How often the outbox is polled for due retries.
    pub poll_interval_ms: u64,
    /// A webhook whose endpoint has failed every delivery for this long is given up: its
    /// pending deliveries are marked failed and no new ones are queued (its listing says so).
    /// The breaker's waits are not attempts, so without this an endpoint gone for good keeps
    /// its deliveries pending for long. 0: never.
    pub give_up_after_secs: u64,
    /// Webhook targets the operator trusts: addresses (`127.0.0.1`), networks (`10.0.0.0/8`)
    /// and hosts (`hooks.internal`, `hooks.internal:8443`). Anything else must be https and
    /// resolve to public addresses only. In the environment: a comma-separated list.
    #[serde(deserialize_with = "sources::list_or_text")]
    pub allow_private: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// Bot token; when absent or empty, the Discord front end stays off.
    pub token: Option<String>,
    /// Base URL of the Discord REST API (a local fake in tests).
    pub api_base: String,
    /// Register the slash commands in this guild only (instant) instead of globally.
    pub guild_id: Option<u64>,
    /// First wait before retrying a failed post, registration or gateway connection (doubled
    /// each try).
    pub retry_base_ms: u64,
    /// The bot's gateway shards in all, or `"auto"` (also when absent, with `shards` empty:
    /// the count Discord recommends, read at each gateway start). See
    /// `config/src/discord_shards.rs`.
    #[serde(deserialize_with = "discord_shards::count_or_auto")]
    pub shard_count: Option<u16>,
    /// This instance's shards of `shard_count`: `"0-3"`, `"5"`, or empty for all of them.
    pub shards: String,
    /// Whether `serve` registers the slash commands (once per start, retried with back-off
    /// until Discord takes them). Absent: only the instance that runs shard 0 does, so one
    /// instance (or the first of several) needs no extra step and a rolling deploy has one
    /// writer. `false`: never; register as a deploy step with `taflbot discord register`.
    pub register_commands: Option<bool>,
    /// Each REST request the bot makes outside an interaction's answer (posts, direct
    /// messages, threads, edits) is given up after this long, so one hung connection holds
    /// only its own channel (docs/discord.md, "Delivery").
    pub request_timeout_ms: u64,
    /// Channels (and players' direct messages) delivered to at once by this instance; each
    /// channel's posts still go out one after another, in order.
    pub delivery_channels: usize,
    /// Invalid requests (401, 403, 429) in any 10 minutes after which this instance sends no
    /// REST request until the window frees: Discord bans an address for 10,000. With several
    /// instances behind one address, give each its share.
    pub invalid_request_budget: u32,
    /// REST requests outside interaction answers this instance sends in any second at most:
    /// Discord's global limit is 50 per bot token, so several instances of one token share
    /// it (two: 25 each).
    pub global_requests_per_second: u32,
    /// How long a channel (or game thread) refusing the bot's posts with Missing Access
    /// (50001) or Missing Permissions (50013) is tried again, with back-off, before its games
    /// leave it: long enough for an admin reworking permissions.
    pub refused_access_retry_secs: u64,
    /// The application's public key (Developer Portal, General Information), 64 hexadecimal
    /// digits: when set, interactions are also taken over HTTP at `/discord/interactions`
    /// (Discord's Interactions Endpoint URL; docs/discord.md, "Several instances").
    pub interactions_public_key: String,
    /// A command or button whose answer is not ready after this long is acknowledged with a
    /// deferral (the answer then edits or follows it), so Discord's 3 seconds are never missed
    /// whatever the work behind it (docs/discord.md, "Answered in time").
    pub defer_after_ms: u64,
    /// How long the games of a server that removed the bot stay paused waiting for it to come
    /// back (then they resume in their channels); after it they go on over HTTP and the
    /// server's Discord data is deleted.
    pub removed_server_grace_days: u64,
    /// The address of the operator's privacy statement (the one given to Discord in the
    /// Developer Portal), shown by `/privacy`; empty: taflbot's own, docs/privacy.md.
    pub privacy_policy_url: String,
    /// A local stand-in for discord.com (tests only): set by code, never read from a file or
    /// the environment (`config/src/discord_stand_in.rs`).
    #[serde(skip)]
    pub stand_in: Option<DiscordStandIn>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// tracing filter, e.g. "info" or "taflbot=debug,info".
    pub filter: String,
    /// How lines are written: `auto` (coloured text on a terminal, plain text otherwise),
    /// `text` (plain text), or `json` (one object per line).
    pub format: LogFormat,
}

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    #[default]
    Auto,
    Text,
    Json,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            url: String::new(),
            path: PathBuf::from("./taflbot.db"),
            readers: 4,
            busy_timeout_ms: 5_000,
            connect_timeout_ms: 5_000,
            statement_timeout_ms: 5_000,
            lock_timeout_ms: 2_000,
            max_batch: 256,
        }
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            enabled: true,
            listen: "127.0.0.1:8080".to_owned(),
            allow_registration: true,
            body_limit_bytes: 64 * 1024,
            rate_limit_per_second: 20.0,
            rate_limit_burst: 40,
            registration_per_minute: 2.0,
            registration_burst: 5,
            anonymous_per_second: 2.0,
            anonymous_burst: 30,
            board_cache_entries: 2_000,
            stream_keepalive_secs: 15,
            max_streams_per_player: 5,
            max_streams: 10_000,
            max_connections: 20_000,
            max_connections_per_address: 256,
            header_read_timeout_ms: 5_000,
            body_timeout_ms: 10_000,
            request_timeout_ms: 10_000,
            sign_in_failures_per_minute: 10.0,
            sign_in_failures_burst: 10,
            public_url: String::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

impl Default for GamesConfig {
    fn default() -> Self {
        GamesConfig {
            challenge_expiry_secs: 7 * 24 * 3600,
            reminders_before_secs: vec![24 * 3600, 2 * 3600],
            inactivity_reminder_secs: 3 * 24 * 3600,
            scheduler_interval_ms: 5_000,
            max_ai_level: 5,
            min_move_clock_secs: 3_600,
            max_bank_ratio: 3.0,
            vacation_days_per_year: 14,
            analysis_ms_per_ply: 500,
            analysis_max_queued: 100,
            analysis_threads: 0,
            analysis_max_queued_per_player: 3,
            analysis_max_queued_new_account: 1,
            analysis_new_account_hours: 24,
            analysis_max_queued_per_address: 10,
            engine_workers: 0,
            engine_strong_at_once: 1,
            hints_waiting_per_player: 2,
            max_ai_games_per_player: 20,
            ai_game_cooldown_secs: 2,
            hint_cooldown_secs: 5,
            analysis_cooldown_secs: 2,
            daily_puzzle_check_secs: 60,
            explorer_evaluation: true,
            login_link_minutes: 15,
            web_session_days: 30,
            claim_lease_secs: 60,
            titles: crate::domain::TitleThreshold::defaults(),
        }
    }
}

impl Default for WebhooksConfig {
    fn default() -> Self {
        WebhooksConfig {
            enabled: true,
            max_attempts: 12,
            initial_backoff_ms: 2_000,
            max_backoff_ms: 3_600_000,
            timeout_ms: 10_000,
            max_in_flight: 64,
            max_in_flight_per_endpoint: 4,
            breaker_failures: 5,
            poll_interval_ms: 1_000,
            give_up_after_secs: 3 * 24 * 3600,
            allow_private: Vec::new(),
        }
    }
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            token: None,
            api_base: "https://discord.com/api".to_owned(),
            guild_id: None,
            retry_base_ms: 1_000,
            shard_count: None,
            shards: String::new(),
            register_commands: None,
            request_timeout_ms: 10_000,
            delivery_channels: 8,
            invalid_request_budget: 5_000,
            global_requests_per_second: 50,
            refused_access_retry_secs: 600,
            interactions_public_key: String::new(),
            defer_after_ms: 500,
            removed_server_grace_days: 14,
            privacy_policy_url: String::new(),
            stand_in: None,
        }
    }
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            filter: "info".to_owned(),
            format: LogFormat::Auto,
        }
    }
}

impl DiscordConfig {
    /// The token when the Discord front end should run.
    pub fn enabled_token(&self) -> Option<&str> {
        self.token
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
    }

    /// The operator's privacy statement, if they gave its address.
    pub fn privacy_policy_url(&self) -> Option<String> {
        Some(self.privacy_policy_url.trim().to_owned()).filter(|url| !url.is_empty())
    }

    /// How long a server that removed the bot keeps its games paused and its data.
    pub fn removed_server_grace(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.removed_server_grace_days.saturating_mul(24 * 3600))
    }
}

impl WebhooksConfig {
    /// Where webhooks may be delivered, read from `allow_private`.
    pub fn target_policy(&self) -> Result<crate::webhook_target::TargetPolicy, ConfigError> {
        crate::webhook_target::TargetPolicy::new(&self.allow_private)
            .map_err(|e| ConfigError::Invalid(e.to_string()))
    }
}

impl HttpConfig {
    /// The proxies whose `X-Forwarded-For` is believed, read from `trusted_proxies`.
    pub fn trusted_proxies(&self) -> Result<crate::client_addr::TrustedProxies, ConfigError> {
        crate::client_addr::TrustedProxies::new(&self.trusted_proxies)
            .map_err(|e| ConfigError::Invalid(e.to_string()))
    }

    /// The start of the server's own addresses (sign-in links, the web client): `public_url`,
    /// else `http://` and `listen` ([`HttpConfig::site_url`] without a bound address).
    pub fn base_url(&self) -> String {
        self.site_url(None)
    }

    /// The address people open: `public_url` when set, else `http://` and the address the
    /// server is bound to (`bound`, once it listens: port 0 is then a real port), else
    /// `listen`. A wildcard address (`0.0.0.0`, `::`) is no place to open, so its loopback
    /// stands in: the link works on the server's own machine. `serve` (its start-up log,
    /// Discord's `/web`) and `taflbot login-link` all build their links here.
    pub fn site_url(&self, bound: Option<SocketAddr>) -> String {
        let url = self.public_url.trim().trim_end_matches('/');
        if !url.is_empty() {
            return url.to_owned();
        }
        match bound.or_else(|| self.listen.parse().ok()) {
            Some(mut addr) => {
                if addr.ip().is_unspecified() {
                    addr.set_ip(match addr {
                        SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                        SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
                    });
                }
                format!("http://{addr}")
            }
            None => format!("http://{}", self.listen.trim()),
        }
    }

    /// Whether people reach the server over https: its session cookie is then `Secure`.
    pub fn served_over_https(&self) -> bool {
        self.public_url.trim().starts_with("https://")
    }

    pub fn listen_addr(&self) -> Result<SocketAddr, ConfigError> {
        self.listen.parse().map_err(|e| {
            ConfigError::Invalid(format!(
                "http.listen {:?} is not an address like 127.0.0.1:8080: {e}",
                self.listen
            ))
        })
    }
}

impl Config {
    /// Reads `path` (when given; a missing file is an error) and applies the process environment.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        Config::from_sources(path, std::env::vars())
    }

    /// Reads `file` (when given) and applies the `TAFLBOT_<SECTION>_<KEY>` variables in `env`
    /// over it, then checks the result.
    pub fn from_sources(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let config: Config = sources::figment(file, env)?
            .extract_lossy()
            .map_err(|e| ConfigError::Load(Box::new(e)))?;
        config.validate()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// `toml` as the config file, under the variables in `vars`.
    fn load(toml: &str, vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("taflbot.toml");
        std::fs::write(&file, toml).unwrap();
        Config::from_sources(Some(&file), env(vars))
    }

    #[test]
    fn the_site_url_is_the_public_one_else_an_address_that_opens() {
        let mut http = HttpConfig {
            listen: "0.0.0.0:8080".into(),
            ..HttpConfig::default()
        };
        assert_eq!(http.site_url(None), "http://127.0.0.1:8080");
        let bound: SocketAddr = "[::]:9000".parse().unwrap();
        assert_eq!(http.site_url(Some(bound)), "http://[::1]:9000");
        http.public_url = "https://tafl.example.org/".into();
        assert_eq!(http.site_url(Some(bound)), "https://tafl.example.org");
        assert_eq!(http.base_url(), "https://tafl.example.org");
    }

    #[test]
    fn reminders_are_a_list_and_the_older_single_setting_still_reads() {
        let c = load("", &[]).unwrap();
        assert_eq!(c.games.reminders_before_secs, vec![86_400, 7_200]);
        let old = load("[games]\nreminder_before_secs = 43200\n", &[]).unwrap();
        assert_eq!(old.games.reminders_before_secs, vec![43_200]);
        let from_env = load("", &[("TAFLBOT_GAMES_REMINDERS_BEFORE_SECS", "3600, 600")]).unwrap();
        assert_eq!(from_env.games.reminders_before_secs, vec![3_600, 600]);
        let one = load("", &[("TAFLBOT_GAMES_REMINDERS_BEFORE_SECS", "3600")]).unwrap();
        assert_eq!(one.games.reminders_before_secs, vec![3_600]);
        let err = load("", &[("TAFLBOT_GAMES_REMINDERS_BEFORE_SECS", "soon")]).unwrap_err();
        assert!(
            err.to_string()
                .contains("TAFLBOT_GAMES_REMINDERS_BEFORE_SECS"),
            "{err}"
        );
    }

    #[test]
    fn defaults_match_the_documented_ones() {
        let c = Config::from_sources(None, env(&[])).unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.database.path, PathBuf::from("./taflbot.db"));
        assert_eq!(c.http.listen, "127.0.0.1:8080");
        assert!(c.discord.enabled_token().is_none());
    }

    #[test]
    fn the_example_file_sets_every_key_and_parses() {
        let text = include_str!("../../config.example.toml");
        let c = load(text, &[]).unwrap();
        // Every key of the defaults must be documented in the example.
        let defaults = toml::Table::try_from(Config::default()).unwrap();
        let example: toml::Table = toml::from_str(text).unwrap();
        for (section, keys) in &defaults {
            for key in keys.as_table().unwrap().keys() {
                let documented = example.get(section).and_then(|s| s.get(key)).is_some()
                    || text.contains(&format!("# {key} ="));
                assert!(documented, "{section}.{key} is not in config.example.toml");
            }
        }
        assert_eq!(c.http.listen, "127.0.0.1:8080");
    }

    #[test]
    fn environment_overrides_file_with_typed_values() {
        let text = "[http]\nlisten = \"0.0.0.0:9000\"\nallow_registration = true\n";
        let c = load(
            text,
            &[
                ("TAFLBOT_HTTP_ALLOW_REGISTRATION", "false"),
                ("TAFLBOT_DATABASE_PATH", "/tmp/other.db"),
                ("TAFLBOT_DISCORD_TOKEN", "abc"),
                ("TAFLBOT_DISCORD_GUILD_ID", "1234"),
                ("TAFLBOT_HTTP_RATE_LIMIT_PER_SECOND", "2.5"),
                ("TAFLBOT_GAMES_MAX_BANK_RATIO", "1.1"),
                (
                    "TAFLBOT_WEBHOOKS_ALLOW_PRIVATE",
                    "127.0.0.1, 10.0.0.0/8,hooks.internal:8443",
                ),
                ("TAFLBOT_CONFIG", "ignored.toml"),
            ],
        )
        .unwrap();
        assert_eq!(c.http.listen, "0.0.0.0:9000");
        assert!(!c.http.allow_registration);
        assert_eq!(c.database.path, PathBuf::from("/tmp/other.db"));
        assert_eq!(c.discord.enabled_token(), Some("abc"));
        assert_eq!(c.discord.guild_id, Some(1234));
        assert_eq!(c.http.rate_limit_per_second, 2.5);
        assert_eq!(c.games.max_bank_ratio, 1.1);
        assert_eq!(
            c.webhooks.allow_private,
            ["127.0.0.1", "10.0.0.0/8", "hooks.internal:8443"]
        );
        let from_url = load(
            "[database]\npath = \"./file.db\"\n",
            &[("TAFLBOT_DATABASE_URL", "sqlite:///srv/taflbot.db")],
        )
        .unwrap();
        assert_eq!(
            from_url.database.location().ok(),
            Some(DatabaseLocation::Sqlite(PathBuf::from("/srv/taflbot.db")))
        );
        let err = load("", &[("TAFLBOT_DATABASE_URL", "redis://cache")]).unwrap_err();
        assert!(err.to_string().contains("database.url"), "{err}");
    }

    #[test]
    fn booleans_read_every_usual_spelling() {
        for (raw, value) in [
            ("true", true),
            ("1", true),
            ("yes", true),
            ("on", true),
            ("false", false),
            ("0", false),
            ("no", false),
            ("off", false),
        ] {
            let c = load("", &[("TAFLBOT_WEBHOOKS_ENABLED", raw)]).unwrap();
            assert_eq!(c.webhooks.enabled, value, "{raw}");
        }
        assert!(load("", &[("TAFLBOT_WEBHOOKS_ENABLED", "maybe")]).is_err());
    }

    #[test]
    fn text_settings_keep_numeric_looking_values_as_written() {
        let c = load(
            "[discord]\nshard_count = 8\n",
            &[
                ("TAFLBOT_DISCORD_TOKEN", "12345"),
                ("TAFLBOT_DISCORD_SHARDS", "4"),
                ("TAFLBOT_DATABASE_PATH", "0123"),
                ("TAFLBOT_LOG_FILTER", "true"),
            ],
        )
        .unwrap();
        assert_eq!(c.discord.token.as_deref(), Some("12345"));
        assert_eq!(c.discord.shards, "4");
        assert_eq!(c.database.path, PathBuf::from("0123"));
        assert_eq!(c.log.filter, "true");
        let proxy = load("", &[("TAFLBOT_HTTP_TRUSTED_PROXIES", "10.0.0.1")]).unwrap();
        assert_eq!(proxy.http.trusted_proxies, ["10.0.0.1"]);
    }

    #[test]
    fn file_errors_name_the_file() {
        let missing = Path::new("/nonexistent/taflbot-settings.toml");
        let err = Config::from_sources(Some(missing), env(&[])).unwrap_err();
        assert!(
            matches!(err, ConfigError::Load(_))
                && err.to_string().contains(&missing.display().to_string()),
            "{err}"
        );
        for broken in ["[http\nlisten = 1", "[http]\nbody_limit_bytes = \"lots\"\n"] {
            let err = load(broken, &[]).unwrap_err();
            assert!(err.to_string().contains("taflbot.toml"), "{broken}: {err}");
        }
    }

    #[test]
    fn unreadable_networks_and_bank_ratios_are_refused() {
        let err = load("[webhooks]\nallow_private = [\"10.0.0.0/40\"]\n", &[]).unwrap_err();
        assert!(err.to_string().contains("10.0.0.0/40"), "{err}");
        let err = load(
            "",
            &[("TAFLBOT_HTTP_TRUSTED_PROXIES", "127.0.0.1, proxy.internal")],
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .contains("http.trusted_proxies: \"proxy.internal\" is not an address"),
            "{err}"
        );
        let proxies = load(
            "",
            &[("TAFLBOT_HTTP_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8")],
        )
        .unwrap();
        assert_eq!(proxies.http.trusted_proxies, ["127.0.0.1", "10.0.0.0/8"]);
        let err = load("", &[("TAFLBOT_GAMES_MAX_BANK_RATIO", "0.5")]).unwrap_err();
        assert!(err.to_string().contains("max_bank_ratio"), "{err}");
    }

    #[test]
    fn bad_values_name_the_variable() {
        let err = load("", &[("TAFLBOT_HTTP_BODY_LIMIT_BYTES", "lots")]).unwrap_err();
        assert!(
            err.to_string().contains("TAFLBOT_HTTP_BODY_LIMIT_BYTES"),
            "{err}"
        );
        let err = load("", &[("TAFLBOT_HTTP_NOPE", "1")]).unwrap_err();
        assert!(err.to_string().contains("nope"), "{err}");
        let err = load("[http]\nlisten = \"here\"\n", &[]).unwrap_err();
        assert!(err.to_string().contains("http.listen"), "{err}");
    }
}
