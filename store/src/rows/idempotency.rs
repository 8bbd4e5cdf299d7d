//! Stored answers of requests that carried an idempotency key (a move reads its key's answer
//! with its game: `games::game_for_move`).

use crate::{Conn, params};

use super::*;

/// Stores the answer of a request made with an idempotency key. Its row count is not read, so
/// on PostgreSQL it travels with the job's next statement.
pub fn store_idempotent_answer(
    c: &Conn<'_>,
    player: PlayerId,
    key: &str,
    request_hash: &[u8],
    response: &str,
    now: i64,
) -> Result<()> {
    c.execute_pipelined(
        "INSERT INTO idempotency_keys (player_id, key, request_hash, response, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![player, key, request_hash, response, now],
    )
}
