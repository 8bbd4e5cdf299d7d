//! On a database several instances share, every instance's live listeners (event streams,
//! the Discord front end) must see every instance's events, in one order. So there one task
//! publishes them all, this instance's too: it reads the events table after the last id it
//! published whenever this instance commits, another instance's commit is heard
//! (LISTEN/NOTIFY), or a while has passed (a notification may be missed while the listener
//! reconnects). Event ids are handed out in commit order there (store/src/pg_writer.rs), so an id
//! once seen has no smaller one still to come.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::domain::EventId;
use crate::store::rows;

use super::Events;
use crate::logging::ErrorChain;
use crate::{GamesService, Inner};

/// Events read per query; a full page is followed at once by the next.
const PAGE: u32 = 500;
/// How long the follower waits without a word before looking anyway.
const CATCH_UP: Duration = Duration::from_secs(2);

impl Events<'_> {
    /// Starts the follower when the database is shared; `published` tells the last event id it
    /// published (`None` until it knows where the events table ends). It ends with the service.
    pub(crate) fn follow_shared_events(
        self,
        published: tokio::sync::watch::Sender<Option<EventId>>,
    ) {
        let (Some(poked), Some(mut heard)) = (
            self.service.inner.shared_events.clone(),
            self.service.inner.store.changes(),
        ) else {
            let _ = published.send(Some(EventId(i64::MAX)));
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!("no async runtime: other instances' events will not be followed");
            // Nothing will publish: writes must not wait for it.
            let _ = published.send(Some(EventId(i64::MAX)));
            return;
        };
        let service: Weak<Inner> = Arc::downgrade(&self.service.inner);
        runtime.spawn(async move {
            let mut last: Option<EventId> = None;
            loop {
                let Some(inner) = service.upgrade() else {
                    return;
                };
                let service = GamesService { inner, held: None };
                match service.events().publish_new_events(last).await {
                    Ok((newest, full)) => {
                        last = Some(newest);
                        let _ = published.send(Some(newest));
                        if full {
                            continue;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %ErrorChain(&e), "cannot read new events; trying again")
                    }
                }
                drop(service);
                tokio::select! {
                    _ = poked.notified() => {}
                    changed = heard.changed() => if changed.is_err() { return },
                    () = tokio::time::sleep(CATCH_UP) => {}
                }
            }
        });
    }

    /// Publishes the events after `last` (`None`: starts from the newest, publishing
    /// nothing); answers the new last id and whether a whole page was read.
    async fn publish_new_events(self, last: Option<EventId>) -> crate::Result<(EventId, bool)> {
        let Some(since) = last else {
            return Ok((
                self.service.read(|c| Ok(rows::last_event_id(c)?)).await?,
                false,
            ));
        };
        let rows = self
            .service
            .read(move |c| Ok(rows::events_since(c, since, PAGE)?))
            .await?;
        let Some(newest) = rows.last().map(|row| row.id) else {
            return Ok((since, false));
        };
        let full = rows.len() == PAGE as usize;
        self.service
            .inner
            .bus
            .publish(super::bus::events_of_rows(rows));
        Ok((newest, full))
    }
}
