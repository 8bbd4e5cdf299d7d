//! The Discord outbox: posts owed to Discord channels, one per announced event, delivered in
//! order per channel.

use crate::{Conn, params};

use crate::StoreError;

use super::*;

/// The oldest undelivered post of one channel: the only one of that channel that may go out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxHead {
    pub id: OutboxId,
    pub event_id: EventId,
    pub channel_id: u64,
    pub attempts: u32,
    /// When it may go out: after its hold and its back-off.
    pub due_at: i64,
    /// Set for a direct message to this Discord user (then `channel_id` is the same id).
    pub dm_user_id: Option<u64>,
}

/// Queues a post of `event` in `channel`; `held_until` keeps it back while a front end shows
/// the event in its own reply.
pub fn insert_outbox_post(
    c: &Conn<'_>,
    event: EventId,
    channel: u64,
    now: i64,
    held_until: Option<i64>,
) -> Result<OutboxId> {
    let id = c.insert_returning_id(
        "INSERT INTO discord_outbox (event_id, channel_id, status, held_until, next_attempt_at) \
         VALUES (?1, ?2, 'pending', ?3, ?4) RETURNING id",
        params![event, snowflake_column(channel), held_until, now],
    )?;
    Ok(OutboxId(id))
}

/// Queues a direct message about `event` to the Discord user `user`. Its `channel_id` is the
/// user's id: each person's messages go out in order, apart from every channel.
pub fn insert_outbox_dm(c: &Conn<'_>, event: EventId, user: u64, now: i64) -> Result<OutboxId> {
    let id = c.insert_returning_id(
        "INSERT INTO discord_outbox (event_id, channel_id, status, next_attempt_at, dm_user_id) \
         VALUES (?1, ?2, 'pending', ?3, ?2) RETURNING id",
        params![event, snowflake_column(user), now],
    )?;
    Ok(OutboxId(id))
}

/// Snowflakes are below 2^63, so they fit SQLite's signed integers as they are.
fn snowflake_column(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// The head of every channel with pending posts, oldest channel first.
pub fn outbox_heads(c: &Conn<'_>) -> Result<Vec<OutboxHead>> {
    c.query_all(
        "SELECT o.id, o.event_id, o.channel_id, o.attempts, \
                CASE WHEN o.held_until > o.next_attempt_at THEN o.held_until \
                     ELSE o.next_attempt_at END, o.dm_user_id \
         FROM discord_outbox o \
         JOIN (SELECT MIN(id) AS id FROM discord_outbox WHERE status = 'pending' \
               GROUP BY channel_id) h ON h.id = o.id \
         ORDER BY o.id",
        params![],
        |r| {
            let channel: i64 = r.get(2)?;
            Ok(OutboxHead {
                id: r.get(0)?,
                event_id: r.get(1)?,
                channel_id: u64::try_from(channel).unwrap_or_default(),
                attempts: r.get(3)?,
                due_at: r.get(4)?,
                dm_user_id: r
                    .get::<Option<i64>>(5)?
                    .map(|u| u64::try_from(u).unwrap_or_default()),
            })
        },
    )
}

/// Discord accepted the post.
pub fn outbox_delivered(c: &Conn<'_>, id: OutboxId, now: i64) -> Result<()> {
    c.execute(
        "UPDATE discord_outbox SET status = 'delivered', attempts = attempts + 1, done_at = ?2, \
         last_error = NULL WHERE id = ?1 AND status = 'pending'",
        params![id, now],
    )?;
    Ok(())
}

/// A failed attempt: tried again at `retry_at`, or given up when `None`.
pub fn outbox_failed(
    c: &Conn<'_>,
    id: OutboxId,
    error: &str,
    retry_at: Option<i64>,
    now: i64,
) -> Result<()> {
    match retry_at {
        Some(at) => c.execute(
            "UPDATE discord_outbox SET attempts = attempts + 1, next_attempt_at = ?2, \
                 last_error = ?3 WHERE id = ?1 AND status = 'pending'",
            params![id, at, error],
        )?,
        None => c.execute(
            "UPDATE discord_outbox SET status = 'abandoned', attempts = attempts + 1, \
                 last_error = ?2, done_at = ?3 WHERE id = ?1 AND status = 'pending'",
            params![id, error, now],
        )?,
    };
    Ok(())
}

/// The front end's own reply showed these posts: nothing is left to deliver.
pub fn outbox_shown(c: &Conn<'_>, ids: &[OutboxId], now: i64) -> Result<()> {
    for id in ids {
        c.execute(
            "UPDATE discord_outbox SET status = 'shown', done_at = ?2 \
             WHERE id = ?1 AND status = 'pending' AND held_until IS NOT NULL",
            params![id, now],
        )?;
    }
    Ok(())
}

/// The front end's reply is still being made: keep these posts back until `until` (unless
/// the hold was already settled or the post went out).
pub fn outbox_hold_longer(c: &Conn<'_>, ids: &[OutboxId], until: i64) -> Result<()> {
    for id in ids {
        c.execute(
            "UPDATE discord_outbox SET held_until = ?2 \
             WHERE id = ?1 AND status = 'pending' AND held_until IS NOT NULL",
            params![id, until],
        )?;
    }
    Ok(())
}

/// The front end's reply did not go out: deliver these posts as any other.
pub fn outbox_released(c: &Conn<'_>, ids: &[OutboxId]) -> Result<()> {
    for id in ids {
        c.execute(
            "UPDATE discord_outbox SET held_until = NULL WHERE id = ?1",
            params![id],
        )?;
    }
    Ok(())
}

/// Where a post stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutboxStatus {
    Pending,
    /// Discord accepted the bot's post.
    Delivered,
    /// A front end's own reply showed it.
    Shown,
    /// Given up after its tries.
    Abandoned,
}

