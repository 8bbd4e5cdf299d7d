//! Per-token token bucket: `rate` requests per second sustained, `burst` at once.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<[u8; 32], Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Most buckets kept; idle full buckets are dropped beyond this.
const MAX_BUCKETS: usize = 100_000;

impl RateLimiter {
    pub fn new(rate_per_second: f64, burst: u32) -> RateLimiter {
        RateLimiter {
            rate: rate_per_second.max(f64::MIN_POSITIVE),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `key`'s bucket; `Err(seconds)` to wait when it is empty.
    pub fn check(&self, key: [u8; 32]) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    fn check_at(&self, key: [u8; 32], now: Instant) -> Result<(), u64> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() >= MAX_BUCKETS {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < burst);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * self.rate).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / self.rate;
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn allows_the_burst_then_refuses_until_refilled() {
        let limiter = RateLimiter::new(2.0, 3);
        let t0 = Instant::now();
        let key = [7u8; 32];
        for _ in 0..3 {
            assert!(limiter.check_at(key, t0).is_ok());
        }
        assert_eq!(limiter.check_at(key, t0), Err(1));
        // Another token has its own bucket.
        assert!(limiter.check_at([8u8; 32], t0).is_ok());
        assert!(
            limiter
                .check_at(key, t0 + Duration::from_millis(600))
                .is_ok()
        );
        assert!(
            limiter
                .check_at(key, t0 + Duration::from_millis(600))
                .is_err()
        );
    }
}
