//! Token buckets by key: `rate` requests per second sustained, `burst` at once. Keyed by
//! API token (hash) for authenticated requests, by client address for registration and for
//! requests without a token.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::ClientAddr;
use crate::client_addr::ClientNetwork;

pub struct RateLimiter<K = [u8; 32]> {
    rate: f64,
    burst: f64,
    max_buckets: usize,
    buckets: Mutex<HashMap<K, Bucket>>,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Most buckets kept: beyond it, full (idle) buckets go, then the least recently used.
const MAX_BUCKETS: usize = 100_000;

impl<K: Hash + Eq> RateLimiter<K> {
    pub fn new(rate_per_second: f64, burst: u32) -> RateLimiter<K> {
        RateLimiter::bounded(rate_per_second, burst, MAX_BUCKETS)
    }

    fn bounded(rate_per_second: f64, burst: u32, max_buckets: usize) -> RateLimiter<K> {
        RateLimiter {
            rate: rate_per_second.max(f64::MIN_POSITIVE),
            burst: f64::from(burst.max(1)),
            max_buckets: max_buckets.max(2),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one request from `key`'s bucket; `Err(seconds)` to wait when it is empty.
    pub fn check(&self, key: K) -> Result<(), u64> {
        self.check_at(key, Instant::now())
    }

    /// Whether `key`'s bucket holds a request, without taking it: for limits that count only
    /// failures (a failed sign-in), asked before the attempt.
    pub fn peek(&self, key: K) -> Result<(), u64> {
        let now = Instant::now();
        let buckets = self.buckets();
        let tokens = buckets
            .get(&key)
            .map_or(self.burst, |b| self.refilled(b, now));
        self.verdict(tokens)
    }

    /// The buckets. A panic while they were held (there is none to expect: the updates are
    /// arithmetic) leaves each bucket as it was or as it was being set, both fine to go on
    /// from, so the lock's poison is cleared, never taken as "no limit".
    fn buckets(&self) -> std::sync::MutexGuard<'_, HashMap<K, Bucket>> {
        self.buckets.lock().unwrap_or_else(|poisoned| {
            self.buckets.clear_poison();
            poisoned.into_inner()
        })
    }

    fn refilled(&self, bucket: &Bucket, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        (bucket.tokens + elapsed * self.rate).min(self.burst)
    }

    /// `Ok` when `tokens` hold a request, else the seconds until they will.
    fn verdict(&self, tokens: f64) -> Result<(), u64> {
        if tokens >= 1.0 {
            Ok(())
        } else {
            let wait = (1.0 - tokens) / self.rate;
            Err(wait.ceil().max(1.0) as u64)
        }
    }

    fn check_at(&self, key: K, now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets();
        if buckets.len() >= self.max_buckets && !buckets.contains_key(&key) {
            self.evict(&mut buckets, now);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        bucket.tokens = self.refilled(bucket, now);
        bucket.at = now;
        let verdict = self.verdict(bucket.tokens);
        if verdict.is_ok() {
            bucket.tokens -= 1.0;
        }
        verdict
    }

    /// Drops the buckets that have refilled (forgetting them changes nothing); if that is not
    /// enough (many keys, all recently busy), the least recently used half, so memory stays
    /// bounded whatever the keys.
    fn evict(&self, buckets: &mut HashMap<K, Bucket>, now: Instant) {
        let (rate, burst) = (self.rate, self.burst);
        buckets.retain(|_, b| {
            b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * rate < burst
        });
        if buckets.len() >= self.max_buckets {
            let mut ages: Vec<Instant> = buckets.values().map(|b| b.at).collect();
            let (_, median, _) = ages.select_nth_unstable(buckets.len() / 2);
            let cutoff = *median;
            buckets.retain(|_, b| b.at > cutoff);
        }
    }
}

/// Who a registration or a request without a token is counted against: the client's address
/// (behind a trusted proxy, the one it reports: [`ClientAddr`]), an IPv6 client by its /64
/// (one machine usually holds a whole /64). `None` when the server was started without
/// connection info; everyone then shares one bucket.
pub struct ClientKey(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientKey {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let client = match parts.extensions.get::<ClientAddr>() {
            Some(ClientAddr(ip)) => Some(*ip),
            None => parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|ConnectInfo(addr)| addr.ip()),
        };
        Ok(ClientKey(client.map(client_key)))
    }
}

/// The key an address is counted by: IPv4 as it is, IPv6 by its /64 (IPv4-mapped as IPv4).
pub(super) fn client_key(ip: IpAddr) -> IpAddr {
    ClientNetwork::of(ip).ip()
}

impl ClientKey {
    /// The network the client is counted by, if the request's address is known.
    pub fn network(&self) -> Option<ClientNetwork> {
        self.0.map(ClientNetwork::of)
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

    fn ip(text: &str) -> IpAddr {
        client_key(text.parse().unwrap())
    }

    #[test]
    fn one_address_exhausting_its_bucket_leaves_the_others_theirs() {
        // 2 registrations a minute, 2 at once.
        let limiter = RateLimiter::new(2.0 / 60.0, 2);
        let t0 = Instant::now();
        let greedy = ip("203.0.113.7");
        assert!(limiter.check_at(greedy, t0).is_ok());
        assert!(limiter.check_at(greedy, t0).is_ok());
        assert_eq!(limiter.check_at(greedy, t0), Err(30));
        assert!(limiter.check_at(ip("203.0.113.8"), t0).is_ok());
        assert!(limiter.check_at(ip("2001:db8:1::1"), t0).is_ok());
        // The same /64 is the same client; IPv4-mapped is IPv4.
        assert!(limiter.check_at(ip("2001:db8:1::2"), t0).is_ok());
        assert!(limiter.check_at(ip("2001:db8:1::ffff"), t0).is_err());
        assert!(limiter.check_at(ip("::ffff:203.0.113.7"), t0).is_err());
        assert!(
            limiter
                .check_at(greedy, t0 + Duration::from_secs(30))
                .is_ok()
        );
    }

    #[test]
    fn a_poisoned_lock_still_limits() {
        let limiter = std::sync::Arc::new(RateLimiter::new(1.0 / 60.0, 1));
        let t0 = Instant::now();
        assert!(limiter.check_at(1u32, t0).is_ok());
        let holder = std::sync::Arc::clone(&limiter);
        let _ = std::thread::spawn(move || {
            let _held = holder.buckets.lock();
            panic!("poisons the lock");
        })
        .join();
        assert!(limiter.buckets.is_poisoned());
        assert_eq!(
            limiter.check_at(1, t0),
            Err(60),
            "an empty bucket stays empty"
        );
        assert_eq!(limiter.peek(1).map_err(|_| ()), Err(()));
        assert!(limiter.check_at(2, t0).is_ok(), "others have theirs");
        assert!(!limiter.buckets.is_poisoned());
    }

    #[test]
    fn peeking_takes_nothing() {
        let limiter = RateLimiter::new(1.0 / 60.0, 1);
        assert!(limiter.peek(5u32).is_ok());
        assert!(limiter.peek(5).is_ok());
        assert!(limiter.check(5).is_ok());
        assert!(limiter.peek(5).is_err());
    }

    #[test]
    fn memory_stays_bounded_however_many_addresses_come() {
        let limiter = RateLimiter::<u32>::bounded(1.0 / 60.0, 1, 100);
        let t0 = Instant::now();
        for i in 0..10_000u32 {
            // Every bucket busy (just emptied), so none is dropped for being full.
            let _ = limiter.check_at(i, t0 + Duration::from_millis(u64::from(i)));
            assert!(limiter.buckets.lock().unwrap().len() <= 100);
        }
        // The most recent client is still remembered.
        assert!(
            limiter
                .check_at(9_999, t0 + Duration::from_secs(10))
                .is_err()
        );
    }
}
