//! API tokens, stored as the SHA-256 of the token (the token itself is shown once).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::*;

/// A stored token, without its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub id: TokenId,
    pub player_id: PlayerId,
    pub label: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

fn token_from(r: &Row<'_>) -> rusqlite::Result<TokenRow> {
    Ok(TokenRow {
        id: r.get(0)?,
        player_id: r.get(1)?,
        label: r.get(2)?,
        created_at: r.get(3)?,
        last_used_at: r.get(4)?,
    })
}

const TOKEN_COLS: &str = "id, player_id, label, created_at, last_used_at";

pub fn insert_token(
    c: &Connection,
    player: PlayerId,
    token_hash: &[u8],
    label: &str,
    now: i64,
) -> Result<TokenRow> {
    c.execute(
        "INSERT INTO api_tokens (player_id, token_hash, label, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![player, token_hash, label, now],
    )?;
    Ok(TokenRow {
        id: TokenId(c.last_insert_rowid()),
        player_id: player,
        label: label.to_owned(),
        created_at: now,
        last_used_at: None,
    })
}

/// The token with this hash, if it exists (not revoked).
pub fn token_by_hash(c: &Connection, token_hash: &[u8]) -> Result<Option<TokenRow>> {
    Ok(c.prepare_cached(&format!(
        "SELECT {TOKEN_COLS} FROM api_tokens WHERE token_hash = ?1"
    ))?
    .query_row([token_hash], token_from)
    .optional()?)
}

/// A player's tokens, oldest first.
pub fn tokens_of(c: &Connection, player: PlayerId) -> Result<Vec<TokenRow>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {TOKEN_COLS} FROM api_tokens WHERE player_id = ?1 ORDER BY id"
    ))?;
    let rows = stmt.query_map([player], token_from)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

pub fn token_count(c: &Connection, player: PlayerId) -> Result<usize> {
    let n: i64 = c
        .prepare_cached("SELECT COUNT(*) FROM api_tokens WHERE player_id = ?1")?
        .query_row([player], |r| r.get(0))?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Deletes `player`'s token `id`; false when they have no such token.
pub fn delete_token(c: &Connection, player: PlayerId, id: TokenId) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM api_tokens WHERE id = ?1 AND player_id = ?2",
        params![id, player],
    )? > 0)
}

pub fn touch_token(c: &Connection, id: TokenId, at: i64) -> Result<()> {
    c.execute(
        "UPDATE api_tokens SET last_used_at = MAX(COALESCE(last_used_at, 0), ?2) WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}
