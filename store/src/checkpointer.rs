//! SQLite's WAL checkpoints, off the writer's path. By default SQLite checkpoints inside the
//! commit that makes the log pass 1,000 pages, so the writer itself copies the pages into the
//! database file and waits for that file's flush: on a slow disk that flush takes 40 to 500 ms
//! now and then (measured with `strace -T` under `taflbot-bench http`), and every move queued
//! behind the writer waits with it. Here a thread of its own checkpoints every
//! [`CHECKPOINT_EVERY`] (PASSIVE: it never blocks the writer or a reader), and the writer's
//! automatic checkpoint stays only as a safety valve, at [`WRITER_CHECKPOINT_PAGES`], should
//! this thread fall behind or fail.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::Connection;

use super::StoreError;

/// How often the checkpointer copies the log into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

/// The writer checkpoints by itself only past this many pages in the log (64 MiB at 4 KiB a
/// page), which the checkpointer never lets it reach while it runs.
pub(super) const WRITER_CHECKPOINT_PAGES: u32 = 16_384;

/// Ends the checkpointer's thread when dropped (with the store).
pub(super) struct Checkpointer {
    _stop: mpsc::Sender<()>,
}

impl Checkpointer {
    /// Opens a connection of its own on `path` and starts checkpointing on a thread.
    pub(super) fn start(path: &Path, busy_timeout: Duration) -> Result<Checkpointer, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(busy_timeout)?;
        let (stop, stopped) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(&conn, &stopped))
            .map_err(|e| StoreError::Thread(e.to_string()))?;
        Ok(Checkpointer { _stop: stop })
    }
}

fn run(conn: &Connection, stopped: &mpsc::Receiver<()>) {
    while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
        // (busy, pages in the log, pages copied): a partial copy (readers on older snapshots)
        // is finished by a later pass.
        let checkpoint = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
            ))
        });
        if let Err(error) = checkpoint {
            tracing::warn!(%error, "WAL checkpoint failed; the writer checkpoints past the safety valve");
        }
    }
}
