//! Sign-in links and browser sessions, stored as the SHA-256 of their secrets.

use crate::{Conn, params};

use super::*;

/// A browser session, without its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSessionRow {
    pub id: WebSessionId,
    pub player_id: PlayerId,
    /// What every state-changing request of this session must carry.
    pub csrf_token: String,
    pub expires_at: i64,
    /// Null: not seen since it was opened (or since before this was recorded).
    pub last_seen_at: Option<i64>,
}

/// A browser session as its player's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedWebSessionRow {
    pub id: WebSessionId,
    pub created_at: i64,
    pub last_seen_at: Option<i64>,
    pub expires_at: i64,
    pub opened_by: SessionOpening,
    pub user_agent: Option<String>,
    /// Whether this is the session whose hash the list was asked with.
    pub current: bool,
}

/// A session to store.
#[derive(Debug, Clone, Copy)]
pub struct NewWebSessionRow<'a> {
    pub player: PlayerId,
    pub session_hash: &'a [u8],
    pub csrf_token: &'a str,
    pub now: i64,
    pub expires_at: i64,
    pub opened_by: SessionOpening,
    /// The API token whose revocation ends the session: the token pasted, or the one that
    /// asked for the sign-in link.
    pub opened_with_token: Option<TokenId>,
    pub user_agent: Option<&'a str>,
}

/// A sign-in link just redeemed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RedeemedLink {
    pub player: PlayerId,
    /// The API token that asked for the link, if one did.
    pub created_with_token: Option<TokenId>,
}

pub fn insert_login_link(
    c: &Conn<'_>,
    player: PlayerId,
    token_hash: &[u8],
    now: i64,
    expires_at: i64,
    created_with_token: Option<TokenId>,
) -> Result<()> {
    c.execute(
        "INSERT INTO login_links (player_id, token_hash, created_at, expires_at, \
         created_with_token) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![player, token_hash, now, expires_at, created_with_token],
    )?;
    Ok(())
}

/// Marks the link with this hash used, when it is unused and not expired at `now`; its player
/// and the token that asked for it, if so. A link is redeemed once: the update and its
/// condition are one statement.
pub fn redeem_login_link(
    c: &Conn<'_>,
    token_hash: &[u8],
    now: i64,
) -> Result<Option<RedeemedLink>> {
    c.query_opt(
        "UPDATE login_links SET used_at = ?2 \
         WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2 \
         RETURNING player_id, created_with_token",
        params![token_hash, now],
        |r| {
            Ok(RedeemedLink {
                player: r.get(0)?,
                created_with_token: r.get(1)?,
            })
        },
    )
}

/// Links past their time, used or not, are of no further use.
pub fn delete_expired_login_links(c: &Conn<'_>, now: i64) -> Result<usize> {
    c.execute(
        "DELETE FROM login_links WHERE expires_at <= ?1",
        params![now],
    )
}

pub fn insert_web_session(c: &Conn<'_>, new: NewWebSessionRow<'_>) -> Result<()> {
    c.execute(
        "INSERT INTO web_sessions (player_id, session_hash, csrf_token, created_at, expires_at, \
         opened_by, opened_with_token, user_agent) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            new.player,
            new.session_hash,
            new.csrf_token,
            new.now,
            new.expires_at,
            new.opened_by,
            new.opened_with_token,
            new.user_agent
        ],
    )?;
    Ok(())
}

/// The session with this hash, if it exists and has not expired at `now`.
pub fn web_session(c: &Conn<'_>, session_hash: &[u8], now: i64) -> Result<Option<WebSessionRow>> {
    c.query_opt(
        "SELECT id, player_id, csrf_token, expires_at, last_seen_at FROM web_sessions \
         WHERE session_hash = ?1 AND expires_at > ?2",
        params![session_hash, now],
        |r| {
            Ok(WebSessionRow {
                id: r.get(0)?,
                player_id: r.get(1)?,
                csrf_token: r.get(2)?,
                expires_at: r.get(3)?,
                last_seen_at: r.get(4)?,
            })
        },
    )
}

/// Notes that session `id` was seen at `now`.
pub fn touch_web_session(c: &Conn<'_>, id: WebSessionId, now: i64) -> Result<()> {
    c.execute(
        "UPDATE web_sessions SET last_seen_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// `player`'s sessions open at `now`, newest first; `current` marks the one with
/// `current_hash`.
pub fn web_sessions_of(
    c: &Conn<'_>,
    player: PlayerId,
    current_hash: Option<&[u8]>,
    now: i64,
) -> Result<Vec<ListedWebSessionRow>> {
    c.query_all(
        "SELECT id, created_at, last_seen_at, expires_at, opened_by, user_agent, session_hash \
         FROM web_sessions WHERE player_id = ?1 AND expires_at > ?2 ORDER BY id DESC",
        params![player, now],
        |r| {
            let hash: Vec<u8> = r.get(6)?;
            Ok(ListedWebSessionRow {
                id: r.get(0)?,
                created_at: r.get(1)?,
                last_seen_at: r.get(2)?,
                expires_at: r.get(3)?,
                opened_by: r.get(4)?,
                user_agent: r.get(5)?,
                current: current_hash == Some(hash.as_slice()),
            })
        },
    )
}

/// Ends `player`'s session `id`; false when they have none of that id.
pub fn delete_web_session_of(c: &Conn<'_>, player: PlayerId, id: WebSessionId) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM web_sessions WHERE player_id = ?1 AND id = ?2",
        params![player, id],
    )? > 0)
}

/// Ends every session of `player` but the one with `keep_hash` (all when none); how many.
pub fn delete_web_sessions_of(
    c: &Conn<'_>,
    player: PlayerId,
    keep_hash: Option<&[u8]>,
) -> Result<usize> {
    match keep_hash {
        Some(keep) => c.execute(
            "DELETE FROM web_sessions WHERE player_id = ?1 AND session_hash <> ?2",
            params![player, keep],
        ),
        None => c.execute(
            "DELETE FROM web_sessions WHERE player_id = ?1",
            params![player],
        ),
    }
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
