//! Rows of the schema and the SQL that reads and writes them. Plain functions over a
//! connection, so the service composes several of them in one transaction.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::StoreError;

pub type PlayerId = i64;
pub type GameId = i64;
pub type ChallengeId = i64;
pub type EventId = i64;
pub type WebhookId = i64;

type Result<T> = std::result::Result<T, StoreError>;

// ---------------------------------------------------------------- players and tokens

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub name: String,
    pub discord_user_id: Option<u64>,
    pub created_at: i64,
}

fn player_from(r: &Row<'_>) -> rusqlite::Result<PlayerRow> {
    Ok(PlayerRow {
        id: r.get(0)?,
        name: r.get(1)?,
        discord_user_id: r.get::<_, Option<i64>>(2)?.map(|v| v as u64),
        created_at: r.get(3)?,
    })
}

const PLAYER_COLS: &str = "id, name, discord_user_id, created_at";

pub fn insert_player(
    c: &Connection,
    name: &str,
    discord_user_id: Option<u64>,
    now: i64,
) -> Result<PlayerRow> {
    c.execute(
        "INSERT INTO players (name, discord_user_id, created_at) VALUES (?1, ?2, ?3)",
        params![name, discord_user_id.map(|v| v as i64), now],
    )?;
    Ok(PlayerRow {
        id: c.last_insert_rowid(),
        name: name.to_owned(),
        discord_user_id,
        created_at: now,
    })
}

pub fn player(c: &Connection, id: PlayerId) -> Result<Option<PlayerRow>> {
    Ok(
        c.prepare_cached(&format!("SELECT {PLAYER_COLS} FROM players WHERE id = ?1"))?
            .query_row([id], player_from)
            .optional()?,
    )
}

pub fn player_by_discord(c: &Connection, discord_user_id: u64) -> Result<Option<PlayerRow>> {
    Ok(c.prepare_cached(&format!(
        "SELECT {PLAYER_COLS} FROM players WHERE discord_user_id = ?1"
    ))?
    .query_row([discord_user_id as i64], player_from)
    .optional()?)
}

pub fn rename_player(c: &Connection, id: PlayerId, name: &str) -> Result<()> {
    c.execute(
        "UPDATE players SET name = ?2 WHERE id = ?1",
        params![id, name],
    )?;
    Ok(())
}

pub fn insert_token(
    c: &Connection,
    player: PlayerId,
    token_hash: &[u8],
    label: &str,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO api_tokens (player_id, token_hash, label, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![player, token_hash, label, now],
    )?;
    Ok(())
}

pub fn player_by_token_hash(c: &Connection, token_hash: &[u8]) -> Result<Option<PlayerId>> {
    Ok(
        c.prepare_cached("SELECT player_id FROM api_tokens WHERE token_hash = ?1")?
            .query_row([token_hash], |r| r.get(0))
            .optional()?,
    )
}

// ---------------------------------------------------------------- games

/// One seat of a game: a person or the AI at a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Player(PlayerId),
    Ai(u8),
}

