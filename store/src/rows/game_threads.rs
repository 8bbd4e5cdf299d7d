//! Games played in a Discord thread, and the channel each thread hangs off.

use crate::{Conn, Row, params};

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

fn thread_from(r: &Row<'_>) -> Result<GameThreadRow> {
    Ok(GameThreadRow {
        game_id: r.get(0)?,
        thread_id: u64::try_from(r.get::<i64>(1)?).unwrap_or_default(),
        parent_id: u64::try_from(r.get::<i64>(2)?).unwrap_or_default(),
    })
}

pub fn insert_game_thread(c: &Conn<'_>, row: GameThreadRow, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO discord_game_threads (game_id, thread_id, parent_id, created_at) \
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id) DO UPDATE SET \
         thread_id = excluded.thread_id, parent_id = excluded.parent_id, \
         created_at = excluded.created_at",
        params![
            row.game_id,
            snowflake(row.thread_id),
            snowflake(row.parent_id),
            now
        ],
    )?;
    Ok(())
}

/// The game thread `thread`, if it is one.
pub fn game_thread(c: &Conn<'_>, thread: u64) -> Result<Vec<GameThreadRow>> {
    c.query_all(
        "SELECT game_id, thread_id, parent_id FROM discord_game_threads WHERE thread_id = ?1",
        params![snowflake(thread)],
        thread_from,
    )
}

/// The thread of `game`, if it has one.
pub fn thread_of_game(c: &Conn<'_>, game: GameId) -> Result<Option<GameThreadRow>> {
    c.query_opt(
        "SELECT game_id, thread_id, parent_id FROM discord_game_threads WHERE game_id = ?1",
        params![game],
        thread_from,
    )
}

pub fn delete_game_thread(c: &Conn<'_>, game: GameId) -> Result<()> {
    c.execute(
        "DELETE FROM discord_game_threads WHERE game_id = ?1",
        params![game],
    )?;
    Ok(())
}

/// Points a game's stored place at `context`.
pub fn set_game_context(c: &Conn<'_>, game: GameId, context: Option<&str>) -> Result<()> {
    c.execute(
        "UPDATE games SET context = ?2 WHERE id = ?1",
        params![game, context],
    )?;
    Ok(())
}

/// Moves the pending posts of `game` owed to channel `from` to channel `to`, keeping their
/// order: they still go out one by one, in the new place, due from `now` (wall clock): the
/// claim on the one that failed in the old place ends with it.
pub fn move_pending_posts(
    c: &Conn<'_>,
    game: GameId,
    from: u64,
    to: u64,
    now: i64,
) -> Result<usize> {
    c.execute(
        "UPDATE discord_outbox SET channel_id = ?3, next_attempt_at = ?4 \
         WHERE status = 'pending' AND dm_user_id IS NULL AND channel_id = ?2 \
           AND event_id IN (SELECT id FROM events WHERE game_id = ?1)",
        params![game, snowflake(from), snowflake(to), now],
    )
}

/// Gives up the pending posts of `game` owed to `channel` (the channel is gone for good).
pub fn abandon_pending_posts(
    c: &Conn<'_>,
    game: GameId,
    channel: u64,
    why: &str,
    now: i64,
) -> Result<usize> {
    c.execute(
        "UPDATE discord_outbox SET status = 'abandoned', last_error = ?3, done_at = ?4 \
         WHERE status = 'pending' AND dm_user_id IS NULL AND channel_id = ?2 \
           AND event_id IN (SELECT id FROM events WHERE game_id = ?1)",
        params![game, snowflake(channel), why, now],
    )
}
