//! Players (their API tokens: `api_tokens`).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::*;

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
        id: PlayerId(c.last_insert_rowid()),
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
