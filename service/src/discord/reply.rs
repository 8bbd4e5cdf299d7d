//! Changes a front end shows in its own reply (a slash command's answer). Their channel posts are
//! held back until the front end says whether the reply went out: shown, they are done; not
//! shown, the Discord outbox delivers them like any other. While the reply is still being made
//! (a slow machine, a long queue) the hold is renewed, so a reply that comes late never shows
//! a change the outbox has posted meanwhile; a hold that is never settled (the process died in
//! between) ends by itself, so the post still goes out once.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use tokio::sync::oneshot;

use crate::logging::ErrorChain;
use crate::store::rows::{self, OutboxId};

use super::Discord;
use crate::{Clock, GamesService};

/// How long a post waits for its reply's verdict before going out anyway. An interaction must
/// be answered within 3 seconds; this leaves room for a slow upload.
pub const REPLY_HOLD_MS: i64 = 60_000;

/// How often a reply still being made renews its hold: well within [`REPLY_HOLD_MS`], so a
/// renewal that runs late still comes before the hold ends.
const RENEW_EVERY: Duration = Duration::from_secs(15);

/// The posts held by one reply, and the Discord channel the reply is in when known.
#[derive(Default)]
pub(crate) struct PostsAwaitingReply(Mutex<Vec<OutboxId>>, Option<u64>);

impl PostsAwaitingReply {
    /// The channel the reply is in, when its scope was opened with one.
    pub fn channel(&self) -> Option<u64> {
        self.1
    }

    pub fn add(&self, ids: &[OutboxId]) {
        self.lock().extend_from_slice(ids);
    }

    fn take(&self) -> Vec<OutboxId> {
        std::mem::take(&mut *self.lock())
    }

    fn snapshot(&self) -> Vec<OutboxId> {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<OutboxId>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A scope for one reply: call the service through [`InReply::service`], then settle with
/// [`InReply::shown`] or [`InReply::not_shown`]. Dropped unsettled, its posts are released.
pub struct InReply {
    service: GamesService,
    held: Arc<PostsAwaitingReply>,
    /// Dropped with the scope: the renewal of its hold stops.
    _renewing: Option<oneshot::Sender<()>>,
}

/// Renews the hold of the posts in `held` every `every`, to `hold_ms` from then, until
/// `stop` is dropped (the reply settled) or `held` is gone.
async fn keep_held(
    store: crate::store::Store,
    held: Weak<PostsAwaitingReply>,
    hold_ms: i64,
    every: Duration,
    mut stop: oneshot::Receiver<()>,
) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tick.tick() => {}
        }
        let Some(ids) = held.upgrade().map(|held| held.snapshot()) else {
            return;
        };
        if ids.is_empty() {
            continue;
        }
        let until = crate::SystemClock.now_ms().saturating_add(hold_ms);
        let renewed: std::result::Result<(), crate::store::StoreError> = store
            .write(move |c| rows::outbox_hold_longer(c, &ids, until))
            .await;
        if let Err(e) = renewed {
            // The hold ends by itself then: the posts go out, perhaps beside a late reply.
            tracing::warn!(error = %ErrorChain(&e), "could not renew held Discord posts");
        }
    }
}

impl Discord<'_> {
    /// Starts a reply scope for a reply in `channel`: its commits hold their channel posts,
    /// and a game shown in several channels (a tournament game between two servers) holds
    /// only its post in this one; the others go out. Every reply names its channel, so a click
    /// or command in a copy's thread never holds the posts of another server's.
    pub fn in_reply_in(self, channel: u64) -> InReply {
        let held = Arc::new(PostsAwaitingReply(Mutex::default(), Some(channel)));
        let renewing = tokio::runtime::Handle::try_current().ok().map(|runtime| {
            let (stop, stopped) = oneshot::channel();
            runtime.spawn(keep_held(
                self.service.inner.store.clone(),
                Arc::downgrade(&held),
                REPLY_HOLD_MS,
                RENEW_EVERY,
                stopped,
            ));
            stop
        });
        InReply {
            service: GamesService {
                inner: Arc::clone(&self.service.inner),
                held: Some(Arc::clone(&held)),
            },
            held,
            _renewing: renewing,
        }
    }

    /// This service without a reply scope (for work that outlives the reply, like AI turns).
    pub(crate) fn detached(self) -> GamesService {
        GamesService {
            inner: Arc::clone(&self.service.inner),
            held: None,
        }
    }

    async fn settle(self, ids: Vec<OutboxId>, shown: bool) {
        if ids.is_empty() {
            return;
        }
        let signal = self.service.inner.discord_outbox.clone();
        let now = crate::SystemClock.now_ms();
        let settled = self
            .service
            .inner
            .store
            .write(move |c| {
                if shown {
                    rows::outbox_shown(c, &ids, now)
                } else {
                    rows::outbox_released(c, &ids)
                }
            })
            .await;
        let settled: std::result::Result<(), crate::store::StoreError> = settled;
        if let Err(e) = settled {
            // The hold still ends by itself: the posts go out then.
            tracing::warn!(error = %ErrorChain(&e), "could not settle held Discord posts");
        }
        signal.notify_one();
    }
}

impl InReply {
    /// The service to act through: what it commits is held for this reply.
    pub fn service(&self) -> &GamesService {
        &self.service
    }

    /// The reply showed the changes: their posts are done.
    pub async fn shown(self) {
        let ids = self.held.take();
        self.service.discord().settle(ids, true).await;
    }

    /// The reply did not go out: the outbox posts the changes.
    pub async fn not_shown(self) {
        let ids = self.held.take();
        self.service.discord().settle(ids, false).await;
    }
}

impl Drop for InReply {
    fn drop(&mut self) {
        let ids = self.held.take();
        if ids.is_empty() {
            return;
        }
        let service = self.service.discord().detached();
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { service.discord().settle(ids, false).await });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::EventId;
    use crate::store::params;

    fn held_until(
        store: &crate::store::Store,
        id: OutboxId,
    ) -> impl std::future::Future<Output = Option<i64>> {
        let store = store.clone();
        async move {
            store
                .read(move |c| {
                    c.query_one(
                        "SELECT held_until FROM discord_outbox WHERE id = ?1",
                        params![id],
                        |r| r.get::<Option<i64>>(0),
                    )
                })
                .await
                .unwrap_or_else(|e: crate::store::StoreError| panic!("{e}"))
        }
    }

    #[tokio::test]
    async fn a_reply_still_being_made_keeps_its_posts_held_and_stops_when_settled() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let store =
            crate::store::Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 8)
                .unwrap_or_else(|e| panic!("{e}"));
        let now = crate::SystemClock.now_ms();
        let id = store
            .write(move |c| {
                c.execute(
                    "INSERT INTO events (kind, payload, created_at) VALUES ('challenge_expired', '{}', ?1)",
                    params![now],
                )?;
                rows::insert_outbox_post(c, EventId(1), 42, now, Some(now + 100))
            })
            .await
            .unwrap_or_else(|e: crate::store::StoreError| panic!("{e}"));
        let held = Arc::new(PostsAwaitingReply::default());
        held.add(&[id]);
        let (stop, stopped) = oneshot::channel();
        let renewal = tokio::spawn(keep_held(
            store.clone(),
            Arc::downgrade(&held),
            10_000,
            Duration::from_millis(20),
            stopped,
        ));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            if held_until(&store, id)
                .await
                .is_some_and(|until| until >= now + 5_000)
            {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the hold was never renewed"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        drop(stop);
        tokio::time::timeout(Duration::from_secs(5), renewal)
            .await
            .unwrap_or_else(|_| panic!("the renewal did not stop when the reply settled"))
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
