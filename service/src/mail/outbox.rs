//! The mail outbox: mails waiting to go out, claimed by one instance at a time, marked sent,
//! or retried with back-off until `max_attempts`, then given up. Counted in the metrics.

use metrics::counter;

use crate::Result;
use crate::domain::{MailId, MailKind, PlayerId};
use crate::store::rows;
use crate::telemetry;

use super::Mail;

/// A mail to send, as the delivery worker needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingMail {
    pub id: MailId,
    pub player: PlayerId,
    pub kind: MailKind,
    pub address: String,
    pub subject: String,
    pub body: String,
    /// For `List-Unsubscribe`: the one-click link (turn notices).
    pub unsubscribe_url: Option<String>,
    /// Failed attempts so far.
    pub attempts: u32,
}

impl Mail<'_> {
    /// Claims up to `limit` mails due now (none when mail is off).
    pub async fn claim_due(&self, limit: u32) -> Result<Vec<OutgoingMail>> {
        let Some(settings) = self.settings() else {
            return Ok(Vec::new());
        };
        let now = self.service.now_ms();
        let until = now.saturating_add(settings.claim_ms);
        let claimed = self
            .service
            .commit(move |c, _| Ok(rows::claim_due_mails(c, now, until, limit)?))
            .await?;
        Ok(claimed
            .into_iter()
            .map(|m| OutgoingMail {
                id: m.id,
                player: m.player_id,
                kind: m.kind,
                address: m.address,
                subject: m.subject,
                body: m.body,
                unsubscribe_url: m.unsubscribe_url,
                attempts: m.attempts,
            })
            .collect())
    }

    /// The SMTP server took `mail`.
    pub async fn sent(&self, mail: &OutgoingMail) -> Result<()> {
        counter!(telemetry::MAILS_SENT, "kind" => mail.kind.to_string()).increment(1);
        let (id, now) = (mail.id, self.service.now_ms());
        self.service
            .commit(move |c, _| Ok(rows::mail_sent(c, id, now)?))
            .await
    }

    /// An attempt at `mail` failed with `error`: tried again after a back-off, or given up
    /// after `max_attempts` or at once when the failure is `permanent`.
    pub async fn failed(&self, mail: &OutgoingMail, error: &str, permanent: bool) -> Result<()> {
        let Some(settings) = self.settings() else {
            return Ok(());
        };
        counter!(telemetry::MAIL_FAILURES).increment(1);
        let attempts = mail.attempts + 1;
        let now = self.service.now_ms();
        let retry_at = (!permanent && attempts < settings.max_attempts).then(|| {
            let wait = settings.retry.wait(attempts - 1);
            now.saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX))
        });
        if retry_at.is_none() {
            counter!(telemetry::MAILS_GIVEN_UP).increment(1);
            tracing::warn!(mail = %mail.id, attempts, "mail given up: {error}");
        }
        let (id, error) = (mail.id, error.chars().take(500).collect::<String>());
        self.service
            .commit(move |c, _| Ok(rows::mail_failed(c, id, &error, retry_at, now)?))
            .await
    }
}
