//! A move that does not end its game, written on PostgreSQL in one statement guarded by the
//! version of the game it was checked against: the move, the game's new state, its event, the
//! webhook deliveries and Discord posts the event owes, and the answer kept under the move's
//! idempotency key. An instance that kept the game from its last move needs no read before the
//! next one, and a move costs the shared database one statement and one round trip instead of
//! three.

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
    /// The answer to keep under the request's idempotency key, if it came with one.
    pub keyed: Option<KeyedAnswer<'a>>,
}

/// A move's answer as kept under its request's idempotency key. A key already used (the
/// request is a retry, or the key was used for another) fails the guard as a changed game
/// does: only the stored answer can settle it.
pub struct KeyedAnswer<'a> {
    pub player: PlayerId,
    pub key: &'a str,
    pub request_hash: &'a [u8],
    pub answer: &'a str,
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
/// when the game changed since. The answer comes later (see [`Conn::postgres_row_later`]):
/// the moves of a batch are written by one statement, in one round trip. PostgreSQL only.
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
        m.dm_player,
        m.keyed.as_ref().map(|k| k.player),
        m.keyed.as_ref().map(|k| k.key),
        m.keyed.as_ref().map(|k| k.request_hash),
        m.keyed.as_ref().map(|k| k.answer)
    ];
    with_game_state(g, |state| {
        let all: Vec<&dyn ToSqlValue> = state.iter().chain(rest).copied().collect();
        c.postgres_row_later(GUARDED_MOVES_SQL, &all, |r| {
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

/// The moves of a batch as arrays, one element per move, in the order of
/// [`write_guarded_move`]'s values: ?1 to ?15 the game's new state (as `update_game_sql!`),
/// ?16 the version read, ?17 to ?24 the move, ?25 to ?29 the event, ?30 to ?32 the channel
/// post, ?33 the player to move, ?34 to ?37 the idempotency key and its answer. Every insert
/// selects from the guarded update, so a game that changed (or a key already used) writes nothing, and each move written takes its event's id from the events' own
/// sequence (the writers' lock keeps ids in commit order across instances). One answer row
/// per move:
/// its event (NULL when its game changed), deliveries, channel post, direct message, and last
/// its ordinal.
const GUARDED_MOVES_SQL: &str = "\
WITH v AS (SELECT * FROM unnest(CAST(?1 AS BIGINT[]), CAST(?2 AS TEXT[]), \
     CAST(?3 AS TEXT[]), CAST(?4 AS TEXT[]), CAST(?5 AS BIGINT[]), CAST(?6 AS TEXT[]), \
     CAST(?7 AS TEXT[]), CAST(?8 AS BIGINT[]), CAST(?9 AS BIGINT[]), CAST(?10 AS BIGINT[]), \
     CAST(?11 AS BIGINT[]), CAST(?12 AS BIGINT[]), CAST(?13 AS TEXT[]), CAST(?14 AS BIGINT[]), \
     CAST(?15 AS BIGINT[]), CAST(?16 AS BIGINT[]), CAST(?17 AS BIGINT[]), CAST(?18 AS TEXT[]), \
     CAST(?19 AS TEXT[]), CAST(?20 AS TEXT[]), CAST(?21 AS TEXT[]), CAST(?22 AS BIGINT[]), \
     CAST(?23 AS BIGINT[]), CAST(?24 AS BIGINT[]), CAST(?25 AS TEXT[]), CAST(?26 AS BIGINT[]), \
     CAST(?27 AS BIGINT[]), CAST(?28 AS TEXT[]), CAST(?29 AS BIGINT[]), CAST(?30 AS BIGINT[]), \
     CAST(?31 AS BIGINT[]), CAST(?32 AS BIGINT[]), CAST(?33 AS BIGINT[]), \
     CAST(?34 AS BIGINT[]), CAST(?35 AS TEXT[]), CAST(?36 AS BYTEA[]), CAST(?37 AS TEXT[])) \
     WITH ORDINALITY \
     AS v(id, status, winner, result_reason, ply, side_to_move, position, attackers_bank_ms, \
     defenders_bank_ms, turn_started_at, deadline_at, reminded_ply, draw_offer_by, updated_at, \
     finished_at, read_version, move_ply, move_side, notation, mv, captures, position_hash, \
     played_by, played_at, kind, player_a, player_b, payload, created_at, channel, held_until, \
     wall_now, dm_player, key_player, idempotency_key, request_hash, response, n)), \
g AS (UPDATE games SET status = v.status, winner = v.winner, result_reason = v.result_reason, \
     ply = v.ply, side_to_move = v.side_to_move, position = v.position, \
     attackers_bank_ms = v.attackers_bank_ms, defenders_bank_ms = v.defenders_bank_ms, \
     turn_started_at = v.turn_started_at, deadline_at = v.deadline_at, \
     reminded_ply = v.reminded_ply, draw_offer_by = v.draw_offer_by, \
     updated_at = v.updated_at, finished_at = v.finished_at, version = games.version + 1 \
     FROM v WHERE games.id = v.id AND games.version = v.read_version \
     AND NOT EXISTS (SELECT 1 FROM idempotency_keys k \
     WHERE k.player_id = v.key_player AND k.key = v.idempotency_key) \
     RETURNING v.*, nextval('events_id_seq') AS event_id), \
m AS (INSERT INTO moves (game_id, ply, side, notation, mv, captures, position_hash, \
     played_by, played_at) \
     SELECT id, move_ply, move_side, notation, mv, captures, position_hash, played_by, \
     played_at FROM g), \
k AS (INSERT INTO idempotency_keys (player_id, key, request_hash, response, created_at) \
     SELECT key_player, idempotency_key, request_hash, response, played_at FROM g \
     WHERE key_player IS NOT NULL), \
e AS (INSERT INTO events (id, kind, game_id, challenge_id, player_a, player_b, payload, \
     created_at) \
     SELECT event_id, kind, id, NULL, player_a, player_b, payload, created_at FROM g), \
d AS (INSERT INTO deliveries (webhook_id, event_id, status, attempts, next_attempt_at) \
     SELECT w.id, g.event_id, 'pending', 0, g.created_at FROM webhooks w JOIN g \
     ON w.active = TRUE AND (w.player_id = g.player_a OR w.player_id = g.player_b) \
     ON CONFLICT DO NOTHING RETURNING event_id), \
p AS (INSERT INTO discord_outbox (event_id, channel_id, status, held_until, next_attempt_at) \
     SELECT event_id, channel, 'pending', held_until, wall_now FROM g \
     WHERE channel IS NOT NULL ORDER BY event_id RETURNING id, event_id), \
dm AS (INSERT INTO discord_outbox (event_id, channel_id, status, next_attempt_at, dm_user_id) \
     SELECT event_id, dm_user, 'pending', wall_now, dm_user FROM \
     (SELECT g.event_id, g.wall_now, (SELECT pl.discord_user_id FROM players pl \
     WHERE pl.id = g.dm_player AND pl.discord_dm = TRUE) AS dm_user FROM g) t \
     WHERE dm_user IS NOT NULL ORDER BY event_id RETURNING id, event_id) \
SELECT g.event_id, (SELECT COUNT(*) FROM d WHERE d.event_id = g.event_id), \
     (SELECT p.id FROM p WHERE p.event_id = g.event_id), \
     (SELECT dm.id FROM dm WHERE dm.event_id = g.event_id), v.n \
FROM v LEFT JOIN g ON g.n = v.n ORDER BY v.n";