impl Seat {
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Seat::Player(p) => Some(p),
            Seat::Ai(_) => None,
        }
    }
    fn columns(self) -> (Option<PlayerId>, Option<i64>) {
        match self {
            Seat::Player(p) => (Some(p), None),
            Seat::Ai(level) => (None, Some(i64::from(level))),
        }
    }
    fn from_columns(player: Option<PlayerId>, ai: Option<i64>) -> rusqlite::Result<Seat> {
        match (player, ai) {
            (Some(p), None) => Ok(Seat::Player(p)),
            (None, Some(level)) => Ok(Seat::Ai(u8::try_from(level).unwrap_or(u8::MAX))),
            _ => Err(rusqlite::Error::InvalidColumnType(
                0,
                "seat".into(),
                rusqlite::types::Type::Null,
            )),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockRow {
    pub kind: String,
    pub per_move_ms: Option<i64>,
    pub bank_ms: Option<i64>,
    pub increment_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub variant: Option<String>,
    pub rules: String,
    pub attackers: Seat,
    pub defenders: Seat,
    pub status: String,
    pub winner: Option<String>,
    pub result_reason: Option<String>,
    pub ply: u32,
    pub side_to_move: String,
    pub position: String,
    pub clock: ClockRow,
    pub attackers_bank_ms: Option<i64>,
    pub defenders_bank_ms: Option<i64>,
    pub turn_started_at: i64,
    pub deadline_at: Option<i64>,
    pub reminded_ply: Option<u32>,
    pub draw_offer_by: Option<String>,
    pub context: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
}

const GAME_COLS: &str = "id, variant, rules, attackers_player, attackers_ai_level, \
    defenders_player, defenders_ai_level, status, winner, result_reason, ply, side_to_move, \
    position, clock_kind, clock_per_move_ms, clock_bank_ms, clock_increment_ms, \
    attackers_bank_ms, defenders_bank_ms, turn_started_at, deadline_at, reminded_ply, \
    draw_offer_by, context, created_at, updated_at, finished_at";

fn game_from(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        rules: r.get(2)?,
        attackers: Seat::from_columns(r.get(3)?, r.get(4)?)?,
        defenders: Seat::from_columns(r.get(5)?, r.get(6)?)?,
        status: r.get(7)?,
        winner: r.get(8)?,
        result_reason: r.get(9)?,
        ply: r.get(10)?,
        side_to_move: r.get(11)?,
        position: r.get(12)?,
        clock: ClockRow {
            kind: r.get(13)?,
            per_move_ms: r.get(14)?,
            bank_ms: r.get(15)?,
            increment_ms: r.get(16)?,
        },
        attackers_bank_ms: r.get(17)?,
        defenders_bank_ms: r.get(18)?,
        turn_started_at: r.get(19)?,
        deadline_at: r.get(20)?,
        reminded_ply: r.get(21)?,
        draw_offer_by: r.get(22)?,
        context: r.get(23)?,
        created_at: r.get(24)?,
        updated_at: r.get(25)?,
        finished_at: r.get(26)?,
    })
}

/// Inserts `game` (its id is ignored) and returns the new id.
pub fn insert_game(c: &Connection, g: &GameRow) -> Result<GameId> {
    let (ap, aa) = g.attackers.columns();
    let (dp, da) = g.defenders.columns();
    c.execute(
        "INSERT INTO games (variant, rules, attackers_player, attackers_ai_level, \
         defenders_player, defenders_ai_level, status, winner, result_reason, ply, side_to_move, \
         position, clock_kind, clock_per_move_ms, clock_bank_ms, clock_increment_ms, \
         attackers_bank_ms, defenders_bank_ms, turn_started_at, deadline_at, reminded_ply, \
         draw_offer_by, context, created_at, updated_at, finished_at) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, \
          ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
        params![
            g.variant,
            g.rules,
            ap,
            aa,
            dp,
            da,
            g.status,
            g.winner,
            g.result_reason,
            g.ply,
            g.side_to_move,
            g.position,
            g.clock.kind,
            g.clock.per_move_ms,
            g.clock.bank_ms,
            g.clock.increment_ms,
            g.attackers_bank_ms,
            g.defenders_bank_ms,
            g.turn_started_at,
            g.deadline_at,
            g.reminded_ply,
            g.draw_offer_by,
            g.context,
            g.created_at,
            g.updated_at,
            g.finished_at,
        ],
    )?;
    Ok(c.last_insert_rowid())
}

/// Writes the mutable state of `g` back.
pub fn update_game(c: &Connection, g: &GameRow) -> Result<()> {
    c.prepare_cached(
        "UPDATE games SET status = ?2, winner = ?3, result_reason = ?4, ply = ?5, \
         side_to_move = ?6, position = ?7, attackers_bank_ms = ?8, defenders_bank_ms = ?9, \
         turn_started_at = ?10, deadline_at = ?11, reminded_ply = ?12, draw_offer_by = ?13, \
         updated_at = ?14, finished_at = ?15 WHERE id = ?1",
    )?
    .execute(params![
        g.id,
        g.status,
        g.winner,
        g.result_reason,
        g.ply,
        g.side_to_move,
        g.position,
        g.attackers_bank_ms,
        g.defenders_bank_ms,
        g.turn_started_at,
        g.deadline_at,
        g.reminded_ply,
        g.draw_offer_by,
        g.updated_at,
        g.finished_at,
    ])?;
    Ok(())
}

