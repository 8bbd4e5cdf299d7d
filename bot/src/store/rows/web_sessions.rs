//! Sign-in links and browser sessions, stored as the SHA-256 of their secrets.

use crate::store::{Conn, params};

use super::*;

/// A browser session, without its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSessionRow {
    pub player_id: PlayerId,
    /// What every state-changing request of this session must carry.
    pub csrf_token: String,
    pub expires_at: i64,
}

pub fn insert_login_link(
    c: &Conn<'_>,
    player: PlayerId,
    token_hash: &[u8],
    now: i64,
    expires_at: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO login_links (player_id, token_hash, created_at, expires_at) \
         VALUES (?1, ?2, ?3, ?4)",
        params![player, token_hash, now, expires_at],
    )?;
    Ok(())
}

/// Marks the link with this hash used, when it is unused and not expired at `now`; its player
/// if so. A link is redeemed once: the update and its condition are one statement.
pub fn redeem_login_link(c: &Conn<'_>, token_hash: &[u8], now: i64) -> Result<Option<PlayerId>> {
    c.query_opt(
        "UPDATE login_links SET used_at = ?2 \
         WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 RETURNING player_id",
        params![token_hash, now],
        |r| r.get(0),
    )
}

/// Links past their time, used or not, are of no further use.
pub fn delete_expired_login_links(c: &Conn<'_>, now: i64) -> Result<usize> {
    c.execute(
        "DELETE FROM login_links WHERE expires_at <= ?1",
        params![now],
    )
}

pub fn insert_web_session(
    c: &Conn<'_>,
    player: PlayerId,
    session_hash: &[u8],
    csrf_token: &str,
    now: i64,
    expires_at: i64,
    opened_with_token: Option<TokenId>,
) -> Result<()> {
    c.execute(
        "INSERT INTO web_sessions (player_id, session_hash, csrf_token, created_at, expires_at, \
         opened_with_token) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            player,
            session_hash,
            csrf_token,
            now,
            expires_at,
            opened_with_token
        ],
    )?;
    Ok(())
}

/// The session with this hash, if it exists and has not expired at `now`.
pub fn web_session(c: &Conn<'_>, session_hash: &[u8], now: i64) -> Result<Option<WebSessionRow>> {
    c.query_opt(
        "SELECT player_id, csrf_token, expires_at FROM web_sessions \
         WHERE session_hash = ?1 AND expires_at > ?2",
        params![session_hash, now],
        |r| {
            Ok(WebSessionRow {
                player_id: r.get(0)?,
                csrf_token: r.get(1)?,
                expires_at: r.get(2)?,
            })
        },
    )
}

/// Ends the session with this hash; false when there was none.
pub fn delete_web_session(c: &Conn<'_>, session_hash: &[u8]) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM web_sessions WHERE session_hash = ?1",
        params![session_hash],
    )? > 0)
}

pub fn delete_expired_web_sessions(c: &Conn<'_>, now: i64) -> Result<usize> {
    c.execute(
        "DELETE FROM web_sessions WHERE expires_at <= ?1",
        params![now],
    )
}
