//! The one door of every REST request the Discord front end makes outside an interaction's
//! answer (channel posts, direct messages, threads, message edits). Each request:
//!
//! - is refused here, without being sent, once Discord refused the bot token (401): a token
//!   that was revoked or reset stays invalid, and every further request would only count
//!   against the address's invalid-request limit. The front end is marked failed in
//!   `/health` at once;
//! - is refused here while the invalid-request budget is spent: Discord bans an address that
//!   makes 10,000 invalid requests (401, 403, 429) in 10 minutes, so this instance stops well
//!   before (`discord.invalid_request_budget`, 5,000 by default) until the window frees;
//! - waits for a place under Discord's global limit (`discord.global_requests_per_second`,
//!   see `global_limit.rs`), so a burst across many channels is spread, not refused;
//! - is given up after `discord.request_timeout_ms` (the wait for a place included): a hung
//!   connection, or serenity's rate limiter sleeping inside the call, holds only the one
//!   channel that waits on it.
//!
//! Interaction answers go through poise and are not held here: Discord does not count them
//! against the bot's rate limits, and they answer a person who is waiting.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serenity::http::HttpError;
use tokio::sync::watch;

use super::super::{BotError, DiscordState, DiscordStatus};
use super::global_limit::GlobalLimit;

/// Discord's window for counting invalid requests.
pub const INVALID_WINDOW: Duration = Duration::from_secs(600);

/// Invalid Webhook Token: an interaction token that expired, not the bot's token.
const INVALID_WEBHOOK_TOKEN: isize = 50027;

/// Why the gate did not let a request through, or gave up on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    #[error(
        "Discord refused the bot token (401): no request is sent until taflbot restarts with a \
         valid discord.token"
    )]
    TokenRevoked,
    #[error(
        "{count} invalid requests (401, 403, 429) in 10 minutes: no request is sent for {wait:?}"
    )]
    BudgetSpent { count: usize, wait: Duration },
    #[error("Discord did not answer within {0:?}")]
    TimedOut(Duration),
}

/// The gate's settings.
#[derive(Debug, Clone, Copy)]
pub struct GateSettings {
    pub request_timeout: Duration,
    pub invalid_budget: u32,
    /// Requests let through in any second (Discord's global limit is 50 per bot token).
    pub global_per_second: u32,
}

impl Default for GateSettings {
    fn default() -> Self {
        GateSettings {
            request_timeout: Duration::from_secs(10),
            invalid_budget: 5_000,
            global_per_second: 50,
        }
    }
}

/// See the module documentation. Shared by the outbox's channel workers and the commands.
#[derive(Debug)]
pub struct RestGate {
    settings: GateSettings,
    /// Where a refused token is reported (`/health`).
    status: Option<DiscordStatus>,
    /// When each invalid request of the last [`INVALID_WINDOW`] came, oldest first; at most
    /// `invalid_budget` of them are kept (that many close the gate).
    invalid: Mutex<VecDeque<Instant>>,
    /// Turns true once Discord refused the token: nothing is sent any more.
    revoked: watch::Sender<bool>,
    global: GlobalLimit,
}

impl RestGate {
    pub fn new(settings: GateSettings, status: Option<DiscordStatus>) -> RestGate {
        RestGate {
            settings,
            status,
            invalid: Mutex::new(VecDeque::new()),
            revoked: watch::channel(false).0,
            global: GlobalLimit::new(settings.global_per_second),
        }
    }

    /// Sends `request` if the gate is open, within the request timeout, and judges Discord's
    /// answer (a refused token closes the gate; 401, 403 and 429 spend the budget).
    pub async fn run<T>(
        &self,
        request: impl Future<Output = Result<T, serenity::Error>>,
    ) -> Result<T, BotError> {
        self.check()?;
        let timeout = self.settings.request_timeout;
        let paced = async {
            self.global.take_place().await;
            request.await
        };
        let answer = match tokio::time::timeout(timeout, paced).await {
            Ok(answer) => answer,
            Err(_) => return Err(BotError::Stopped(Stopped::TimedOut(timeout))),
        };
        if let Err(error) = &answer {
            self.judge(error);
        }
        Ok(answer?)
    }

    /// Whether a request may be sent now; otherwise why not.
    pub fn check(&self) -> Result<(), Stopped> {
        if *self.revoked.borrow() {
            return Err(Stopped::TokenRevoked);
        }
        self.budget_wait(Instant::now())
            .map_or(Ok(()), |(count, wait)| {
                Err(Stopped::BudgetSpent { count, wait })
            })
    }

    /// How long a request may take.
    pub fn request_timeout(&self) -> Duration {
        self.settings.request_timeout
    }

