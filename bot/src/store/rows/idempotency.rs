//! Stored answers of requests that carried an idempotency key.

use rusqlite::{Connection, OptionalExtension, params};

use super::*;

pub fn idempotent_answer(
    c: &Connection,
    player: PlayerId,
    key: &str,
) -> Result<Option<(Vec<u8>, String)>> {
    Ok(c.prepare_cached(
        "SELECT request_hash, response FROM idempotency_keys WHERE player_id = ?1 AND key = ?2",
    )?
    .query_row(params![player, key], |r| Ok((r.get(0)?, r.get(1)?)))
    .optional()?)
}

pub fn store_idempotent_answer(
    c: &Connection,
    player: PlayerId,
    key: &str,
    request_hash: &[u8],
    response: &str,
    now: i64,
) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO idempotency_keys (player_id, key, request_hash, response, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![player, key, request_hash, response, now])?;
    Ok(())
}