pub fn game(c: &Connection, id: GameId) -> Result<Option<GameRow>> {
    Ok(
        c.prepare_cached(&format!("SELECT {GAME_COLS} FROM games WHERE id = ?1"))?
            .query_row([id], game_from)
            .optional()?,
    )
}

/// Games of `player`: every active one, then the `finished_limit` most recently finished.
pub fn games_of_player(
    c: &Connection,
    player: PlayerId,
    finished_limit: u32,
) -> Result<Vec<GameRow>> {
    let mut out: Vec<GameRow> = c
        .prepare_cached(&format!(
            "SELECT {GAME_COLS} FROM games WHERE status = 'active' AND \
             (attackers_player = ?1 OR defenders_player = ?1)"
        ))?
        .query_map([player], game_from)?
        .collect::<rusqlite::Result<_>>()?;
    let finished: Vec<GameRow> = c
        .prepare_cached(&format!(
            "SELECT {GAME_COLS} FROM games WHERE status <> 'active' AND \
             (attackers_player = ?1 OR defenders_player = ?1) \
             ORDER BY updated_at DESC, id DESC LIMIT ?2"
        ))?
        .query_map(params![player, finished_limit], game_from)?
        .collect::<rusqlite::Result<_>>()?;
    out.extend(finished);
    Ok(out)
}

/// Active games started in a front end's `context` (e.g. one Discord channel).
pub fn active_games_in_context(c: &Connection, context: &str) -> Result<Vec<GameRow>> {
    Ok(c.prepare_cached(&format!(
        "SELECT {GAME_COLS} FROM games WHERE context = ?1 AND status = 'active' ORDER BY id"
    ))?
    .query_map([context], game_from)?
    .collect::<rusqlite::Result<_>>()?)
}

/// Active games whose deadline is at or before `now`.
pub fn games_past_deadline(c: &Connection, now: i64) -> Result<Vec<GameId>> {
    Ok(c.prepare_cached(
        "SELECT id FROM games WHERE status = 'active' AND deadline_at IS NOT NULL \
             AND deadline_at <= ?1 ORDER BY deadline_at",
    )?
    .query_map([now], |r| r.get(0))?
    .collect::<rusqlite::Result<_>>()?)
}

/// Active games whose deadline falls within `before_ms` of `now` and whose reminder for
/// the current ply has not been sent.
pub fn games_needing_reminder(c: &Connection, now: i64, before_ms: i64) -> Result<Vec<GameId>> {
    Ok(c.prepare_cached(
        "SELECT id FROM games WHERE status = 'active' AND deadline_at IS NOT NULL \
             AND deadline_at > ?1 AND deadline_at <= ?1 + ?2 \
             AND (reminded_ply IS NULL OR reminded_ply <> ply) ORDER BY deadline_at",
    )?
    .query_map(params![now, before_ms], |r| r.get(0))?
    .collect::<rusqlite::Result<_>>()?)
}

/// Active games where the AI is to move.
pub fn games_awaiting_ai(c: &Connection) -> Result<Vec<GameId>> {
    Ok(c.prepare_cached(
        "SELECT id FROM games WHERE status = 'active' AND \
             ((side_to_move = 'attackers' AND attackers_ai_level IS NOT NULL) OR \
              (side_to_move = 'defenders' AND defenders_ai_level IS NOT NULL)) ORDER BY id",
    )?
    .query_map([], |r| r.get(0))?
    .collect::<rusqlite::Result<_>>()?)
}

// ---------------------------------------------------------------- moves

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MoveRow {
    pub ply: u32,
    pub side: String,
    pub notation: String,
    #[serde(rename = "move")]
    pub mv: String,
    pub captures: Vec<String>,
    #[serde(skip)]
    pub position_hash: u64,
    pub played_by: Option<PlayerId>,
    pub played_at: i64,
}

pub fn insert_move(c: &Connection, game: GameId, m: &MoveRow) -> Result<()> {
    let captures =
        serde_json::to_string(&m.captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    c.prepare_cached(
        "INSERT INTO moves (game_id, ply, side, notation, mv, captures, position_hash, \
         played_by, played_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        game,
        m.ply,
        m.side,
        m.notation,
        m.mv,
        captures,
        m.position_hash as i64,
        m.played_by,
        m.played_at
    ])?;
    Ok(())
}