    /// Whether Discord refused the token (nothing is sent any more).
    pub fn is_revoked(&self) -> bool {
        *self.revoked.borrow()
    }

    /// Turns true once Discord refused the token (the gateway is stopped then).
    pub fn revoked(&self) -> watch::Receiver<bool> {
        self.revoked.subscribe()
    }

    /// Notes what Discord's refusal says about the token and the budget.
    fn judge(&self, error: &serenity::Error) {
        let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = error else {
            return;
        };
        let status = response.status_code.as_u16();
        if matches!(status, 401 | 403 | 429) {
            self.note_invalid(Instant::now());
        }
        if status == 401 && response.error.code != INVALID_WEBHOOK_TOKEN {
            self.revoke();
        }
    }

    /// Closes the gate for good (until the process restarts) and says so in `/health`.
    fn revoke(&self) {
        if self.revoked.send_replace(true) {
            return;
        }
        let error = Stopped::TokenRevoked.to_string();
        tracing::error!("Discord front end stopped: {error}");
        if let Some(status) = &self.status {
            status.set(DiscordState::Failed { error });
        }
    }

    fn note_invalid(&self, now: Instant) {
        let budget = self.budget();
        let mut invalid = lock(&self.invalid);
        forget_before(&mut invalid, now);
        if invalid.len() >= budget {
            return;
        }
        invalid.push_back(now);
        if invalid.len() == budget {
            tracing::error!(
                budget,
                "Discord invalid-request budget spent: no REST request for up to 10 minutes \
                 (discord.invalid_request_budget; Discord bans an address at 10,000)"
            );
        }
    }

    fn budget(&self) -> usize {
        usize::try_from(self.settings.invalid_budget.max(1)).unwrap_or(usize::MAX)
    }

    /// When the budget is spent: how many invalid requests count, and how long until the
    /// oldest leaves the window.
    fn budget_wait(&self, now: Instant) -> Option<(usize, Duration)> {
        let mut invalid = lock(&self.invalid);
        forget_before(&mut invalid, now);
        if invalid.len() < self.budget() {
            return None;
        }
        let oldest = *invalid.front()?;
        let wait = (oldest + INVALID_WINDOW).saturating_duration_since(now);
        Some((invalid.len(), wait))
    }
}

/// Drops the invalid requests that left the window.
fn forget_before(invalid: &mut VecDeque<Instant>, now: Instant) {
    while invalid
        .front()
        .is_some_and(|at| now.saturating_duration_since(*at) >= INVALID_WINDOW)
    {
        invalid.pop_front();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(budget: u32) -> RestGate {
        RestGate::new(
            GateSettings {
                request_timeout: Duration::from_millis(50),
                invalid_budget: budget,
                ..GateSettings::default()
            },
            None,
        )
    }

    #[test]
    fn the_budget_closes_the_gate_until_the_oldest_invalid_request_leaves_the_window() {
        let gate = gate(3);
        let start = Instant::now();
        for i in 0..3 {
            assert!(gate.budget_wait(start).is_none(), "open before {i}");
            gate.note_invalid(start + Duration::from_secs(i));
        }
        let (count, wait) = gate.budget_wait(start + Duration::from_secs(10)).unwrap();
        assert_eq!(count, 3);
        assert_eq!(wait, INVALID_WINDOW - Duration::from_secs(10));
        // The first one leaves the window: one more may be tried.
        assert!(gate.budget_wait(start + INVALID_WINDOW).is_none());
    }

    #[test]
    fn the_kept_times_never_exceed_the_budget() {
        let gate = gate(2);
        let now = Instant::now();
        for _ in 0..10 {
            gate.note_invalid(now);
        }
        assert_eq!(lock(&gate.invalid).len(), 2);
    }

    #[tokio::test]
    async fn a_request_that_does_not_answer_is_given_up_at_the_timeout() {
        let gate = gate(10);
        let hung = std::future::pending::<Result<(), serenity::Error>>();
        match gate.run(hung).await {
            Err(BotError::Stopped(Stopped::TimedOut(after))) => {
                assert_eq!(after, Duration::from_millis(50));
            }
            other => panic!("not timed out: {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_revoked_token_stops_every_request_and_marks_discord_failed() {
        let status = DiscordStatus::new(DiscordState::Connected);
        let gate = RestGate::new(GateSettings::default(), Some(status.clone()));
        gate.revoke();
        assert!(gate.is_revoked());
        assert_eq!(gate.check(), Err(Stopped::TokenRevoked));
        assert!(status.get().is_failed());
        // Were it sent, its own error would come back instead.
        let request = std::future::ready(Err::<(), _>(serenity::Error::Other("sent")));
        assert!(matches!(
            gate.run(request).await,
            Err(BotError::Stopped(Stopped::TokenRevoked))
        ));
    }
}
