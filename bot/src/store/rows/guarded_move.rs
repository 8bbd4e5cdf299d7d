//! A move that does not end its game, written on PostgreSQL in one statement guarded by the
//! version of the game it was checked against: the move, the game's new state, its event, the
//! webhook deliveries and Discord posts the event owes. An instance that kept the game from
//! its last move needs no read before the next one, and a move costs the shared database one
//! statement and one round trip instead of three.

use crate::store::{Conn, Later, StoreError, ToSqlValue, params};

use super::*;

/// What the statement writes; `game` is the state after the move.
pub struct GuardedMove<'a> {
    pub game: &'a GameRow,
    /// The version `game` was computed from: the move is written only if it is still the
    /// stored one.
    pub read_version: i64,
    pub the_move: &'a MoveRow,
    /// The move's event (its id is assigned by the insert).
    pub event: &'a EventRow,
    /// The Discord channel the event is posted in, if any, and how long the post is held for
    /// the reply that shows it.
    pub channel_post: Option<(u64, Option<i64>)>,
    /// The player now to move, told by direct message if they asked for it.
    pub dm_player: Option<PlayerId>,
    /// Wall-clock time, for the outboxes.
    pub wall_now: i64,
}

/// What the statement wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardedMoveWritten {
    pub event: EventId,
    /// Webhook deliveries queued.
    pub deliveries: usize,
    /// Discord posts queued: the channel's, then the direct message's.
    pub posts: Vec<OutboxId>,
}

/// Writes `m` if game `m.game.id` is still at `m.read_version`; `None` (and nothing written)
/// when the game changed since. The answer comes later (see [`Conn::query_one_later`]): a
/// batch of moves costs one round trip. PostgreSQL only: SQLite has no writes in `WITH`.
pub fn write_guarded_move(
    c: &Conn<'_>,
    m: &GuardedMove<'_>,
) -> Result<Later<Option<GuardedMoveWritten>>> {
    let g = m.game;
    let mv = m.the_move;
    let captures =
        serde_json::to_string(&mv.captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let payload =
        serde_json::to_string(&m.event.data).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let channel = m.channel_post.map(|(channel, _)| snowflake(channel));
    let held_until = m.channel_post.and_then(|(_, held)| held);
    let rest = params![
        m.read_version,
        mv.ply,
        SideColumn(mv.side),
        mv.notation,
        mv.mv,
        captures,
        mv.position_hash as i64,
        mv.played_by,
        mv.played_at,
        m.event.kind,
        m.event.players.first(),
        m.event.players.get(1),
        payload,
        m.event.created_at,
        channel,
        held_until,
        m.wall_now,
        m.dm_player
    ];
    with_game_state(g, |state| {
        let all: Vec<&dyn ToSqlValue> = state.iter().chain(rest).copied().collect();
        c.query_one_later(GUARDED_MOVE_SQL, &all, |r| {
            let Some(event) = r.get::<Option<i64>>(0)? else {
                return Ok(None);
            };
            let deliveries: i64 = r.get(1)?;
            let post: Option<i64> = r.get(2)?;
            let dm: Option<i64> = r.get(3)?;
            Ok(Some(GuardedMoveWritten {
                event: EventId(event),
                deliveries: usize::try_from(deliveries).unwrap_or_default(),
                posts: post.into_iter().chain(dm).map(OutboxId).collect(),
            }))
        })
    })
}

/// Snowflakes are below 2^63, so they fit a signed column as they are.
fn snowflake(id: u64) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// ?1 to ?15: the game's new state (as `update_game_sql!`); ?16 the version read; ?17 to ?24
/// the move; ?25 to ?29 the event; ?30 to ?32 the channel post; ?33 the player to move. Every
/// insert selects from the guarded update, so a changed game writes nothing.
const GUARDED_MOVE_SQL: &str = concat!(
    "WITH g AS (",
    update_game_sql!(),
    " AND version = ?16 RETURNING id), \
     m AS (INSERT INTO moves (game_id, ply, side, notation, mv, captures, position_hash, \
         played_by, played_at) \
         SELECT g.id, CAST(?17 AS BIGINT), CAST(?18 AS TEXT), CAST(?19 AS TEXT), \
         CAST(?20 AS TEXT), CAST(?21 AS TEXT), CAST(?22 AS BIGINT), CAST(?23 AS BIGINT), \
         CAST(?24 AS BIGINT) FROM g), \
     e AS (INSERT INTO events (kind, game_id, challenge_id, player_a, player_b, payload, \
         created_at) \
         SELECT CAST(?25 AS TEXT), g.id, NULL, CAST(?26 AS BIGINT), CAST(?27 AS BIGINT), \
         CAST(?28 AS TEXT), CAST(?29 AS BIGINT) FROM g RETURNING id), \
     d AS (INSERT INTO deliveries (webhook_id, event_id, status, attempts, next_attempt_at) \
         SELECT w.id, e.id, 'pending', 0, CAST(?29 AS BIGINT) FROM webhooks w, e \
         WHERE w.active = TRUE AND (w.player_id = ?26 OR w.player_id = ?27) \
         ON CONFLICT DO NOTHING RETURNING 1), \
     p AS (INSERT INTO discord_outbox (event_id, channel_id, status, held_until, \
         next_attempt_at) \
         SELECT e.id, CAST(?30 AS BIGINT), 'pending', CAST(?31 AS BIGINT), \
         CAST(?32 AS BIGINT) FROM e WHERE CAST(?30 AS BIGINT) IS NOT NULL RETURNING id), \
     dm AS (INSERT INTO discord_outbox (event_id, channel_id, status, next_attempt_at, \
         dm_user_id) \
         SELECT e.id, pl.discord_user_id, 'pending', CAST(?32 AS BIGINT), pl.discord_user_id \
         FROM e, players pl WHERE pl.id = CAST(?33 AS BIGINT) AND pl.discord_dm = TRUE \
         AND pl.discord_user_id IS NOT NULL RETURNING id) \
     SELECT (SELECT id FROM e), (SELECT COUNT(*) FROM d), (SELECT id FROM p), \
     (SELECT id FROM dm)"
);
