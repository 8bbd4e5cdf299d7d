//! Webhook registrations (delivery itself lives in `notify`): the target must be one the
//! server may call (`webhook_target::TargetPolicy`).

use crate::domain::{DeliveryId, PlayerId, WebhookId};
use crate::logging::ErrorChain;
use crate::store::rows;

use super::Webhooks;
use crate::views::WebhookView;
use crate::{Event, Missing, Result, ServiceError};

const MAX_WEBHOOKS_PER_PLAYER: usize = 10;
/// A secret's length in characters.
const SECRET_CHARS: std::ops::RangeInclusive<usize> = 8..=256;

/// The secrets [`Webhooks::add`] takes.
pub fn webhook_secret_schema() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .min_length(Some(*SECRET_CHARS.start()))
        .max_length(Some(*SECRET_CHARS.end()))
        .build()
}

impl Webhooks<'_> {
    /// Notified whenever events were committed (webhook outbox worker).
    pub fn outbox_signal(self) -> std::sync::Arc<tokio::sync::Notify> {
        self.service.inner.outbox.clone()
    }

    /// Registers `url` to receive `player`'s events, signed with `secret`.
    pub async fn add(self, player: PlayerId, url: &str, secret: &str) -> Result<WebhookView> {
        let parsed = reqwest::Url::parse(url)
            .map_err(|e| ServiceError::Invalid(format!("webhook url {url:?} is not a URL: {e}")))?;
        // Checked again at each delivery: the host may resolve elsewhere by then.
        self.service
            .inner
            .webhook_targets
            .check_with_system_resolver(&parsed)
            .await
            .map_err(|e| ServiceError::Invalid(e.to_string()))?;
        // A NUL cannot be stored as text (PostgreSQL refuses it): refused here as the input it
        // is, not failed as a write.
        if secret.contains('\0') {
            return Err(ServiceError::Invalid(
                "webhook secret must not contain the NUL character".into(),
            ));
        }
        // Characters, as the message and the schema say (not bytes).
        if !SECRET_CHARS.contains(&secret.chars().count()) {
            return Err(ServiceError::Invalid(format!(
                "webhook secret must be {} to {} characters",
                SECRET_CHARS.start(),
                SECRET_CHARS.end()
            )));
        }
        let (url, secret) = (parsed.to_string(), secret.to_owned());
        self.service
            .commit(move |c, e| {
                if rows::webhooks_of(c, player)?.len() >= MAX_WEBHOOKS_PER_PLAYER {
                    return Err(ServiceError::Invalid(format!(
                        "at most {MAX_WEBHOOKS_PER_PLAYER} webhooks per player"
                    )));
                }
                Ok(rows::insert_webhook(c, player, &url, &secret, e.now())?.into())
            })
            .await
    }

    pub async fn list(self, player: PlayerId) -> Result<Vec<WebhookView>> {
        self.service
            .read(move |c| {
                Ok(rows::webhooks_of(c, player)?
                    .into_iter()
                    .map(WebhookView::from)
                    .collect())
            })
            .await
    }

    /// Up to `limit` webhook deliveries due now, oldest first, each with its event (`None`
    /// when the event no longer reads; the delivery is then given up). They are claimed for
    /// this instance for `games.claim_lease_secs`: no other instance sharing the database
    /// sends them meanwhile, and one that dies before recording the attempt leaves them to
    /// be taken again when the claim lapses.
    pub async fn due_deliveries(self, limit: u32) -> Result<Vec<WebhookDelivery>> {
        let now = self.service.now_ms();
        let until = now.saturating_add(self.service.claim_lease_ms());
        // A look first: most passes find nothing, and a look is no write.
        let any = self
            .service
            .read(move |c| Ok(!rows::due_deliveries(c, now, 1)?.is_empty()))
            .await?;
        if !any {
            return Ok(Vec::new());
        }
        self.service.inner
            .store
            .write(move |c| {
                rows::due_deliveries(c, now, limit)?
                    .into_iter()
                    .map(|d| {
                        rows::claim_delivery(c, d.id, until)?;
                        let event = rows::event(c, d.event_id)?
                            .map(super::bus::event_of_row)
                            .transpose()
                            .unwrap_or_else(|e| {
                                tracing::warn!(delivery = %d.id, error = %ErrorChain(&e), "its event does not read");
                                None
                            });
                        Ok(WebhookDelivery {
                            id: d.id,
                            attempts: d.attempts,
                            url: d.url,
                            secret: d.secret,
                            event,
                        })
                    })
                    .collect()
            })
            .await
    }

    /// Records an attempt of delivery `id`: done, or failed and retried at `retry_at` (given
    /// up when `None`). A failure also notes since when the webhook's endpoint has failed;
    /// past `give_up_after_ms` of failing (0: never) the webhook is given up, and every
    /// delivery of it still pending with it.
    pub async fn attempted(
        self,
        id: DeliveryId,
        result: std::result::Result<(), String>,
        retry_at: Option<i64>,
        give_up_after_ms: i64,
    ) -> Result<()> {
        let now = self.service.now_ms();
        self.service
            .inner
            .store
            .write(move |c| match result {
                Ok(()) => {
                    rows::delivery_succeeded(c, id, now)?;
                    rows::webhook_answered(c, id)
                }
                Err(e) => {
                    rows::delivery_failed(c, id, &e, retry_at)?;
                    match rows::webhook_failed(c, id, now)? {
                        Some((webhook, since))
                            if give_up_after_ms > 0
                                && now.saturating_sub(since) >= give_up_after_ms =>
                        {
                            give_up(c, webhook, now, since)
                        }
                        _ => Ok(()),
                    }
                }
            })
            .await
            .map_err(ServiceError::from)
    }

    /// Gives delivery `id` up without an attempt (its event no longer reads): not a failure
    /// of its endpoint, which was never asked.
    pub async fn abandon(self, id: DeliveryId, why: &str) -> Result<()> {
        let why = why.to_owned();
        self.service
            .inner
            .store
            .write(move |c| rows::delivery_failed(c, id, &why, None))
            .await
            .map_err(ServiceError::from)
    }

    /// Puts deliveries off without an attempt: each is due again at its time (ms). For the
    /// deliveries the worker took but will not send now (their endpoint busy or failing), and
    /// for those it held when it stopped. One write for them all.
    pub async fn postpone_deliveries(self, due_at: Vec<(DeliveryId, i64)>) -> Result<()> {
        if due_at.is_empty() {
            return Ok(());
        }
        self.service
            .inner
            .store
            .write(move |c| {
                due_at
                    .iter()
                    .try_for_each(|&(id, at)| rows::claim_delivery(c, id, at))
            })
            .await
            .map_err(ServiceError::from)
    }

    pub async fn remove(self, player: PlayerId, id: WebhookId) -> Result<()> {
        self.service
            .commit(move |c, _| {
                if rows::deactivate_webhook(c, player, id)? {
                    Ok(())
                } else {
                    Err(ServiceError::NotFound(Missing::Webhook(id)))
                }
            })
            .await
    }
}

/// Gives webhook `webhook` up: its endpoint has failed since `since`.
fn give_up(
    c: &crate::store::Conn<'_>,
    webhook: WebhookId,
    now: i64,
    since: i64,
) -> std::result::Result<(), crate::store::StoreError> {
    let hours = now.saturating_sub(since) / 3_600_000;
    let why = format!("given up: the endpoint has failed every delivery for {hours} hours");
    let given_up = rows::give_up_webhook(c, webhook, now, &why)?;
    tracing::warn!(%webhook, hours, deliveries = given_up, "webhook given up: its endpoint has failed for too long");
    Ok(())
}

/// One event to POST to one webhook.
#[derive(Debug, Clone)]
pub struct WebhookDelivery {
    pub id: DeliveryId,
    /// Attempts made so far.
    pub attempts: u32,
    pub url: String,
    /// The key the body is signed with.
    pub secret: String,
    pub event: Option<Event>,
}
