//! IDENTIFY spaced as Discord asks: shards whose `shard_id % max_concurrency` is equal share a
//! bucket, and each bucket allows one IDENTIFY per 5 seconds. Discord answers one too soon with
//! op 9 (invalid session), and the shard identifies again: a start spent for nothing.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Discord's window for one IDENTIFY per bucket.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);
/// What the relay leaves between two IDENTIFYs of a bucket: the window, and a margin for the
/// network and Discord's side, which measure it too (one a few milliseconds early is refused).
pub const IDENTIFY_SPACING: Duration = IDENTIFY_WINDOW.saturating_add(Duration::from_millis(750));

/// See the module documentation.
#[derive(Debug)]
pub struct IdentifyPacer {
    max_concurrency: Mutex<u16>,
    /// When each bucket may identify next.
    next_turn: Mutex<HashMap<u16, Instant>>,
}

impl Default for IdentifyPacer {
    fn default() -> Self {
        IdentifyPacer {
            max_concurrency: Mutex::new(1),
            next_turn: Mutex::new(HashMap::new()),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl IdentifyPacer {
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
