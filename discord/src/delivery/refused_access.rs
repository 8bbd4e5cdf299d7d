//! When each place (channel, thread) began refusing the bot's posts with Missing Access or
//! Missing Permissions, so its games leave it only after `discord.refused_access_retry_secs`
//! of refusals, not at the first one (an admin reworking permissions).
//!
//! Kept in memory: after a restart, or on another instance, the period starts again, which
//! only keeps a game in its place longer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Places remembered at most; the oldest is forgotten first (its period starts again).
const MAX_PLACES: usize = 10_000;

#[derive(Debug, Default)]
pub struct RefusedAccess {
    since: Mutex<HashMap<u64, Instant>>,
}

impl RefusedAccess {
    /// Notes a refusal in `place` at `now`; answers how long the place has been refusing.
    pub fn refused(&self, place: u64, now: Instant) -> Duration {
        let mut since = lock(&self.since);
        if !since.contains_key(&place) && since.len() >= MAX_PLACES {
            let oldest = since.iter().min_by_key(|(_, at)| **at).map(|(p, _)| *p);
            if let Some(oldest) = oldest {
                since.remove(&oldest);
            }
        }
        let first = *since.entry(place).or_insert(now);
        now.saturating_duration_since(first)
    }

    /// `place` took a post, or its games left it: a later refusal starts a new period.
    pub fn cleared(&self, place: u64) {
        lock(&self.since).remove(&place);
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

    #[test]
    fn the_period_runs_from_the_first_refusal_until_the_place_clears() {
        let refused = RefusedAccess::default();
        let start = Instant::now();
        assert_eq!(refused.refused(7, start), Duration::ZERO);
        let later = start + Duration::from_secs(90);
        assert_eq!(refused.refused(7, later), Duration::from_secs(90));
        refused.cleared(7);
        assert_eq!(refused.refused(7, later), Duration::ZERO);
    }

    #[test]
    fn the_memory_is_bounded() {
        let refused = RefusedAccess::default();
        let start = Instant::now();
        for place in 0..(MAX_PLACES as u64 + 5) {
            refused.refused(place, start + Duration::from_millis(place));
        }
        assert_eq!(lock(&refused.since).len(), MAX_PLACES);
        // The first places were forgotten: their period starts again.
        assert_eq!(refused.refused(0, start), Duration::ZERO);
    }
}
