//! Webhook registrations (delivery itself lives in `notify`): the target must be one the
//! server may call (`notify::TargetPolicy`).

use crate::store::rows::{self, PlayerId, WebhookId, WebhookRow};

use super::{GamesService, Result, ServiceError};

const MAX_WEBHOOKS_PER_PLAYER: usize = 10;

impl GamesService {
    /// Registers `url` to receive `player`'s events, signed with `secret`.
    pub async fn add_webhook(
        &self,
        player: PlayerId,
        url: &str,
        secret: &str,
    ) -> Result<WebhookRow> {
        let parsed = reqwest::Url::parse(url)
            .map_err(|e| ServiceError::Invalid(format!("webhook url {url:?} is not a URL: {e}")))?;
        // Checked again at each delivery: the host may resolve elsewhere by then.
        self.inner
            .webhook_targets
            .check_with_system_resolver(&parsed)
            .await
            .map_err(|e| ServiceError::Invalid(e.to_string()))?;
        if secret.len() < 8 || secret.len() > 256 {
            return Err(ServiceError::Invalid(
                "webhook secret must be 8 to 256 characters".into(),
            ));
        }
        let (url, secret) = (parsed.to_string(), secret.to_owned());
        self.commit(move |c, e| {
            if rows::webhooks_of(c, player)?.len() >= MAX_WEBHOOKS_PER_PLAYER {
                return Err(ServiceError::Invalid(format!(
                    "at most {MAX_WEBHOOKS_PER_PLAYER} webhooks per player"
                )));
            }
            Ok(rows::insert_webhook(c, player, &url, &secret, e.now())?)
        })
        .await
    }

    pub async fn webhooks(&self, player: PlayerId) -> Result<Vec<WebhookRow>> {
        self.read(move |c| Ok(rows::webhooks_of(c, player)?)).await
    }

    pub async fn remove_webhook(&self, player: PlayerId, id: WebhookId) -> Result<()> {
        self.commit(move |c, _| {
            if rows::deactivate_webhook(c, player, id)? {
                Ok(())
            } else {
                Err(ServiceError::not_found(format!("webhook {id}")))
            }
        })
        .await
    }
}
