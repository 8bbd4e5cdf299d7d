//! Turn notices by mail: players' addresses and quiet hours (`mail_subscriptions`), the
//! notices owed (`mail_turn_notices`), and the mails waiting to go out (`mail_outbox`).

use crate::domain::{MailId, MailKind};
use crate::{Conn, params};

use super::*;

/// A player's address and how they want notices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSubscriptionRow {
    pub player_id: PlayerId,
    pub address: String,
    pub confirmed_at: Option<i64>,
    pub unsubscribe_token: String,
    pub notices_on: bool,
    pub quiet_start_min: Option<i64>,
    pub quiet_end_min: Option<i64>,
    pub utc_offset_min: i64,
    pub last_seen_at: i64,
}

const SUBSCRIPTION_COLS: &str = "player_id, address, confirmed_at, unsubscribe_token, \
     notices_on, quiet_start_min, quiet_end_min, utc_offset_min, last_seen_at";

fn subscription_from(r: &crate::Row<'_>) -> Result<MailSubscriptionRow> {
    Ok(MailSubscriptionRow {
        player_id: r.get(0)?,
        address: r.get(1)?,
        confirmed_at: r.get(2)?,
        unsubscribe_token: r.get(3)?,
        notices_on: r.get(4)?,
        quiet_start_min: r.get(5)?,
        quiet_end_min: r.get(6)?,
        utc_offset_min: r.get(7)?,
        last_seen_at: r.get(8)?,
    })
}

pub fn mail_subscription(c: &Conn<'_>, player: PlayerId) -> Result<Option<MailSubscriptionRow>> {
    c.query_opt(
        &format!("SELECT {SUBSCRIPTION_COLS} FROM mail_subscriptions WHERE player_id = ?1"),
        params![player],
        subscription_from,
    )
}

/// A new address for `player` (or the same one again): unconfirmed until the link whose
/// token hashes to `confirm_hash` is used before `expires_at`; notices on.
pub fn set_mail_address(
    c: &Conn<'_>,
    player: PlayerId,
    address: &str,
    confirm_hash: &[u8],
    expires_at: i64,
    unsubscribe_token: &str,
    now: i64,
) -> Result<()> {
    c.execute(
        "INSERT INTO mail_subscriptions (player_id, address, confirm_hash, confirm_expires_at, \
             unsubscribe_token, notices_on, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, TRUE, ?6) \
         ON CONFLICT (player_id) DO UPDATE SET address = excluded.address, \
             confirm_hash = excluded.confirm_hash, \
             confirm_expires_at = excluded.confirm_expires_at, confirmed_at = NULL, \
             notices_on = TRUE",
        params![
            player,
            address,
            confirm_hash,
            expires_at,
            unsubscribe_token,
            now
        ],
    )?;
    c.execute(
        "DELETE FROM mail_turn_notices WHERE player_id = ?1",
        params![player],
    )?;
    Ok(())
}

/// `player`'s quiet hours (minutes of their day; `None`: none) and UTC offset.
pub fn set_mail_quiet_hours(
    c: &Conn<'_>,
    player: PlayerId,
    quiet: Option<(i64, i64)>,
    utc_offset_min: i64,
) -> Result<bool> {
    let changed = c.execute(
        "UPDATE mail_subscriptions SET quiet_start_min = ?2, quiet_end_min = ?3, \
             utc_offset_min = ?4 WHERE player_id = ?1",
        params![
            player,
            quiet.map(|q| q.0),
            quiet.map(|q| q.1),
            utc_offset_min
        ],
    )?;
    Ok(changed == 1)
}

/// Confirms the address whose link token hashes to `hash`, if the link is unused and has
/// not expired at `now`; the link cannot be used again. Answers whose address it was.
pub fn confirm_mail_address(c: &Conn<'_>, hash: &[u8], now: i64) -> Result<Option<PlayerId>> {
    c.query_opt(
        "UPDATE mail_subscriptions SET confirmed_at = ?2, confirm_hash = NULL, \
             confirm_expires_at = NULL \
         WHERE confirm_hash = ?1 AND confirm_expires_at > ?2 RETURNING player_id",
        params![hash, now],
        |r| r.get(0),
    )
}

/// Turns notices off for the subscription of `unsubscribe_token` and drops the notices owed;
/// answers whose it was.
pub fn mail_notices_off(c: &Conn<'_>, unsubscribe_token: &str) -> Result<Option<PlayerId>> {
    let player: Option<PlayerId> = c.query_opt(
        "UPDATE mail_subscriptions SET notices_on = FALSE WHERE unsubscribe_token = ?1 \
         RETURNING player_id",
        params![unsubscribe_token],
        |r| r.get(0),
    )?;
    if let Some(player) = player {
        c.execute(
            "DELETE FROM mail_turn_notices WHERE player_id = ?1",
            params![player],
        )?;
    }
    Ok(player)
}

