//! IDENTIFY spaced as Discord asks: shards whose `shard_id % max_concurrency` is equal share a
//! bucket, and each bucket allows one IDENTIFY per 5 seconds. Discord answers one too soon with
//! op 9 (invalid session), and the shard identifies again: a start spent for nothing.
//!
//! The buckets are the application's, shared by every instance of the bot: on PostgreSQL the
//! turns are claimed through the database (`service::discord::identify_turns`), so instances
//! started together take turns too; on SQLite (one instance), or while the database does not
//! answer, this instance paces its own shards in memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::service::GamesService;

/// Discord's window for one IDENTIFY per bucket.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);
/// What the relay leaves between two IDENTIFYs of a bucket: the window, and a margin for the
/// network and Discord's side, which measure it too (one a few milliseconds early is refused).
pub const IDENTIFY_SPACING: Duration = IDENTIFY_WINDOW.saturating_add(Duration::from_millis(750));
/// How long claiming a turn through the database may take before this instance paces alone.
const SHARED_CLAIM_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest wait for a turn: a bucket's queue past it means a clock that jumped or a row
/// gone wrong, and identifying then costs at most one refused start (op 9), not a dark shard.
const MAX_TURN_WAIT: Duration = Duration::from_secs(10 * 60);

/// See the module documentation.
pub struct IdentifyPacer {
    max_concurrency: Mutex<u16>,
    /// When each bucket may identify next, as far as this instance knows.
    next_turn: Mutex<HashMap<u16, Instant>>,
    /// Where the instances sharing the bot claim their turns (`None`: this instance alone).
    shared: Option<GamesService>,
}

impl Default for IdentifyPacer {
    fn default() -> Self {
        IdentifyPacer::shared_through(None)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl IdentifyPacer {
    /// A pacer that claims turns through `service`'s database when it is shared by instances.
    pub fn shared_through(service: Option<GamesService>) -> IdentifyPacer {
        IdentifyPacer {
            max_concurrency: Mutex::new(1),
            next_turn: Mutex::new(HashMap::new()),
            shared: service,
        }
    }

    /// Claims `shard`'s turn to identify, from the instances' shared database or from this
    /// instance's own pacing: when it is. The caller holds the IDENTIFY until then and keeps
    /// relaying everything else (heartbeats), so a long queue never looks like a dead
    /// connection to serenity or to Discord.
    pub async fn claim_turn(&self, shard: u16) -> Instant {
        let wait = match self.shared_turn(shard).await {
            Some(wait) => wait,
            None => self.take_turn(shard),
        };
        if wait > MAX_TURN_WAIT {
            tracing::warn!(
                shard,
                ?wait,
                "the IDENTIFY turn is further off than {MAX_TURN_WAIT:?}; identifying after that"
            );
        }
        let wait = wait.min(MAX_TURN_WAIT);
        if !wait.is_zero() {
            tracing::debug!(shard, ?wait, "IDENTIFY waits for its bucket");
        }
        Instant::now() + wait
    }

    /// The wait for `shard`'s turn claimed through the database; `None` where the database is
    /// not shared, or does not answer in time (logged: this instance then paces alone).
    async fn shared_turn(&self, shard: u16) -> Option<Duration> {
        let service = self.shared.as_ref()?;
        let bucket = self.bucket(shard);
        let claim = service
            .discord()
            .claim_identify_turn(bucket, IDENTIFY_SPACING);
        match tokio::time::timeout(SHARED_CLAIM_TIMEOUT, claim).await {
            Ok(Ok(wait)) => wait,
            Ok(Err(e)) => {
                tracing::warn!(
                    shard,
                    "could not claim an IDENTIFY turn from the database, pacing this \
                     instance's shards alone: {e}"
                );
                None
            }
            Err(_) => {
                tracing::warn!(
                    shard,
                    "the database gave no IDENTIFY turn within {SHARED_CLAIM_TIMEOUT:?}, \
                     pacing this instance's shards alone"
                );
                None
            }
        }
    }

    /// `max_concurrency` as `GET /gateway/bot` gave it (at least 1).
    pub fn set_max_concurrency(&self, max_concurrency: u16) {
        *lock(&self.max_concurrency) = max_concurrency.max(1);
    }

    /// The bucket of `shard`.
    pub fn bucket(&self, shard: u16) -> u16 {
        shard % *lock(&self.max_concurrency)
    }

    /// Takes `shard`'s bucket's next turn: answers how long to wait before identifying
    /// (zero when the bucket is free now).
    pub fn take_turn(&self, shard: u16) -> Duration {
        let bucket = self.bucket(shard);
        let now = Instant::now();
        let mut turns = lock(&self.next_turn);
        let at = turns.get(&bucket).copied().unwrap_or(now).max(now);
        turns.insert(bucket, at + IDENTIFY_SPACING);
        at.saturating_duration_since(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn shards_of_one_bucket_wait_their_turn_and_other_buckets_do_not() {
        let pacer = IdentifyPacer::default();
        pacer.set_max_concurrency(2);
        assert_eq!(pacer.take_turn(0), Duration::ZERO);
        assert_eq!(pacer.take_turn(1), Duration::ZERO, "bucket 1 is free");
        let wait = pacer.take_turn(2);
        assert!(
            wait > IDENTIFY_WINDOW && wait <= IDENTIFY_SPACING,
            "{wait:?}"
        );
        let after = pacer.take_turn(4);
        assert!(after > IDENTIFY_WINDOW * 2, "queued behind 2: {after:?}");
    }
}
