//! The event log (increasing ids), written with the change it records.

use crate::{Conn, Dialect, Row, params};

use super::*;
use crate::StoreError;

#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    pub id: EventId,
    pub kind: String,
    pub game_id: Option<GameId>,
    pub challenge_id: Option<ChallengeId>,
    /// The human players concerned (at most two).
    pub players: Vec<PlayerId>,
    pub data: serde_json::Value,
    pub created_at: i64,
}

/// Appends an event (its id is assigned) and queues it for the webhooks of its players;
/// returns how many deliveries were queued.
pub fn insert_event(c: &Conn<'_>, e: &mut EventRow) -> Result<usize> {
    let payload =
        serde_json::to_string(&e.data).map_err(|err| StoreError::Corrupt(err.to_string()))?;
    let values = params![
        e.kind,
        e.game_id,
        e.challenge_id,
        e.players.first(),
        e.players.get(1),
        payload,
        e.created_at
    ];
    if c.dialect() == Dialect::Postgres {
        // One round trip for both inserts: every change writes an event, and a server's
        // round trips are what a shared database's writer spends its time on.
        let (id, queued): (i64, i64) = c.query_one(
            "WITH e AS (INSERT INTO events \
                 (kind, game_id, challenge_id, player_a, player_b, payload, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id), \
             d AS (INSERT INTO deliveries \
                 (webhook_id, event_id, status, attempts, next_attempt_at) \
                 SELECT w.id, e.id, 'pending', 0, ?7 FROM webhooks w, e \
                 WHERE w.active = TRUE AND w.gave_up_at IS NULL \
                 AND (w.player_id = ?4 OR w.player_id = ?5) \
                 ON CONFLICT DO NOTHING RETURNING 1) \
             SELECT (SELECT id FROM e), (SELECT COUNT(*) FROM d)",
            values,
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        e.id = EventId(id);
        return Ok(usize::try_from(queued).unwrap_or_default());
    }
    let id = c.insert_returning_id(
        "INSERT INTO events (kind, game_id, challenge_id, player_a, player_b, payload, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        values,
    )?;
    e.id = EventId(id);
    queue_deliveries(c, e)
}

/// Queues `e` for the webhooks of its players; answers how many.
fn queue_deliveries(c: &Conn<'_>, e: &EventRow) -> Result<usize> {
    // The WHERE clause also keeps SQLite from reading ON CONFLICT as a join's ON.
    c.execute(
        "INSERT INTO deliveries (webhook_id, event_id, status, attempts, next_attempt_at) \
         SELECT id, ?1, 'pending', 0, ?2 FROM webhooks \
         WHERE active = TRUE AND gave_up_at IS NULL AND (player_id = ?3 OR player_id = ?4) \
         ON CONFLICT DO NOTHING",
        params![e.id, e.created_at, e.players.first(), e.players.get(1)],
    )
}

fn event_from(r: &Row<'_>) -> Result<EventRow> {
    let a: Option<PlayerId> = r.get(4)?;
    let b: Option<PlayerId> = r.get(5)?;
    let payload: String = r.get(6)?;
    Ok(EventRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        game_id: r.get(2)?,
        challenge_id: r.get(3)?,
        players: a.into_iter().chain(b).collect(),
        data: serde_json::from_str(&payload).map_err(|err| StoreError::Corrupt(err.to_string()))?,
        created_at: r.get(7)?,
    })
}

const EVENT_COLS: &str = "id, kind, game_id, challenge_id, player_a, player_b, payload, created_at";

/// Events concerning `player` with an id above `since`, oldest first.
pub fn events_for_player(
    c: &Conn<'_>,
    player: PlayerId,
    since: EventId,
    limit: u32,
) -> Result<Vec<EventRow>> {
    c.query_all(
        &format!(
            "SELECT {EVENT_COLS} FROM events WHERE id > ?2 AND (player_a = ?1 OR player_b = ?1) \
         ORDER BY id LIMIT ?3"
        ),
        params![player, since, limit],
        event_from,
    )
}

/// The events of game `game` with an id above `since`, oldest first (a game's event stream).
pub fn events_of_game(
    c: &Conn<'_>,
    game: GameId,
    since: EventId,
    limit: u32,
) -> Result<Vec<EventRow>> {
    c.query_all(
        &format!(
            "SELECT {EVENT_COLS} FROM events WHERE game_id = ?1 AND id > ?2 ORDER BY id LIMIT ?3"
        ),
        params![game, since, limit],
        event_from,
    )
}

/// Every event with an id above `since`, oldest first (for front ends that see everything).
pub fn events_since(c: &Conn<'_>, since: EventId, limit: u32) -> Result<Vec<EventRow>> {
    c.query_all(
        &format!("SELECT {EVENT_COLS} FROM events WHERE id > ?1 ORDER BY id LIMIT ?2"),
        params![since, limit],
        event_from,
    )
}

pub fn event(c: &Conn<'_>, id: EventId) -> Result<Option<EventRow>> {
    c.query_opt(
        &format!("SELECT {EVENT_COLS} FROM events WHERE id = ?1"),
        params![id],
        event_from,
    )
}

/// The newest event's id (0 when there is none).
pub fn last_event_id(c: &Conn<'_>) -> Result<EventId> {
    let id: Option<i64> = c.query_one("SELECT MAX(id) FROM events", params![], |r| r.get(0))?;
    Ok(EventId(id.unwrap_or(0)))
}

/// An event of kind `test` concerning `player`, for tests.
#[cfg(any(test, feature = "test-helpers"))]
pub fn test_event(player: PlayerId) -> EventRow {
    EventRow {
        id: EventId(0),
        kind: "test".into(),
        game_id: None,
        challenge_id: None,
        players: vec![player],
        data: serde_json::json!({}),
        created_at: 1_000,
    }
}
