//! Games played in a Discord thread, and the channel each thread hangs off.

use rusqlite::{Connection, OptionalExtension, params};

use super::*;

/// A game's thread and its parent channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameThreadRow {
    pub game_id: GameId,
    pub thread_id: u64,
    pub parent_id: u64,
}

fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

fn thread_from(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameThreadRow> {
    Ok(GameThreadRow {
        game_id: r.get(0)?,
        thread_id: u64::try_from(r.get::<_, i64>(1)?).unwrap_or_default(),
        parent_id: u64::try_from(r.get::<_, i64>(2)?).unwrap_or_default(),
    })
}

pub fn insert_game_thread(c: &Connection, row: GameThreadRow, now: i64) -> Result<()> {
    c.prepare_cached(
        "INSERT OR REPLACE INTO discord_game_threads (game_id, thread_id, parent_id, created_at) \
         VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![
        row.game_id,
        snowflake(row.thread_id),
        snowflake(row.parent_id),
        now
    ])?;
    Ok(())
}

/// The game thread `thread`, if it is one.
pub fn game_thread(c: &Connection, thread: u64) -> Result<Vec<GameThreadRow>> {
    Ok(c.prepare_cached(
        "SELECT game_id, thread_id, parent_id FROM discord_game_threads WHERE thread_id = ?1",
    )?
    .query_map([snowflake(thread)], thread_from)?
    .collect::<rusqlite::Result<_>>()?)
}

/// The thread of `game`, if it has one.
pub fn thread_of_game(c: &Connection, game: GameId) -> Result<Option<GameThreadRow>> {
    Ok(c.prepare_cached(
        "SELECT game_id, thread_id, parent_id FROM discord_game_threads WHERE game_id = ?1",
    )?
    .query_row([game], thread_from)
    .optional()?)
}

pub fn delete_game_thread(c: &Connection, game: GameId) -> Result<()> {
    c.prepare_cached("DELETE FROM discord_game_threads WHERE game_id = ?1")?
        .execute([game])?;
    Ok(())
}

/// Points a game's stored place at `context`.
pub fn set_game_context(c: &Connection, game: GameId, context: Option<&str>) -> Result<()> {
    c.prepare_cached("UPDATE games SET context = ?2 WHERE id = ?1")?
        .execute(params![game, context])?;
    Ok(())
}

/// Moves the pending posts of `game` owed to channel `from` to channel `to`, keeping their
/// order: they still go out one by one, in the new place.
pub fn move_pending_posts(c: &Connection, game: GameId, from: u64, to: u64) -> Result<usize> {
    Ok(c.prepare_cached(
        "UPDATE discord_outbox SET channel_id = ?3 \
         WHERE status = 'pending' AND dm_user_id IS NULL AND channel_id = ?2 \
           AND event_id IN (SELECT id FROM events WHERE game_id = ?1)",
    )?
    .execute(params![game, snowflake(from), snowflake(to)])?)
}

/// Gives up the pending posts of `game` owed to `channel` (the channel is gone for good).
pub fn abandon_pending_posts(
    c: &Connection,
    game: GameId,
    channel: u64,
    why: &str,
    now: i64,
) -> Result<usize> {
    Ok(c.prepare_cached(
        "UPDATE discord_outbox SET status = 'abandoned', last_error = ?3, done_at = ?4 \
         WHERE status = 'pending' AND dm_user_id IS NULL AND channel_id = ?2 \
           AND event_id IN (SELECT id FROM events WHERE game_id = ?1)",
    )?
    .execute(params![game, snowflake(channel), why, now])?)
}
