//! How long to wait before trying again: exponential back-off with full jitter. The ceiling
//! doubles with every failed try up to a cap, and the wait is drawn uniformly below it, so that
//! many parties failing at once (every delivery to a dead webhook endpoint, every post to a
//! Discord channel that went away, several instances reconnecting) spread their retries out
//! instead of arriving together.

use std::time::Duration;

/// A back-off policy: the first ceiling and the largest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    pub base: Duration,
    pub cap: Duration,
}

impl Backoff {
    pub const fn new(base: Duration, cap: Duration) -> Backoff {
        Backoff { base, cap }
    }

    /// The longest wait before try number `tries + 1`: `base`, doubled for every earlier failed
    /// try, at most `cap`.
    pub fn ceiling(&self, tries: u32) -> Duration {
        self.base
            .saturating_mul(1u32 << tries.min(20))
            .min(self.cap)
    }

    /// The wait before try number `tries + 1`, drawn uniformly from zero to [`Self::ceiling`].
    pub fn wait(&self, tries: u32) -> Duration {
        self.wait_at(tries, random_fraction())
    }

    /// The wait for a given draw in `[0, 1)`, so the arithmetic can be checked.
    fn wait_at(&self, tries: u32, fraction: f64) -> Duration {
        self.ceiling(tries).mul_f64(fraction.clamp(0.0, 1.0))
    }
}

/// A uniform draw in `[0, 1)`. Without randomness the wait is the ceiling: no jitter, but
/// never a retry sooner than the policy allows.
fn random_fraction() -> f64 {
    match getrandom::u64() {
        // The top 53 bits, as many as an f64's mantissa holds exactly.
        Ok(bits) => (bits >> 11) as f64 / (1u64 << 53) as f64,
        Err(_) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const POLICY: Backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(600));

    #[test]
    fn the_ceiling_doubles_up_to_its_cap() {
        assert_eq!(POLICY.ceiling(0), Duration::from_secs(1));
        assert_eq!(POLICY.ceiling(3), Duration::from_secs(8));
        assert_eq!(POLICY.ceiling(9), Duration::from_secs(512));
        assert_eq!(POLICY.ceiling(10), Duration::from_secs(600));
        assert_eq!(POLICY.ceiling(u32::MAX), Duration::from_secs(600));
    }

    #[test]
    fn a_wait_is_its_draw_of_the_ceiling() {
        assert_eq!(POLICY.wait_at(3, 0.0), Duration::ZERO);
        assert_eq!(POLICY.wait_at(3, 0.5), Duration::from_secs(4));
        assert_eq!(POLICY.wait_at(3, 7.0), Duration::from_secs(8));
    }

    #[test]
    fn waits_are_spread_below_the_ceiling() {
        let waits: Vec<Duration> = (0..64).map(|_| POLICY.wait(4)).collect();
        assert!(waits.iter().all(|w| *w <= POLICY.ceiling(4)), "{waits:?}");
        let mut distinct = waits.clone();
        distinct.sort();
        distinct.dedup();
        // 64 draws from a 16 s range at nanosecond resolution: equal ones would mean no jitter.
        assert!(distinct.len() > 60, "{waits:?}");
    }
}
