//! Limits several instances on one database count together: failed sign-ins and registrations
//! per client address. Each instance's own token buckets (`server::rate_limit`) answer first,
//! in memory; on PostgreSQL, where N instances would each allow their own share (N times the
//! limit in all), the hits are also counted in the database (`shared_limit_hits`) over a
//! sliding window, and a client past the allowance is refused by every instance. On SQLite
//! (one instance) the buckets are the whole count and nothing is written.

use std::net::IpAddr;

use crate::domain::SharedLimit;
use crate::store::{Dialect, rows};

use super::{GamesService, Result, ServiceError};

/// The limits shared through the database.
#[derive(Clone, Copy)]
pub struct SharedLimits<'s> {
    pub(super) service: &'s GamesService,
}

/// At most `hits` of a limit in any `window_ms`, from one client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    pub hits: u64,
    pub window_ms: i64,
}

impl Allowance {
    /// The allowance of a token bucket of `per_minute` sustained and `burst` at once, over a
    /// minute: the larger of the two.
    pub fn per_minute(per_minute: f64, burst: u32) -> Allowance {
        // Saturating: a huge configured rate is no limit at all, not a wrapped one.
        let sustained = if per_minute.is_finite() && per_minute > 0.0 {
            per_minute.ceil().min(u64::MAX as f64) as u64
        } else {
            0
        };
        Allowance {
            hits: sustained.max(u64::from(burst)).max(1),
            window_ms: 60_000,
        }
    }
}

/// The column's name for a client address (an IPv6 client is already its /64).
fn client_key(client: Option<IpAddr>) -> String {
    client.map_or_else(|| "unknown".to_owned(), |ip| ip.to_string())
}

/// Where a count looks: whose hits, and the window that ends now.
struct Window {
    client: String,
    now: i64,
    start: i64,
}

impl SharedLimits<'_> {
    /// The window `allowance` counts `client`'s hits in, on a database shared by instances
    /// (PostgreSQL); `None` on SQLite, whose one instance counts in memory.
    fn window(self, client: Option<IpAddr>, allowance: Allowance) -> Option<Window> {
        if self.service.inner.store.dialect() != Dialect::Postgres {
            return None;
        }
        let now = self.service.now_ms();
        Some(Window {
            client: client_key(client),
            now,
            start: now.saturating_sub(allowance.window_ms),
        })
    }

    /// Whether `client` is within `allowance` of `limit`, counted by every instance:
    /// `Ok(None)` when it is, else the seconds until it will be. Always within on SQLite.
    pub async fn check(
        self,
        limit: SharedLimit,
        client: Option<IpAddr>,
        allowance: Allowance,
    ) -> Result<Option<u64>> {
        let Some(Window { client, now, start }) = self.window(client, allowance) else {
            return Ok(None);
        };
        let (hits, oldest) = self
            .service
            .read(move |c| Ok(rows::limit_hits(c, limit, &client, start)?))
            .await?;
        Ok(verdict(hits, oldest.unwrap_or(now), now, allowance))
    }

    /// Counts one hit of `limit` from `client`, then answers as [`SharedLimits::check`], this
    /// hit included.
    pub async fn hit(
        self,
        limit: SharedLimit,
        client: Option<IpAddr>,
        allowance: Allowance,
    ) -> Result<Option<u64>> {
        let Some(Window { client, now, start }) = self.window(client, allowance) else {
            return Ok(None);
        };
        let (hits, oldest) = self
            .service
            .inner
            .store
            .write(move |c| {
                rows::add_limit_hit(c, limit, &client, now, start).map_err(ServiceError::from)
            })
            .await?;
        // Past the allowance only with this hit counted: `hits` may be one over, and still
        // allowed when it is the last one the allowance holds.
        Ok(verdict(hits.saturating_sub(1), oldest, now, allowance))
    }
}

/// `None` when `hits` already made leave room for one more, else the seconds until the
/// oldest (made at `oldest`) leaves the window.
fn verdict(hits: u64, oldest: i64, now: i64, allowance: Allowance) -> Option<u64> {
    if hits < allowance.hits {
        return None;
    }
    let wait_ms = oldest
        .saturating_add(allowance.window_ms)
        .saturating_sub(now);
    Some(
        u64::try_from(wait_ms.saturating_add(999) / 1000)
            .unwrap_or(0)
            .max(1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allowance_is_the_larger_of_the_rate_and_the_burst() {
        assert_eq!(Allowance::per_minute(10.0, 3).hits, 10);
        assert_eq!(Allowance::per_minute(0.5, 5).hits, 5);
        assert_eq!(Allowance::per_minute(f64::NAN, 0).hits, 1);
    }

    #[test]
    fn a_full_window_waits_for_its_oldest_hit() {
        let allowance = Allowance {
            hits: 3,
            window_ms: 60_000,
        };
        assert_eq!(verdict(2, 0, 10_000, allowance), None);
        assert_eq!(verdict(3, 0, 10_000, allowance), Some(50));
        assert_eq!(verdict(3, 0, 59_999, allowance), Some(1));
    }
}