impl OutboxStatus {
    fn from_column(text: &str) -> Result<OutboxStatus> {
        Ok(match text {
            "pending" => OutboxStatus::Pending,
            "delivered" => OutboxStatus::Delivered,
            "shown" => OutboxStatus::Shown,
            "abandoned" => OutboxStatus::Abandoned,
            other => {
                return Err(StoreError::Corrupt(format!(
                    "unknown discord_outbox status {other:?}"
                )));
            }
        })
    }
}

/// The posts of `event`, with their status and attempts (tests and diagnostics).
pub fn outbox_posts_of_event(
    c: &Conn<'_>,
    event: EventId,
) -> Result<Vec<(OutboxId, OutboxStatus, u32)>> {
    let rows: Vec<(OutboxId, String, u32)> = c.query_all(
        "SELECT id, status, attempts FROM discord_outbox WHERE event_id = ?1 ORDER BY id",
        params![event],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    rows.into_iter()
        .map(|(id, status, attempts)| Ok((id, OutboxStatus::from_column(&status)?, attempts)))
        .collect()
}

/// Posts not yet delivered nor given up.
pub fn outbox_pending_count(c: &Conn<'_>) -> Result<u64> {
    let count: i64 = c.query_one(
        "SELECT COUNT(*) FROM discord_outbox WHERE status = 'pending'",
        params![],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(count).unwrap_or_default())
}

/// The stored context of the game, or else of the challenge, an event is about.
pub fn event_context(
    c: &Conn<'_>,
    game: Option<GameId>,
    challenge: Option<ChallengeId>,
) -> Result<Option<String>> {
    let (sql, id) = match (game, challenge) {
        (Some(game), _) => ("SELECT context FROM games WHERE id = ?1", game.get()),
        (None, Some(challenge)) => (
            "SELECT context FROM challenges WHERE id = ?1",
            challenge.get(),
        ),
        (None, None) => return Ok(None),
    };
    Ok(
        c.query_opt(sql, params![id], |r| r.get::<Option<String>>(0))?
            .flatten(),
    )
}

/// Waits post `id` until `at` without counting a try (nothing was sent).
pub fn outbox_deferred(c: &Conn<'_>, id: OutboxId, at: i64) -> Result<()> {
    c.execute(
        "UPDATE discord_outbox SET next_attempt_at = ?2 WHERE id = ?1 AND status = 'pending'",
        params![id, at],
    )?;
    Ok(())
}

/// Direct message `id` was refused because its player's DMs are closed (50007): given up.
pub fn outbox_dms_closed(c: &Conn<'_>, id: OutboxId, now: i64) -> Result<()> {
    c.execute(
        "UPDATE discord_outbox SET status = 'abandoned', attempts = attempts + 1, \
             last_error = 'direct messages closed (50007)', done_at = ?2 \
             WHERE id = ?1 AND status = 'pending'",
        params![id, now],
    )?;
    Ok(())
}
