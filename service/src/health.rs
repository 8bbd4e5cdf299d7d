//! What the health endpoints ask the service: whether the store takes a write and a read, and
//! how much its outboxes still owe.

use crate::store::{StoreError, params, rows};

use crate::{GamesService, Result};

impl GamesService {
    /// A write through the writer and a read on a reader: the store is usable.
    pub async fn probe_store(&self) -> Result<()> {
        self.inner
            .store
            .write(|c| c.query_one("SELECT 1", params![], |r| r.get::<i64>(0)))
            .await
            .map_err(|e: StoreError| e)?;
        self.read(|c| {
            Ok(c.query_one("SELECT COUNT(*) FROM games", params![], |r| r.get::<i64>(0))?)
        })
        .await?;
        Ok(())
    }

    /// Pending Discord posts and pending webhook deliveries.
    pub async fn outbox_depths(&self) -> Result<(u64, u64)> {
        self.read(|c| {
            Ok((
                rows::outbox_pending_count(c)?,
                rows::pending_delivery_count(c)?,
            ))
        })
        .await
    }
}
