//! Stored answers of requests that carried an idempotency key.

use crate::store::{Conn, params};

use super::*;

pub fn idempotent_answer(
    c: &Conn<'_>,
    player: PlayerId,
    key: &str,
) -> Result<Option<(Vec<u8>, String)>> {
    c.query_opt(
        "SELECT request_hash, response FROM idempotency_keys WHERE player_id = ?1 AND key = ?2",
        params![player, key],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

pub fn store_idempotent_answer(
    c: &Conn<'_>,
    player: PlayerId,
    key: &str,
    request_hash: &[u8],
    response: &str,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO idempotency_keys (player_id, key, request_hash, response, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![player, key, request_hash, response, now],
    )?;
    Ok(())
}
