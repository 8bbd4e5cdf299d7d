//! Changes a front end shows in its own reply (a slash command's answer). Their channel posts are
//! held back until the front end says whether the reply went out: shown, they are done; not
//! shown, the Discord outbox delivers them like any other. A hold that is never settled (the
//! process died in between) ends by itself, so the post still goes out once.

use std::sync::{Arc, Mutex};

use crate::logging::ErrorChain;
use crate::store::rows::{self, OutboxId};

use super::Discord;
use crate::service::{Clock, GamesService};

/// How long a post waits for its reply's verdict before going out anyway. An interaction must
/// be answered within 3 seconds; this leaves room for a slow upload.
pub const REPLY_HOLD_MS: i64 = 60_000;

/// The posts held by one reply.
#[derive(Default)]
pub(crate) struct PostsAwaitingReply(Mutex<Vec<OutboxId>>);

impl PostsAwaitingReply {
    pub(crate) fn add(&self, ids: &[OutboxId]) {
        self.lock().extend_from_slice(ids);
    }

    fn take(&self) -> Vec<OutboxId> {
        std::mem::take(&mut *self.lock())
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
}

impl Discord<'_> {
    /// Starts a reply scope whose commits hold their channel posts.
    pub fn in_reply(self) -> InReply {
        let held = Arc::new(PostsAwaitingReply::default());
        InReply {
            service: GamesService {
                inner: Arc::clone(&self.service.inner),
                held: Some(Arc::clone(&held)),
            },
            held,
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
        let now = crate::service::SystemClock.now_ms();
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
