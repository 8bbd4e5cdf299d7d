//! IDENTIFY turns shared by every instance of one bot. Discord allows one gateway session
//! start per 5 s in each `max_concurrency` bucket for the whole application, not per process:
//! instances on one PostgreSQL database claim their turns from one row per bucket, so two
//! started together (a rolling deploy, a restart of both) never identify in one bucket at once.
//! A turn is claimed and the bucket moved on in one statement, with nothing held afterwards: an
//! instance that dies after claiming only wastes its turn. SQLite runs one instance, whose
//! gateway relay paces its shards in memory.

use std::time::Duration;

use crate::store::{Dialect, rows};

use super::Discord;
use crate::{Clock, Result, SystemClock};

impl Discord<'_> {
    /// Claims `bucket`'s next IDENTIFY turn, turns `spacing` apart, on a database shared by
    /// instances: how long to wait for it (zero when the bucket is free now). `None` on SQLite,
    /// where the caller paces its own shards.
    ///
    /// The instances' wall clocks measure the turns (as they do claim leases): kept by NTP,
    /// they agree far within the spacing's margin over Discord's 5 s.
    pub async fn claim_identify_turn(
        self,
        bucket: u16,
        spacing: Duration,
    ) -> Result<Option<Duration>> {
        if self.service.inner.store.dialect() != Dialect::Postgres {
            return Ok(None);
        }
        let spacing_ms = i64::try_from(spacing.as_millis()).unwrap_or(i64::MAX);
        let now = SystemClock.now_ms();
        let turn = self
            .service
            .inner
            .store
            .write(move |c| {
                rows::claim_identify_turn(c, bucket, now, spacing_ms)
                    .map_err(crate::ServiceError::from)
            })
            .await?;
        let wait_ms = turn.saturating_sub(SystemClock.now_ms()).max(0);
        Ok(Some(Duration::from_millis(
            u64::try_from(wait_ms).unwrap_or(0),
        )))
    }
}
