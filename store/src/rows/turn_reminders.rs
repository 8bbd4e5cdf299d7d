//! Turn reminders already sent, so each goes out once per ply, across restarts.

use crate::{Conn, params};

use super::*;
use crate::domain::ReminderKind;

/// Active games with a deadline within `within_ms` of `now` (the longest reminder threshold).
pub fn games_with_deadline_within(c: &Conn<'_>, now: i64, within_ms: i64) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE status = 'active' AND paused_at IS NULL AND deadline_at IS NOT NULL \
             AND deadline_at > ?1 AND deadline_at <= CAST(?1 AS BIGINT) + ?2 ORDER BY deadline_at",
        params![now, within_ms],
        |r| r.get(0),
    )
}

/// Active games without a deadline whose turn began at least `idle_ms` before `now`.
pub fn games_idle_since(c: &Conn<'_>, now: i64, idle_ms: i64) -> Result<Vec<GameId>> {
    c.query_all(
        "SELECT id FROM games WHERE status = 'active' AND paused_at IS NULL AND deadline_at IS NULL \
             AND turn_started_at <= CAST(?1 AS BIGINT) - ?2 ORDER BY turn_started_at",
        params![now, idle_ms],
        |r| r.get(0),
    )
}

/// The thresholds (seconds) of the reminders of `kind` already sent for `game` at `ply`.
pub fn reminders_sent(
    c: &Conn<'_>,
    game: GameId,
    ply: u32,
    kind: ReminderKind,
) -> Result<Vec<u64>> {
    c.query_all(
        "SELECT threshold_secs FROM turn_reminders WHERE game_id = ?1 AND ply = ?2 AND kind = ?3",
        params![game, ply, kind],
        |r| {
            r.get::<i64>(0)
                .map(|s| u64::try_from(s).unwrap_or_default())
        },
    )
}

pub fn insert_reminder_sent(
    c: &Conn<'_>,
    game: GameId,
    ply: u32,
    kind: ReminderKind,
    threshold_secs: u64,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO turn_reminders (game_id, ply, kind, threshold_secs, sent_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        params![
            game,
            ply,
            kind,
            i64::try_from(threshold_secs).unwrap_or(i64::MAX),
            now
        ],
    )?;
    Ok(())
}
