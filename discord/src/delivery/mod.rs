//! The delivery layer: every REST request the Discord front end makes outside an interaction's
//! answer goes through one [`RestGate`] (request timeouts, a refused token stops everything,
//! the invalid-request budget), and the Discord outbox is delivered by one dispatcher that
//! runs up to `discord.delivery_channels` channels at once, each channel's posts one after
//! another, in order (a channel's next post is claimed only once its previous one is done).
//!
//! Every post the service queued goes out at least once and is marked delivered only after
//! Discord accepted it; a failed post is retried with back-off; one that can never succeed is
//! given up after a few tries and logged once, while the game goes on (`post.rs`).
//!
//! Rate limits: against Discord itself serenity's rate limiter reads the `X-RateLimit-*`
//! headers of every answer and waits before a bucket would answer 429 (inside the request,
//! which the gate's timeout bounds, so a hot channel waits alone); the gate keeps the global
//! limit itself (`global_limit.rs`), which serenity learns of only from a 429. Several
//! instances of one token share their buckets through a proxy in front of Discord
//! (`discord.api_base`), with serenity's limiter off (docs/discord.md, "Delivery").
//!
//! Times here are wall-clock: delivery is operational, not part of any game's clock.

mod failure;
mod gate;
mod global_limit;
mod lease;
mod post;
mod refused_access;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use serenity::all::Http;
use tokio::sync::watch;
use tokio::task::JoinSet;

pub use gate::{GateSettings, RestGate, Stopped};

use crate::Data;
use crate::logging::ErrorChain;
use crate::service::{Clock, SystemClock};
use post::Courier;

/// Checked at least this often, whatever the signals say.
const IDLE_CHECK: Duration = Duration::from_secs(30);

/// How the outbox is delivered.
#[derive(Debug, Clone, Copy)]
pub struct DeliverySettings {
    /// The first wait before retrying a post, doubled on each try.
    pub retry_base: Duration,
    /// Channels (and players' DMs) delivered to at once.
    pub channels: usize,
    /// How long a place refusing access (50001, 50013) is tried before its games leave it.
    pub refused_access_retry: Duration,
}

/// Delivers the outbox until `shutdown` turns true or Discord refuses the token; then waits a
/// bounded time for the deliveries under way.
pub async fn run(
    http: Arc<Http>,
    data: Data,
    settings: DeliverySettings,
    mut shutdown: watch::Receiver<bool>,
) {
    let signal = data.service.discord().outbox_signal();
    let mut revoked = data.rest_gate().revoked();
    let courier = Arc::new(Courier {
        http,
        data: data.clone(),
        retry_base: settings.retry_base,
        refused_access_retry: settings.refused_access_retry,
        refused_access: Default::default(),
    });
    let room = settings.channels.max(1);
    // The channel each running delivery is for: none is claimed again while it runs.
    let mut running: JoinSet<()> = JoinSet::new();
    let mut channel_of: HashMap<tokio::task::Id, u64> = HashMap::new();
    loop {
        if data.rest_gate().is_revoked() {
            tracing::warn!("Discord outbox stopped: the bot token was refused");
            break;
        }
        let wait = match data.rest_gate().check() {
            Err(Stopped::BudgetSpent { wait, .. }) => wait.min(IDLE_CHECK),
            Err(_) => IDLE_CHECK,
            Ok(()) if channel_of.len() >= room => IDLE_CHECK,
            Ok(()) => {
                let busy: HashSet<u64> = channel_of.values().copied().collect();
                let max = room - channel_of.len();
                match data.service.discord().claim_due_posts_for(max, busy).await {
                    Ok((due, next)) => {
                        for head in due {
                            let courier = Arc::clone(&courier);
                            let channel = head.channel_id;
                            let task = running.spawn(async move { courier.deliver(&head).await });
                            channel_of.insert(task.id(), channel);
                        }
                        next.map_or(IDLE_CHECK, until)
                    }
                    Err(e) => {
                        tracing::warn!(error = %ErrorChain(&e), "cannot read the Discord outbox");
                        settings.retry_base.max(Duration::from_secs(1))
                    }
                }
            }
        };
        tokio::select! {
            _ = signal.notified() => {}
            Some(done) = running.join_next_with_id() => {
                let id = match done {
                    Ok((id, ())) => id,
                    Err(e) => {
                        tracing::warn!(error = %e, "a Discord delivery task failed");
                        e.id()
                    }
                };
                channel_of.remove(&id);
            }
            _ = tokio::time::sleep(wait) => {}
            _ = revoked.changed() => {}
            _ = shutdown.changed() => break,
        }
    }
    finish(running, data.rest_gate()).await;
}

/// Lets the deliveries under way end (each request is bounded by the gate's timeout), then
/// stops those that did not: their posts go out again once their claims lapse.
async fn finish(mut running: JoinSet<()>, gate: &RestGate) {
    let deadline = gate.request_timeout().saturating_mul(2);
    let ended = tokio::time::timeout(deadline, async {
        while running.join_next().await.is_some() {}
    })
    .await;
    if ended.is_err() {
        tracing::warn!(
            left = running.len(),
            "Discord deliveries still running at shutdown are stopped"
        );
        running.shutdown().await;
    }
}

/// The wait until wall-clock `at` (ms), at most [`IDLE_CHECK`].
fn until(at: i64) -> Duration {
    let left = at.saturating_sub(SystemClock.now_ms());
    Duration::from_millis(u64::try_from(left).unwrap_or(0)).min(IDLE_CHECK)
}
