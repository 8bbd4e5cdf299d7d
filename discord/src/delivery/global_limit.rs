//! Discord's global rate limit, kept before sending: at most `discord.global_requests_per_second`
//! requests (50 on Discord, per bot token) in any second. serenity's rate limiter learns of the
//! global limit only from a 429, which Discord counts as an invalid request; waiting here for a
//! free place means a burst across many channels is spread instead of refused.
//!
//! The window is a little longer than Discord's second: requests sent within one second can
//! arrive spread over more than one, by the network's jitter.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window places are counted in: Discord's second, and a margin for the network's jitter.
const WINDOW: Duration = Duration::from_millis(1_100);

/// See the module documentation. Shared by every request through the gate.
#[derive(Debug)]
pub struct GlobalLimit {
    per_window: usize,
    /// When each request of the last window was let through, oldest first (at most
    /// `per_window` of them).
    sent: Mutex<VecDeque<Instant>>,
}

impl GlobalLimit {
    pub fn new(per_second: u32) -> GlobalLimit {
        GlobalLimit {
            per_window: usize::try_from(per_second.max(1)).unwrap_or(usize::MAX),
            sent: Mutex::new(VecDeque::new()),
        }
    }

    /// Waits until a request may go, and takes its place. (The caller's timeout bounds the
    /// wait.)
    pub async fn take_place(&self) {
        while let Some(wait) = self.try_take(Instant::now()) {
            tokio::time::sleep(wait).await;
        }
    }

    /// Takes a place at `now`, or says how long until one frees.
    fn try_take(&self, now: Instant) -> Option<Duration> {
        let mut sent = self
            .sent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        while sent
            .front()
            .is_some_and(|at| now.saturating_duration_since(*at) >= WINDOW)
        {
            sent.pop_front();
        }
        if sent.len() < self.per_window {
            sent.push_back(now);
            return None;
        }
        let oldest = sent.front().copied()?;
        Some(
            (oldest + WINDOW)
                .saturating_duration_since(now)
                .max(Duration::from_millis(1)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_takes_its_places_then_frees_them_one_by_one() {
        let limit = GlobalLimit::new(3);
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(limit.try_take(start + Duration::from_millis(i)), None);
        }
        let later = start + Duration::from_millis(500);
        assert_eq!(
            limit.try_take(later),
            Some(WINDOW - Duration::from_millis(500))
        );
        // The first place frees once it leaves the window, and no other.
        assert_eq!(limit.try_take(start + WINDOW), None);
        assert!(limit.try_take(start + WINDOW).is_some());
    }
}
