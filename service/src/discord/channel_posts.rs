//! The Discord outbox as the service offers it to the worker that delivers it: the post due in
//! each channel (or each player's direct messages), and what became of an attempt.

use std::collections::HashSet;

use crate::domain::{EventId, OutboxId};
use crate::store::rows::{self, OutboxHead, OutboxStatus};

use super::Discord;
use crate::{Clock, Result, SystemClock};

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
        self.claim_due_posts_for(usize::MAX, HashSet::new()).await
    }

    /// Like [`Self::claim_due_posts`], at most `max` of them, and none of the channels in
    /// `busy` (this instance is delivering there: a channel's posts go out one at a time).
    /// Those channels' heads are left out of the next due time too: the worker looks again
    /// when their delivery ends.
    pub async fn claim_due_posts_for(
        self,
        max: usize,
        busy: HashSet<u64>,
    ) -> Result<(Vec<ChannelPost>, Option<i64>)> {
        let now = SystemClock.now_ms();
        let free = |h: &ChannelPost| !busy.contains(&h.channel_id);
        let heads: Vec<ChannelPost> = self.outbox_heads().await?;
        if max == 0 || heads.iter().filter(|h| free(h)).all(|h| h.due_at > now) {
            let next = heads.iter().filter(|h| free(h)).map(|h| h.due_at).min();
            return Ok((Vec::new(), next));
        }
        let until = now.saturating_add(self.service.claim_lease_ms());
        self.service
            .inner
            .store
            .write(move |c| {
                let heads = rows::outbox_heads(c)?.into_iter().map(ChannelPost::from);
                let (mut due, later): (Vec<ChannelPost>, Vec<ChannelPost>) = heads
                    .filter(|h| !busy.contains(&h.channel_id))
                    .partition(|h| h.due_at <= now);
                // Those left for want of room are due now: the worker comes back for them.
                let next = if due.len() > max {
                    Some(now)
                } else {
                    later.iter().map(|h| h.due_at).min()
                };
                due.truncate(max);
                for head in &due {
                    rows::claim_outbox_post(c, head.id, until)?;
                }
                Ok((due, next))
            })
            .await
    }

    /// Renews this instance's claim on post `id` while its delivery runs (every third of the
    /// lease), so a slow request never lets another instance post it too.
    pub async fn renew_post_claim(self, id: OutboxId) -> Result<()> {
        let until = SystemClock
            .now_ms()
            .saturating_add(self.service.claim_lease_ms());
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::renew_outbox_claim(c, id, until)?))
            .await
    }

    /// How long a claim stands (the worker renews it every third of this).
    pub fn claim_lease(self) -> std::time::Duration {
        std::time::Duration::from_millis(u64::try_from(self.service.claim_lease_ms()).unwrap_or(0))
    }

    /// Nothing was sent (the delivery stopped itself): the post waits until `at`, without a
    /// try counted.
    pub async fn post_deferred(self, id: OutboxId, at: i64) -> Result<()> {
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::outbox_deferred(c, id, at)?))
            .await
    }

    /// Discord refused direct message `id` to `user` because their DMs are closed (50007):
    /// the post is given up and the player's turn DMs (`/notify dm`) are turned off, in one
    /// transaction, so no further DM costs a refused request; the player is owed one note
    /// ([`Self::take_dms_closed_note`]).
    pub async fn dms_closed(self, id: OutboxId, user: u64) -> Result<()> {
        let now = SystemClock.now_ms();
        self.service
            .commit(move |c, _| {
                rows::outbox_dms_closed(c, id, now)?;
                if let Some(player) = rows::player_by_discord(c, user)? {
                    rows::note_discord_dms_closed(c, player.id)?;
                }
                Ok(())
            })
            .await
    }

    /// Whether the Discord user `user` is owed the note that their DMs were turned off; marks
    /// it given, so it is given once. Read first: most commands owe nothing and write nothing.
    pub async fn take_dms_closed_note(self, user: u64) -> Result<bool> {
        let owed = self
            .service
            .read(move |c| Ok(rows::dms_closed_note_owed(c, user)?))
            .await?;
        if !owed {
            return Ok(false);
        }
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::take_dms_closed_note(c, user)?))
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
