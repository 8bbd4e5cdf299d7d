//! The Discord outbox as the service offers it to the worker that delivers it: the post due in
//! each channel (or each player's direct messages), and what became of an attempt.

use crate::domain::{EventId, OutboxId};
use crate::store::rows::{self, OutboxHead, OutboxStatus};

use super::Discord;
use crate::service::{Clock, Result, SystemClock};

impl Discord<'_> {
    /// Notified whenever Discord posts were queued or released (Discord outbox worker).
    pub fn outbox_signal(self) -> std::sync::Arc<tokio::sync::Notify> {
        self.service.inner.discord_outbox.clone()
    }

    /// The oldest pending post of every channel (each channel's posts go out in order).
    pub async fn outbox_heads(self) -> Result<Vec<ChannelPost>> {
        self.service
            .read(|c| {
                Ok(rows::outbox_heads(c)?
                    .into_iter()
                    .map(ChannelPost::from)
                    .collect())
            })
            .await
    }

    /// The head posts due now, claimed for this instance for `games.claim_lease_secs` (no
    /// other instance sharing the database posts them meanwhile; one that dies before saying
    /// what became of a post leaves it to be taken again when the claim lapses), and when the
    /// next of the others falls due.
    pub async fn claim_due_posts(self) -> Result<(Vec<ChannelPost>, Option<i64>)> {
        let heads = self.outbox_heads().await?;
        let now = SystemClock.now_ms();
        if heads.iter().all(|h| h.due_at > now) {
            return Ok((Vec::new(), heads.iter().map(|h| h.due_at).min()));
        }
        let until = now.saturating_add(self.service.claim_lease_ms());
        self.service
            .inner
            .store
            .write(move |c| {
                let (due, later): (Vec<ChannelPost>, Vec<ChannelPost>) = rows::outbox_heads(c)?
                    .into_iter()
                    .map(ChannelPost::from)
                    .partition(|h| h.due_at <= now);
                for head in &due {
                    rows::claim_outbox_post(c, head.id, until)?;
                }
                Ok((due, later.iter().map(|h| h.due_at).min()))
            })
            .await
    }

    /// Discord accepted the post.
    pub async fn post_delivered(self, id: OutboxId) -> Result<()> {
        let now = SystemClock.now_ms();
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::outbox_delivered(c, id, now)?))
            .await
    }

    /// An attempt failed: try again at `retry_at`, or give the post up (`None`).
    pub async fn post_failed(
        self,
        id: OutboxId,
        error: String,
        retry_at: Option<i64>,
    ) -> Result<()> {
        let now = SystemClock.now_ms();
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::outbox_failed(c, id, &error, retry_at, now)?))
            .await
    }

    /// The posts of an event and how each stands (tests, diagnostics).
    pub async fn posts_of_event(
        self,
        event: EventId,
    ) -> Result<Vec<(OutboxId, OutboxStatus, u32)>> {
        self.service
            .read(move |c| Ok(rows::outbox_posts_of_event(c, event)?))
            .await
    }

    /// Posts not yet delivered nor given up.
    pub async fn outbox_depth(self) -> Result<u64> {
        self.service
            .read(|c| Ok(rows::outbox_pending_count(c)?))
            .await
    }
}

/// A post owed to a Discord channel: the oldest of its channel, the only one that may go out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelPost {
    pub id: OutboxId,
    /// The event it announces.
    pub event_id: EventId,
    pub channel_id: u64,
    /// Tries made so far.
    pub attempts: u32,
    /// When it may go out (wall-clock ms): after its hold and its back-off.
    pub due_at: i64,
    /// Set for a direct message to this Discord user rather than a channel post.
    pub dm_user_id: Option<u64>,
}

impl From<OutboxHead> for ChannelPost {
    fn from(head: OutboxHead) -> Self {
        ChannelPost {
            id: head.id,
            event_id: head.event_id,
            channel_id: head.channel_id,
            attempts: head.attempts,
            due_at: head.due_at,
            dm_user_id: head.dm_user_id,
        }
    }
}