pub fn moves(c: &Connection, game: GameId) -> Result<Vec<MoveRow>> {
    let mut stmt = c.prepare_cached(
        "SELECT ply, side, notation, mv, captures, position_hash, played_by, played_at \
         FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok((
            MoveRow {
                ply: r.get(0)?,
                side: r.get(1)?,
                notation: r.get(2)?,
                mv: r.get(3)?,
                captures: Vec::new(),
                position_hash: r.get::<_, i64>(5)? as u64,
                played_by: r.get(6)?,
                played_at: r.get(7)?,
            },
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (mut m, captures) = row?;
        m.captures =
            serde_json::from_str(&captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        out.push(m);
    }
    Ok(out)
}

// ---------------------------------------------------------------- challenges

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: ChallengeId,
    pub challenger: PlayerId,
    pub opponent: Option<PlayerId>,
    pub opponent_ai_level: Option<u8>,
    pub variant: Option<String>,
    pub rules: String,
    pub challenger_side: String,
    pub clock: String,
    pub status: String,
    pub game_id: Option<GameId>,
    pub context: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub resolved_at: Option<i64>,
}

const CHALLENGE_COLS: &str = "id, challenger, opponent, opponent_ai_level, variant, rules, \
    challenger_side, clock, status, game_id, context, created_at, expires_at, resolved_at";

fn challenge_from(r: &Row<'_>) -> rusqlite::Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: r.get(0)?,
        challenger: r.get(1)?,
        opponent: r.get(2)?,
        opponent_ai_level: r
            .get::<_, Option<i64>>(3)?
            .map(|l| u8::try_from(l).unwrap_or(u8::MAX)),
        variant: r.get(4)?,
        rules: r.get(5)?,
        challenger_side: r.get(6)?,
        clock: r.get(7)?,
        status: r.get(8)?,
        game_id: r.get(9)?,
        context: r.get(10)?,
        created_at: r.get(11)?,
        expires_at: r.get(12)?,
        resolved_at: r.get(13)?,
    })
}

pub fn insert_challenge(c: &Connection, ch: &ChallengeRow) -> Result<ChallengeId> {
    c.execute(
        "INSERT INTO challenges (challenger, opponent, opponent_ai_level, variant, rules, \
         challenger_side, clock, status, game_id, context, created_at, expires_at, resolved_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        params![
            ch.challenger,
            ch.opponent,
            ch.opponent_ai_level.map(i64::from),
            ch.variant,
            ch.rules,
            ch.challenger_side,
            ch.clock,
            ch.status,
            ch.game_id,
            ch.context,
            ch.created_at,
            ch.expires_at,
            ch.resolved_at
        ],
    )?;
    Ok(c.last_insert_rowid())
}

pub fn challenge(c: &Connection, id: ChallengeId) -> Result<Option<ChallengeRow>> {
    Ok(c.prepare_cached(&format!(
        "SELECT {CHALLENGE_COLS} FROM challenges WHERE id = ?1"
    ))?
    .query_row([id], challenge_from)
    .optional()?)
}

pub fn resolve_challenge(
    c: &Connection,
    id: ChallengeId,
    status: &str,
    game: Option<GameId>,
    now: i64,
) -> Result<()> {
    c.execute(
        "UPDATE challenges SET status = ?2, game_id = ?3, resolved_at = ?4 WHERE id = ?1",
        params![id, status, game, now],
    )?;
    Ok(())
}

/// Pending challenges `player` may answer (sent to them, or open to anyone but them),
/// and those `player` sent.
pub fn pending_challenges_of(
    c: &Connection,
    player: PlayerId,
) -> Result<(Vec<ChallengeRow>, Vec<ChallengeRow>)> {
    let incoming = c
        .prepare_cached(&format!(
            "SELECT {CHALLENGE_COLS} FROM challenges WHERE status = 'pending' AND \
             opponent_ai_level IS NULL AND challenger <> ?1 AND (opponent = ?1 OR opponent IS NULL) \
             ORDER BY id"
        ))?
        .query_map([player], challenge_from)?
        .collect::<rusqlite::Result<_>>()?;
    let outgoing = c
        .prepare_cached(&format!(
            "SELECT {CHALLENGE_COLS} FROM challenges WHERE status = 'pending' AND challenger = ?1 \
             ORDER BY id"
        ))?
        .query_map([player], challenge_from)?
        .collect::<rusqlite::Result<_>>()?;
    Ok((incoming, outgoing))
}