/// Forgets `player`'s address and the notices owed; the mails not yet sent are given up. Of
/// every mail only its kind and time stay (the hourly and daily limits count them, so
/// forgetting an address and giving it again sends no more confirmations).
pub fn delete_mail_subscription(c: &Conn<'_>, player: PlayerId) -> Result<()> {
    for sql in [
        "DELETE FROM mail_turn_notices WHERE player_id = ?1",
        "UPDATE mail_outbox SET status = 'abandoned', last_error = 'address forgotten' \
         WHERE player_id = ?1 AND status = 'pending'",
        "UPDATE mail_outbox SET address = '', subject = '', body = '', unsubscribe_url = NULL \
         WHERE player_id = ?1",
        "DELETE FROM mail_subscriptions WHERE player_id = ?1",
    ] {
        c.execute(sql, params![player])?;
    }
    Ok(())
}

/// `player` was on the web at `at` (a page, or a tab left open).
pub fn mail_player_seen(c: &Conn<'_>, player: PlayerId, at: i64) -> Result<()> {
    c.execute(
        "UPDATE mail_subscriptions SET last_seen_at = ?2 \
         WHERE player_id = ?1 AND last_seen_at < ?2",
        params![player, at],
    )?;
    Ok(())
}

/// Owes the player of `side` in `game` a notice that it is their turn at `ply` since `at`,
/// if both seats are people and that player has a confirmed address with notices on; an
/// older notice of the same game is replaced. One statement, pipelined (on PostgreSQL it goes
/// with the move's next statement, no round trip of its own): this runs for every move.
pub fn queue_turn_notice(
    c: &Conn<'_>,
    game: GameId,
    side: SideColumn,
    ply: u32,
    at: i64,
) -> Result<()> {
    c.execute_pipelined(
        "INSERT INTO mail_turn_notices (player_id, game_id, ply, turn_at, not_before) \
         SELECT s.player_id, g.id, CAST(?3 AS BIGINT), CAST(?4 AS BIGINT), CAST(?4 AS BIGINT) \
         FROM games g \
         JOIN mail_subscriptions s ON s.player_id = \
             CASE WHEN ?2 = 'attackers' THEN g.attackers_player ELSE g.defenders_player END \
         WHERE g.id = ?1 AND g.attackers_player IS NOT NULL \
           AND g.defenders_player IS NOT NULL \
           AND s.confirmed_at IS NOT NULL AND s.notices_on = TRUE \
         ON CONFLICT (player_id, game_id) DO UPDATE SET ply = excluded.ply, \
             turn_at = excluded.turn_at, not_before = excluded.not_before",
        params![game, side, ply, at],
    )
}

/// A notice owed, with what deciding on it needs: the player's subscription and the game as
/// it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueNotice {
    pub player_id: PlayerId,
    pub game_id: GameId,
    pub ply: u32,
    pub turn_at: i64,
    pub subscription: MailSubscriptionRow,
    pub game_status: GameStatus,
    pub game_ply: u32,
    pub variant: Option<String>,
    /// The opponent's handle (or name, if they have none).
    pub opponent: String,
}

