//! Players (their API tokens: `api_tokens`).

use crate::{Conn, Dialect, Row, params};

use super::*;
use crate::StoreError;
use crate::domain::Handle;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub name: String,
    pub handle: Handle,
    pub discord_user_id: Option<u64>,
    pub created_at: i64,
}

fn player_from(r: &Row<'_>) -> Result<PlayerRow> {
    Ok(PlayerRow {
        id: r.get(0)?,
        name: r.get(1)?,
        handle: r.get(2)?,
        discord_user_id: r.get::<Option<i64>>(3)?.map(|v| v as u64),
        created_at: r.get(4)?,
    })
}

const PLAYER_COLS: &str = "id, name, handle, discord_user_id, created_at";

/// Inserts a player with `handle`. A handle already taken is the store's unique violation
/// (see [`handle_taken`]), so two registrations racing for one handle cannot both get it.
pub fn insert_player(
    c: &Conn<'_>,
    name: &str,
    handle: &Handle,
    discord_user_id: Option<u64>,
    now: i64,
) -> Result<PlayerRow> {
    // DO NOTHING rather than an error: PostgreSQL aborts a transaction at its first error,
    // and a registration goes on to try the next handle in the same one.
    let id: i64 = c
        .query_opt(
            "INSERT INTO players (name, handle, discord_user_id, created_at) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (handle) DO NOTHING RETURNING id",
            params![name, handle, discord_user_id.map(|v| v as i64), now],
            |r| r.get(0),
        )?
        .ok_or_else(|| StoreError::UniqueTaken(HANDLE_CONSTRAINT.into()))?;
    Ok(PlayerRow {
        id: PlayerId(id),
        name: name.to_owned(),
        handle: handle.clone(),
        discord_user_id,
        created_at: now,
    })
}

/// How the store names the handle's uniqueness (SQLite's words; PostgreSQL's index name is
/// `players_handle`).
const HANDLE_CONSTRAINT: &str = "players.handle";

/// Whether `error` is a write refused because the handle is someone else's.
pub fn handle_taken(error: &StoreError) -> bool {
    error.unique_violation().is_some_and(|constraint| {
        constraint.contains(HANDLE_CONSTRAINT) || constraint.contains("players_handle")
    })
}

pub fn player(c: &Conn<'_>, id: PlayerId) -> Result<Option<PlayerRow>> {
    c.query_opt(
        &format!("SELECT {PLAYER_COLS} FROM players WHERE id = ?1"),
        params![id],
        player_from,
    )
}

pub fn player_by_handle(c: &Conn<'_>, handle: &Handle) -> Result<Option<PlayerRow>> {
    c.query_opt(
        &format!("SELECT {PLAYER_COLS} FROM players WHERE handle = ?1"),
        params![handle],
        player_from,
    )
}

pub fn player_by_discord(c: &Conn<'_>, discord_user_id: u64) -> Result<Option<PlayerRow>> {
    c.query_opt(
        &format!("SELECT {PLAYER_COLS} FROM players WHERE discord_user_id = ?1"),
        params![discord_user_id as i64],
        player_from,
    )
}

/// The handles that start with `prefix` (handles only hold characters below `~`, so the range
/// `[prefix, prefix~)` is exactly them, read off the unique index).
pub fn handles_starting_with(c: &Conn<'_>, prefix: &str) -> Result<Vec<String>> {
    c.query_all(
        "SELECT handle FROM players WHERE handle >= ?1 AND handle < ?1 || '~' ORDER BY handle",
        params![prefix],
        |r| r.get(0),
    )
}

/// Page of players whose handle starts with `prefix`, by handle: `limit` from `offset`.
pub fn players_by_handle_prefix(
    c: &Conn<'_>,
    prefix: &str,
    limit: u32,
    offset: u64,
) -> Result<Vec<PlayerRow>> {
    c.query_all(
        &format!(
            "SELECT {PLAYER_COLS} FROM players WHERE handle >= ?1 AND handle < ?1 || '~' \
         ORDER BY handle LIMIT ?2 OFFSET ?3"
        ),
        params![prefix, limit, offset as i64],
        player_from,
    )
}

