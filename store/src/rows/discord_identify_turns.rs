//! The IDENTIFY turns of the gateway's `max_concurrency` buckets, shared by the instances of
//! one bot (see the table's migration, 0020).

use crate::{Conn, params};

use super::*;

/// Claims `bucket`'s next IDENTIFY turn at `now` (ms): the turn is `now` or, when another
/// shard holds a later one, that; the bucket's next turn moves `spacing_ms` past it. One
/// statement, so two instances claiming at once get two turns, one after the other. Answers
/// when the claimed turn is.
pub fn claim_identify_turn(c: &Conn<'_>, bucket: u16, now: i64, spacing_ms: i64) -> Result<i64> {
    let next_at: i64 = c.query_one(
        "INSERT INTO discord_identify_turns (bucket, next_at) VALUES (?1, ?3) \
         ON CONFLICT (bucket) DO UPDATE SET next_at = \
             CASE WHEN discord_identify_turns.next_at > ?2 \
                  THEN discord_identify_turns.next_at + ?4 ELSE ?3 END \
         RETURNING next_at",
        params![
            i64::from(bucket),
            now,
            now.saturating_add(spacing_ms),
            spacing_ms
        ],
        |r| r.get(0),
    )?;
    Ok(next_at.saturating_sub(spacing_ms))
}
