//! Webhook registrations and the delivery outbox.

use crate::{Conn, params};

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookRow {
    pub id: WebhookId,
    pub player_id: PlayerId,
    pub url: String,
    pub secret: String,
    pub active: bool,
    pub created_at: i64,
    /// Every delivery has failed since then (ms); null: the last one arrived, or none was
    /// made yet.
    pub failing_since: Option<i64>,
    /// When its deliveries were given up (ms), the endpoint having failed for too long.
    pub gave_up_at: Option<i64>,
}

pub fn insert_webhook(
    c: &Conn<'_>,
    player: PlayerId,
    url: &str,
    secret: &str,
    now: i64,
) -> Result<WebhookRow> {
    let id = c.insert_returning_id(
        "INSERT INTO webhooks (player_id, url, secret, active, created_at) \
         VALUES (?1, ?2, ?3, TRUE, ?4) RETURNING id",
        params![player, url, secret, now],
    )?;
    Ok(WebhookRow {
        id: WebhookId(id),
        player_id: player,
        url: url.to_owned(),
        secret: secret.to_owned(),
        active: true,
        created_at: now,
        failing_since: None,
        gave_up_at: None,
    })
}

pub fn webhooks_of(c: &Conn<'_>, player: PlayerId) -> Result<Vec<WebhookRow>> {
    c.query_all(
        "SELECT id, player_id, url, secret, active, created_at, failing_since, gave_up_at \
             FROM webhooks WHERE player_id = ?1 AND active = TRUE ORDER BY id",
        params![player],
        |r| {
            Ok(WebhookRow {
                id: r.get(0)?,
                player_id: r.get(1)?,
                url: r.get(2)?,
                secret: r.get(3)?,
                active: r.get(4)?,
                created_at: r.get(5)?,
                failing_since: r.get(6)?,
                gave_up_at: r.get(7)?,
            })
        },
    )
}

/// Deactivates `player`'s webhook `id`; false when there is none.
pub fn deactivate_webhook(c: &Conn<'_>, player: PlayerId, id: WebhookId) -> Result<bool> {
    let n = c.execute(
        "UPDATE webhooks SET active = FALSE WHERE id = ?1 AND player_id = ?2 AND active = TRUE",
        params![id, player],
    )?;
    if n > 0 {
        c.execute(
            "UPDATE deliveries SET status = 'failed', last_error = 'webhook removed' \
             WHERE webhook_id = ?1 AND status = 'pending'",
            params![id],
        )?;
    }
    Ok(n > 0)
}

#[derive(Debug, Clone)]
pub struct DueDelivery {
    pub id: DeliveryId,
    pub attempts: u32,
    pub url: String,
    pub secret: String,
    pub event_id: EventId,
}

pub fn due_deliveries(c: &Conn<'_>, now: i64, limit: u32) -> Result<Vec<DueDelivery>> {
    c.query_all(
        "SELECT d.id, d.attempts, w.url, w.secret, d.event_id FROM deliveries d \
             JOIN webhooks w ON w.id = d.webhook_id \
             WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 \
             ORDER BY d.next_attempt_at, d.id LIMIT ?2",
        params![now, limit],
        |r| {
            Ok(DueDelivery {
                id: r.get(0)?,
                attempts: r.get(1)?,
                url: r.get(2)?,
                secret: r.get(3)?,
                event_id: r.get(4)?,
            })
        },
    )
}

pub fn delivery_succeeded(c: &Conn<'_>, id: DeliveryId, now: i64) -> Result<()> {
    c.execute(
        "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?2, \
         last_error = NULL WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

/// Records a failed attempt: retried at `retry_at`, or given up when `None`.
pub fn delivery_failed(
    c: &Conn<'_>,
    id: DeliveryId,
    error: &str,
    retry_at: Option<i64>,
) -> Result<()> {
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

/// Notes on delivery `id`'s webhook that its endpoint answered: it is failing no more.
pub fn webhook_answered(c: &Conn<'_>, id: DeliveryId) -> Result<()> {
    c.execute(
        "UPDATE webhooks SET failing_since = NULL \
         WHERE id = (SELECT webhook_id FROM deliveries WHERE id = ?1) AND failing_since IS NOT NULL",
        params![id],
    )?;
    Ok(())
}

/// Notes on delivery `id`'s webhook that its endpoint failed at `now`: its id and since when
/// it has failed (this failure's time when it was not failing before).
pub fn webhook_failed(c: &Conn<'_>, id: DeliveryId, now: i64) -> Result<Option<(WebhookId, i64)>> {
    c.query_opt(
        "UPDATE webhooks SET failing_since = COALESCE(failing_since, ?2) \
         WHERE id = (SELECT webhook_id FROM deliveries WHERE id = ?1) \
         RETURNING id, failing_since",
        params![id, now],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Gives webhook `id` up at `now`: its pending deliveries are marked failed with `why`, and
/// new events queue none for it. How many deliveries were given up.
pub fn give_up_webhook(c: &Conn<'_>, id: WebhookId, now: i64, why: &str) -> Result<usize> {
    c.execute(
        "UPDATE webhooks SET gave_up_at = ?2 WHERE id = ?1 AND gave_up_at IS NULL",
        params![id, now],
    )?;
    c.execute(
        "UPDATE deliveries SET status = 'failed', last_error = ?2 \
         WHERE webhook_id = ?1 AND status = 'pending'",
        params![id, why],
    )
}

/// When the next pending delivery is due, if any.
pub fn next_delivery_at(c: &Conn<'_>) -> Result<Option<i64>> {
    Ok(c.query_opt(
        "SELECT MIN(next_attempt_at) FROM deliveries WHERE status = 'pending'",
        params![],
        |r| r.get(0),
    )?
    .flatten())
}

/// Webhook deliveries not yet made nor given up.
pub fn pending_delivery_count(c: &Conn<'_>) -> Result<u64> {
    let count: i64 = c.query_one(
        "SELECT COUNT(*) FROM deliveries WHERE status = 'pending'",
        params![],
        |r| r.get(0),
    )?;
    Ok(u64::try_from(count).unwrap_or_default())
}