pub fn expired_challenges(c: &Connection, now: i64) -> Result<Vec<ChallengeId>> {
    Ok(c.prepare_cached(
        "SELECT id FROM challenges WHERE status = 'pending' AND expires_at <= ?1 ORDER BY id",
    )?
    .query_map([now], |r| r.get(0))?
    .collect::<rusqlite::Result<_>>()?)
}

// ---------------------------------------------------------------- idempotency keys

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

// ---------------------------------------------------------------- events

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
pub fn insert_event(c: &Connection, e: &mut EventRow) -> Result<usize> {
    let payload =
        serde_json::to_string(&e.data).map_err(|err| StoreError::Corrupt(err.to_string()))?;
    c.prepare_cached(
        "INSERT INTO events (kind, game_id, challenge_id, player_a, player_b, payload, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        e.kind,
        e.game_id,
        e.challenge_id,
        e.players.first(),
        e.players.get(1),
        payload,
        e.created_at
    ])?;
    e.id = c.last_insert_rowid();
    Ok(c.prepare_cached(
        "INSERT OR IGNORE INTO deliveries (webhook_id, event_id, status, attempts, next_attempt_at) \
         SELECT id, ?1, 'pending', 0, ?2 FROM webhooks \
         WHERE active = 1 AND (player_id = ?3 OR player_id = ?4)",
    )?
    .execute(params![e.id, e.created_at, e.players.first(), e.players.get(1)])?)
}

fn event_from(r: &Row<'_>) -> rusqlite::Result<(EventRow, String)> {
    let a: Option<PlayerId> = r.get(4)?;
    let b: Option<PlayerId> = r.get(5)?;
    Ok((
        EventRow {
            id: r.get(0)?,
            kind: r.get(1)?,
            game_id: r.get(2)?,
            challenge_id: r.get(3)?,
            players: a.into_iter().chain(b).collect(),
            data: serde_json::Value::Null,
            created_at: r.get(7)?,
        },
        r.get(6)?,
    ))
}

fn finish_events(
    rows: impl Iterator<Item = rusqlite::Result<(EventRow, String)>>,
) -> Result<Vec<EventRow>> {
    let mut out = Vec::new();
    for row in rows {
        let (mut e, payload) = row?;
        e.data =
            serde_json::from_str(&payload).map_err(|err| StoreError::Corrupt(err.to_string()))?;
        out.push(e);
    }
    Ok(out)
}

const EVENT_COLS: &str = "id, kind, game_id, challenge_id, player_a, player_b, payload, created_at";

/// Events concerning `player` with an id above `since`, oldest first.
pub fn events_for_player(
    c: &Connection,
    player: PlayerId,
    since: EventId,
    limit: u32,
) -> Result<Vec<EventRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {EVENT_COLS} FROM events WHERE id > ?2 AND (player_a = ?1 OR player_b = ?1) \
         ORDER BY id LIMIT ?3"
    ))?;
    let rows = stmt.query_map(params![player, since, limit], event_from)?;
    finish_events(rows)
}

/// Every event with an id above `since`, oldest first (for front ends that see everything).
pub fn events_since(c: &Connection, since: EventId, limit: u32) -> Result<Vec<EventRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {EVENT_COLS} FROM events WHERE id > ?1 ORDER BY id LIMIT ?2"
    ))?;
    let rows = stmt.query_map(params![since, limit], event_from)?;
    finish_events(rows)
}

pub fn event(c: &Connection, id: EventId) -> Result<Option<EventRow>> {
    let mut stmt = c.prepare_cached(&format!("SELECT {EVENT_COLS} FROM events WHERE id = ?1"))?;
    let rows = stmt.query_map([id], event_from)?;
    Ok(finish_events(rows)?.pop())
}

