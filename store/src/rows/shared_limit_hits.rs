//! Hits of the limits several instances share, one row per hit (see the table's migration,
//! 0017): counted over a sliding window, so no instance's count starts over at a window's edge.

use crate::{Conn, params};

use super::*;

/// Records a hit of `kind` from `client` at `now` and forgets every hit at or before
/// `window_start`; the hits of `kind` from `client` after `window_start` (this one included)
/// and the oldest of their times.
pub fn add_limit_hit(
    c: &Conn<'_>,
    kind: SharedLimit,
    client: &str,
    now: i64,
    window_start: i64,
) -> Result<(u64, i64)> {
    c.execute(
        "DELETE FROM shared_limit_hits WHERE at <= ?1",
        params![window_start],
    )?;
    c.execute(
        "INSERT INTO shared_limit_hits (kind, client, at) VALUES (?1, ?2, ?3)",
        params![kind, client, now],
    )?;
    limit_hits(c, kind, client, window_start).map(|(hits, oldest)| (hits, oldest.unwrap_or(now)))
}

/// The hits of `kind` from `client` after `window_start`, and the oldest of their times.
pub fn limit_hits(
    c: &Conn<'_>,
    kind: SharedLimit,
    client: &str,
    window_start: i64,
) -> Result<(u64, Option<i64>)> {
    c.query_one(
        "SELECT COUNT(*), MIN(at) FROM shared_limit_hits \
         WHERE kind = ?1 AND client = ?2 AND at > ?3",
        params![kind, client, window_start],
        |r| {
            let hits: i64 = r.get(0)?;
            Ok((u64::try_from(hits).unwrap_or_default(), r.get(1)?))
        },
    )
}