/// Notices owed for turns that began at `turned_by` or before and may go at `now`, grouped
/// by player (`limit` notices at most).
pub fn due_turn_notices(
    c: &Conn<'_>,
    turned_by: i64,
    now: i64,
    limit: u32,
) -> Result<Vec<DueNotice>> {
    c.query_all(
        &format!(
            "SELECT n.player_id, n.game_id, n.ply, n.turn_at, g.status, g.ply, \
                 g.variant, COALESCE(o.handle, o.name, ''), \
                 {} \
             FROM mail_turn_notices n \
             JOIN mail_subscriptions s ON s.player_id = n.player_id \
             JOIN games g ON g.id = n.game_id \
             LEFT JOIN players o ON o.id = CASE WHEN g.attackers_player = n.player_id \
                 THEN g.defenders_player ELSE g.attackers_player END \
             WHERE n.turn_at <= ?1 AND n.not_before <= ?2 \
             ORDER BY n.player_id, n.turn_at LIMIT ?3",
            SUBSCRIPTION_COLS
                .split(", ")
                .map(|col| format!("s.{}", col.trim()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        params![turned_by, now, limit],
        |r| {
            Ok(DueNotice {
                player_id: r.get(0)?,
                game_id: r.get(1)?,
                ply: r.get(2)?,
                turn_at: r.get(3)?,
                game_status: r.get(4)?,
                game_ply: r.get(5)?,
                variant: r.get(6)?,
                opponent: r.get(7)?,
                subscription: MailSubscriptionRow {
                    player_id: r.get(8)?,
                    address: r.get(9)?,
                    confirmed_at: r.get(10)?,
                    unsubscribe_token: r.get(11)?,
                    notices_on: r.get(12)?,
                    quiet_start_min: r.get(13)?,
                    quiet_end_min: r.get(14)?,
                    utc_offset_min: r.get(15)?,
                    last_seen_at: r.get(16)?,
                },
            })
        },
    )
}

/// Drops the notice of `game` owed to `player` (sent in a mail, or no longer needed).
pub fn delete_turn_notice(c: &Conn<'_>, player: PlayerId, game: GameId) -> Result<()> {
    c.execute(
        "DELETE FROM mail_turn_notices WHERE player_id = ?1 AND game_id = ?2",
        params![player, game],
    )?;
    Ok(())
}

/// Keeps `player`'s notices back until `until` (quiet hours, the hourly allowance).
pub fn defer_turn_notices(c: &Conn<'_>, player: PlayerId, until: i64) -> Result<()> {
    c.execute(
        "UPDATE mail_turn_notices SET not_before = ?2 WHERE player_id = ?1 AND not_before < ?2",
        params![player, until],
    )?;
    Ok(())
}

/// How many mails of `kind` were made for `player` since `since`, and when the oldest of them.
pub fn mails_made_since(
    c: &Conn<'_>,
    player: PlayerId,
    kind: MailKind,
    since: i64,
) -> Result<(u32, Option<i64>)> {
    c.query_one(
        "SELECT COUNT(*), MIN(created_at) FROM mail_outbox \
         WHERE player_id = ?1 AND kind = ?2 AND created_at >= ?3",
        params![player, kind, since],
        |r| {
            let n: i64 = r.get(0)?;
            Ok((u32::try_from(n).unwrap_or(u32::MAX), r.get(1)?))
        },
    )
}

/// Mails waiting to go out, on every instance.
pub fn pending_mail_count(c: &Conn<'_>) -> Result<u64> {
    let n: i64 = c.query_one(
        "SELECT COUNT(*) FROM mail_outbox WHERE status = 'pending'",
        params![],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(n).unwrap_or_default())
}

/// A mail as it is queued and sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRow {
    pub id: MailId,
    pub player_id: PlayerId,
    pub kind: MailKind,
    pub address: String,
    pub subject: String,
    pub body: String,
    pub unsubscribe_url: Option<String>,
    pub attempts: u32,
}

/// Queues a mail, to go out at once.
pub fn insert_mail(c: &Conn<'_>, mail: &MailRow, now: i64) -> Result<MailId> {
    let id = c.insert_returning_id(
        "INSERT INTO mail_outbox (player_id, kind, address, subject, body, unsubscribe_url, \
             status, next_attempt_at, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7, ?7) RETURNING id",
        params![
            mail.player_id,
            mail.kind,
            mail.address,
            mail.subject,
            mail.body,
            mail.unsubscribe_url,
            now
        ],
    )?;
    Ok(MailId(id))
}

/// Claims up to `limit` mails due at `now` until `until`, oldest first: no instance sees them
/// due meanwhile, and a claim whose instance died lapses then.
pub fn claim_due_mails(c: &Conn<'_>, now: i64, until: i64, limit: u32) -> Result<Vec<MailRow>> {
    let due = c.query_all(
        "SELECT id, player_id, kind, address, subject, body, unsubscribe_url, attempts \
         FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ?1 \
         ORDER BY next_attempt_at, id LIMIT ?2",
        params![now, limit],
        |r| {
            Ok(MailRow {
                id: r.get(0)?,
                player_id: r.get(1)?,
                kind: r.get(2)?,
                address: r.get(3)?,
                subject: r.get(4)?,
                body: r.get(5)?,
                unsubscribe_url: r.get(6)?,
                attempts: r.get(7)?,
            })
        },
    )?;
    for mail in &due {
        c.execute(
            "UPDATE mail_outbox SET next_attempt_at = ?2 WHERE id = ?1",
            params![mail.id, until],
        )?;
    }
    Ok(due)
}

/// The SMTP server took the mail: its text is not kept (a confirmation link is a secret).
pub fn mail_sent(c: &Conn<'_>, id: MailId, now: i64) -> Result<()> {
    c.execute(
        "UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, done_at = ?2, \
             body = '', last_error = NULL WHERE id = ?1 AND status = 'pending'",
        params![id, now],
    )?;
    Ok(())
}

/// A failed attempt: tried again at `retry_at`, or given up when `None`.
pub fn mail_failed(
    c: &Conn<'_>,
    id: MailId,
    error: &str,
    retry_at: Option<i64>,
    now: i64,
) -> Result<()> {
    match retry_at {
        Some(at) => c.execute(
            "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?2, \
                 last_error = ?3 WHERE id = ?1 AND status = 'pending'",
            params![id, at, error],
        )?,
        None => c.execute(
            "UPDATE mail_outbox SET status = 'abandoned', attempts = attempts + 1, body = '', \
                 last_error = ?2, done_at = ?3 WHERE id = ?1 AND status = 'pending'",
            params![id, error, now],
        )?,
    };
    Ok(())
}