// ---------------------------------------------------------------- webhooks and deliveries

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WebhookRow {
    pub id: WebhookId,
    pub player_id: PlayerId,
    pub url: String,
    #[serde(skip)]
    pub secret: String,
    pub active: bool,
    pub created_at: i64,
}

pub fn insert_webhook(
    c: &Connection,
    player: PlayerId,
    url: &str,
    secret: &str,
    now: i64,
) -> Result<WebhookRow> {
    c.execute(
        "INSERT INTO webhooks (player_id, url, secret, active, created_at) VALUES (?1, ?2, ?3, 1, ?4)",
        params![player, url, secret, now],
    )?;
    Ok(WebhookRow {
        id: c.last_insert_rowid(),
        player_id: player,
        url: url.to_owned(),
        secret: secret.to_owned(),
        active: true,
        created_at: now,
    })
}

pub fn webhooks_of(c: &Connection, player: PlayerId) -> Result<Vec<WebhookRow>> {
    Ok(c.prepare_cached(
        "SELECT id, player_id, url, secret, active, created_at FROM webhooks \
             WHERE player_id = ?1 AND active = 1 ORDER BY id",
    )?
    .query_map([player], |r| {
        Ok(WebhookRow {
            id: r.get(0)?,
            player_id: r.get(1)?,
            url: r.get(2)?,
            secret: r.get(3)?,
            active: r.get(4)?,
            created_at: r.get(5)?,
        })
    })?
    .collect::<rusqlite::Result<_>>()?)
}

/// Deactivates `player`'s webhook `id`; false when there is none.
pub fn deactivate_webhook(c: &Connection, player: PlayerId, id: WebhookId) -> Result<bool> {
    let n = c.execute(
        "UPDATE webhooks SET active = 0 WHERE id = ?1 AND player_id = ?2 AND active = 1",
        params![id, player],
    )?;
    if n > 0 {
        c.execute(
            "UPDATE deliveries SET status = 'failed', last_error = 'webhook removed' \
             WHERE webhook_id = ?1 AND status = 'pending'",
            [id],
        )?;
    }
    Ok(n > 0)
}

#[derive(Debug, Clone)]
pub struct DueDelivery {
    pub id: i64,
    pub attempts: u32,
    pub url: String,
    pub secret: String,
    pub event_id: EventId,
}

pub fn due_deliveries(c: &Connection, now: i64, limit: u32) -> Result<Vec<DueDelivery>> {
    Ok(c.prepare_cached(
        "SELECT d.id, d.attempts, w.url, w.secret, d.event_id FROM deliveries d \
             JOIN webhooks w ON w.id = d.webhook_id \
             WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 \
             ORDER BY d.next_attempt_at, d.id LIMIT ?2",
    )?
    .query_map(params![now, limit], |r| {
        Ok(DueDelivery {
            id: r.get(0)?,
            attempts: r.get(1)?,
            url: r.get(2)?,
            secret: r.get(3)?,
            event_id: r.get(4)?,
        })
    })?
    .collect::<rusqlite::Result<_>>()?)
}

pub fn delivery_succeeded(c: &Connection, id: i64, now: i64) -> Result<()> {
    c.execute(
        "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?2, \
         last_error = NULL WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// Records a failed attempt: retried at `retry_at`, or given up when `None`.
pub fn delivery_failed(c: &Connection, id: i64, error: &str, retry_at: Option<i64>) -> Result<()> {
    match retry_at {
        Some(at) => c.execute(
            "UPDATE deliveries SET attempts = attempts + 1, next_attempt_at = ?2, last_error = ?3 \
             WHERE id = ?1",
            params![id, at, error],
        )?,
        None => c.execute(
            "UPDATE deliveries SET status = 'failed', attempts = attempts + 1, last_error = ?2 \
             WHERE id = ?1",
            params![id, error],
        )?,
    };
    Ok(())
}

/// When the next pending delivery is due, if any.
pub fn next_delivery_at(c: &Connection) -> Result<Option<i64>> {
    Ok(c.query_row(
        "SELECT MIN(next_attempt_at) FROM deliveries WHERE status = 'pending'",
        [],
        |r| r.get(0),
    )
    .optional()?
    .flatten())
}
