//! API tokens, stored as the SHA-256 of the token (the token itself is shown once).

use crate::{Conn, Row, params};

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

fn token_from(r: &Row<'_>) -> Result<TokenRow> {
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
    c: &Conn<'_>,
    player: PlayerId,
    token_hash: &[u8],
    label: &str,
    now: i64,
) -> Result<TokenRow> {
    let id = c.insert_returning_id("INSERT INTO api_tokens (player_id, token_hash, label, created_at) VALUES (?1, ?2, ?3, ?4) RETURNING id", params![player, token_hash, label, now])?;
    Ok(TokenRow {
        id: TokenId(id),
        player_id: player,
        label: label.to_owned(),
        created_at: now,
        last_used_at: None,
    })
}

/// The token with this hash, if it exists (not revoked).
pub fn token_by_hash(c: &Conn<'_>, token_hash: &[u8]) -> Result<Option<TokenRow>> {
    c.query_opt(
        &format!("SELECT {TOKEN_COLS} FROM api_tokens WHERE token_hash = ?1"),
        params![token_hash],
        token_from,
    )
}

/// A player's tokens, oldest first.
pub fn tokens_of(c: &Conn<'_>, player: PlayerId) -> Result<Vec<TokenRow>> {
    c.query_all(
        &format!("SELECT {TOKEN_COLS} FROM api_tokens WHERE player_id = ?1 ORDER BY id"),
        params![player],
        token_from,
    )
}

pub fn token_count(c: &Conn<'_>, player: PlayerId) -> Result<usize> {
    let n: i64 = c.query_one(
        "SELECT COUNT(*) FROM api_tokens WHERE player_id = ?1",
        params![player],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Deletes `player`'s token `id`; false when they have no such token.
pub fn delete_token(c: &Conn<'_>, player: PlayerId, id: TokenId) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM api_tokens WHERE id = ?1 AND player_id = ?2",
        params![id, player],
    )? > 0)
}

pub fn touch_token(c: &Conn<'_>, id: TokenId, at: i64) -> Result<()> {
    c.execute(
        "UPDATE api_tokens SET last_used_at = CASE WHEN last_used_at > ?2 THEN last_used_at \
         ELSE ?2 END WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}
