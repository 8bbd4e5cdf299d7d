//! `[mail]`: turn notices by mail, for players away from the browser (docs/web.md, "Turn
//! notices by mail"). No `smtp_url`: the feature is off, and the web's settings page says so.

use serde::{Deserialize, Serialize};

use super::ConfigError;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MailConfig {
    /// The SMTP server: `smtps://user:pass@host:465` (TLS), `smtp://user:pass@host:587?tls=required`
    /// (STARTTLS), or `smtp://localhost:25` (plain, for a relay on this machine). Empty: off.
    pub smtp_url: String,
    /// The sender, `taflbot <tafl@example.org>`.
    pub from: String,
    /// Where the links in mails point; empty: `http.public_url`, else the address HTTP listens on.
    pub base_url: String,
    /// A notice goes out when the player has not been on the web for this long after it became
    /// their turn (an open tab counts as being there).
    pub away_minutes: u64,
    /// Turn notice mails per player per hour at most; more games wait for the next, in one mail.
    pub max_per_hour: u32,
    /// How long a confirmation link works.
    pub confirm_link_hours: u64,
    /// Confirmation mails per player per day at most (each new address sends one).
    pub confirmations_per_day: u32,
    /// One SMTP attempt (connect, greet, send) may take this long.
    pub timeout_ms: u64,
    /// A mail is given up after this many failed attempts.
    pub max_attempts: u32,
    /// Delay before the first retry, doubled (with jitter) after each failure up to `max_backoff_ms`.
    pub initial_backoff_ms: u64,
    pub max_backoff_ms: u64,
    /// How often the notices owed and the mails due are looked at.
    pub poll_interval_ms: u64,
    /// Mails waiting to go out, in all, beyond which no new notice is made (they wait) and no
    /// new address is taken: a dead SMTP server never fills the database.
    pub max_queued: u64,
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            smtp_url: String::new(),
            from: String::new(),
            base_url: String::new(),
            away_minutes: 10,
            max_per_hour: 4,
            confirm_link_hours: 24,
            confirmations_per_day: 3,
            timeout_ms: 20_000,
            max_attempts: 10,
            initial_backoff_ms: 60_000,
            max_backoff_ms: 3_600_000,
            poll_interval_ms: 2_000,
            max_queued: 10_000,
        }
    }
}

impl MailConfig {
    /// Whether an SMTP server is configured.
    pub fn enabled(&self) -> bool {
        !self.smtp_url.trim().is_empty()
    }

    /// Refuses settings that cannot work, naming the key.
    pub fn check(&self) -> Result<(), ConfigError> {
        if !self.enabled() {
            return Ok(());
        }
        let url = self.smtp_url.trim();
        if !(url.starts_with("smtp://") || url.starts_with("smtps://")) {
            return Err(ConfigError::Invalid(
                "mail.smtp_url must start with smtp:// or smtps://".into(),
            ));
        }
        if self.from.trim().is_empty() {
            return Err(ConfigError::Invalid(
                "mail.from must name the sender when mail.smtp_url is set, e.g. \"taflbot <tafl@example.org>\"".into(),
            ));
        }
        if self.max_per_hour == 0 {
            return Err(ConfigError::Invalid(
                "mail.max_per_hour must be at least 1".into(),
            ));
        }
        Ok(())
    }
}