/// Players whose display name starts with `prefix`, any case (ASCII letters on SQLite), by
/// name: `limit` at most. Every character of `prefix` matches only itself.
///
/// A range of lowercased names, from `prefix` to `prefix` followed by the last character, so
/// the index on `lower(name)` (migration 21; byte order, `COLLATE "C"` on PostgreSQL) finds
/// them without reading every player.
pub fn players_by_name_prefix(c: &Conn<'_>, prefix: &str, limit: u32) -> Result<Vec<PlayerRow>> {
    let low = prefix.to_lowercase();
    let high = format!("{low}{}", char::MAX);
    c.query_all(
        &format!(
            "SELECT {PLAYER_COLS} FROM players {} ORDER BY name, id LIMIT ?3",
            name_prefix_filter(c.dialect())
        ),
        params![low, high, limit],
        player_from,
    )
}

/// Lowercased names from `?1` up to `?2`, as the index `players_lower_name` holds them.
pub(crate) fn name_prefix_filter(dialect: Dialect) -> String {
    let name = match dialect {
        Dialect::Sqlite => "lower(name)",
        Dialect::Postgres => "(lower(name) COLLATE \"C\")",
    };
    format!("WHERE {name} >= ?1 AND {name} < ?2")
}

pub fn rename_player(c: &Conn<'_>, id: PlayerId, name: &str) -> Result<()> {
    c.execute(
        "UPDATE players SET name = ?2 WHERE id = ?1",
        params![id, name],
    )?;
    Ok(())
}

/// Gives `id` the handle `handle`; a handle someone else has is refused ([`handle_taken`]).
/// Writes are serialized (one writer, or one transaction at a time on a shared database), so
/// the look and the change cannot be split by another registration; the unique index stays
/// the backstop.
pub fn set_handle(c: &Conn<'_>, id: PlayerId, handle: &Handle) -> Result<()> {
    let someone_else: Option<i64> = c.query_opt(
        "SELECT id FROM players WHERE handle = ?1 AND id <> ?2",
        params![handle, id],
        |r| r.get(0),
    )?;
    if someone_else.is_some() {
        return Err(StoreError::UniqueTaken(HANDLE_CONSTRAINT.into()));
    }
    c.execute(
        "UPDATE players SET handle = ?2 WHERE id = ?1",
        params![id, handle],
    )?;
    Ok(())
}

/// Whether `player` asked for a direct message on their turn.
pub fn wants_discord_dm(c: &Conn<'_>, player: PlayerId) -> Result<bool> {
    Ok(c.query_opt(
        "SELECT discord_dm FROM players WHERE id = ?1",
        params![player],
        |r| r.get(0),
    )?
    .unwrap_or(false))
}

pub fn set_discord_dm(c: &Conn<'_>, player: PlayerId, on: bool) -> Result<()> {
    c.execute(
        "UPDATE players SET discord_dm = ?2 WHERE id = ?1",
        params![player, on],
    )?;
    Ok(())
}

/// `player`'s DMs were refused as closed: their turn DMs are off, and they are owed one note.
pub fn note_discord_dms_closed(c: &Conn<'_>, player: PlayerId) -> Result<()> {
    c.execute(
        "UPDATE players SET discord_dm = FALSE, discord_dms_closed_untold = TRUE WHERE id = ?1",
        params![player],
    )?;
    Ok(())
}

/// Whether the Discord user `user` is owed the note that their DMs were turned off.
pub fn dms_closed_note_owed(c: &Conn<'_>, user: u64) -> Result<bool> {
    Ok(c.query_opt(
        "SELECT discord_dms_closed_untold FROM players WHERE discord_user_id = ?1",
        params![user as i64],
        |r| r.get::<bool>(0),
    )?
    .unwrap_or(false))
}

/// Marks the note owed to `user` as given; answers whether one was owed (so it is given once,
/// whichever instance answers the player's next command).
pub fn take_dms_closed_note(c: &Conn<'_>, user: u64) -> Result<bool> {
    let changed = c.execute(
        "UPDATE players SET discord_dms_closed_untold = FALSE \
         WHERE discord_user_id = ?1 AND discord_dms_closed_untold",
        params![user as i64],
    )?;
    Ok(changed > 0)
}

/// The Discord user playing `side` in `game`, when they asked for a direct message on their
/// turn (`None` for the AI, a player without Discord, or one who did not ask).
pub fn discord_dm_user_to_move(c: &Conn<'_>, game: GameId, side: Side) -> Result<Option<u64>> {
    let user: Option<Option<i64>> = c.query_opt(
        "SELECT p.discord_user_id FROM games g JOIN players p ON p.id = \
         (CASE WHEN ?2 THEN g.attackers_player ELSE g.defenders_player END) \
         WHERE g.id = ?1 AND p.discord_dm = TRUE",
        params![game, side == Side::Attackers],
        |r| r.get(0),
    )?;
    Ok(user.flatten().map(|u| u as u64))
}
