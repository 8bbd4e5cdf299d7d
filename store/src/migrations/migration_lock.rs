//! The PostgreSQL lock that makes instances starting together migrate one after the other: a
//! session-level advisory lock the runner holds throughout (the same one the runner before it
//! took, so an instance of an older build waits too).
//!
//! An instance that finds it held waits for as long as the other's migration takes, however
//! long that is: its session's deadlines (`database.lock_timeout_ms`,
//! `database.statement_timeout_ms`) are for requests, and cutting this wait made an instance
//! started beside a migrating one exit. It says once every `log_every` what it waits for.

use std::time::{Duration, Instant};

use crate::{Conn, StoreError, pg};

/// The advisory lock ("tafm" in ASCII).
pub(super) const MIGRATION_LOCK: i64 = 0x7461_666d;

/// How long a waiting instance goes between two log lines saying so.
pub(super) const LOG_EVERY: Duration = Duration::from_secs(10);

/// Takes the lock on the session behind `conn` (outside any transaction), waiting for as long
/// as another session holds it. The session's own deadlines are back when this returns.
pub(super) fn take(conn: &Conn<'_>, log_every: Duration) -> Result<(), StoreError> {
    // Each try waits one log interval (PostgreSQL's `lock_timeout`, which a wait for an
    // advisory lock obeys); no statement deadline meanwhile, or it would cut the try.
    conn.batch(&format!(
        "SET statement_timeout = 0; SET lock_timeout = {}",
        log_every.as_millis().max(1)
    ))?;
    let taken = wait(conn, log_every);
    // `RESET` goes back to the values the session started with (its start-up options).
    let restored = conn.batch("RESET statement_timeout; RESET lock_timeout");
    taken.and(restored)
}

/// Gives the lock back.
pub(super) fn release(conn: &Conn<'_>) -> Result<(), StoreError> {
    conn.batch(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
}

fn wait(conn: &Conn<'_>, log_every: Duration) -> Result<(), StoreError> {
    let started = Instant::now();
    loop {
        match conn.batch(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})")) {
            Ok(()) => {
                if started.elapsed() >= log_every {
                    tracing::info!(
                        lock = MIGRATION_LOCK,
                        waited_secs = started.elapsed().as_secs(),
                        "the other instance's schema migration is over; migrating"
                    );
                }
                return Ok(());
            }
            Err(e) if pg::is_lock_timeout(&e) => {
                let waited_secs = started.elapsed().as_secs();
                tracing::info!(
                    lock = MIGRATION_LOCK,
                    waited_secs,
                    "waiting for another instance's schema migration \
                     (PostgreSQL advisory lock {MIGRATION_LOCK}) for {waited_secs} s"
                );
            }
            Err(e) => return Err(e),
        }
    }
}
