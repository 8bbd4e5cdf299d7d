#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("database setup failed: {0}")]
    Setup(String),
    #[error("the database writer has stopped")]
    WriterGone,
    /// A batch failed as a whole; every caller in it gets this. `unavailable` says whether
    /// the cause was the database being out of reach (busy, I/O, disk full), not a bug.
    #[error("the database commit failed: {message}")]
    Commit { message: String, unavailable: bool },
    /// The database file was deleted or replaced under the running store: writes would land
    /// in a file nobody will open again, so the writer refuses every write from then on.
    #[error("the database file {0} was removed or replaced while in use; writes are stopped")]
    FileGone(String),
    #[error("a database job failed: {0}")]
    Thread(String),
    #[error("a database lock was poisoned")]
    Poisoned,
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether the database is out of reach for now (locked, I/O, full disk, file gone,
    /// writer stopped), as opposed to a bug in a query or corrupt data. Callers answer the
    /// first "try again later" and the second "internal error".
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Sqlite(e) => sqlite_unavailable(e),
            StoreError::Commit { unavailable, .. } => *unavailable,
            StoreError::WriterGone | StoreError::FileGone(_) => true,
            StoreError::Migration(_)
            | StoreError::Setup(_)
            | StoreError::Thread(_)
            | StoreError::Poisoned
            | StoreError::Corrupt(_) => false,
        }
    }
}

/// SQLite's answers that mean "not now" rather than "wrong".
pub(super) fn sqlite_unavailable(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::*;
    matches!(
        e.sqlite_error_code(),
        Some(
            DatabaseBusy
                | DatabaseLocked
                | SystemIoFailure
                | DiskFull
                | CannotOpen
                | ReadOnly
                | OutOfMemory
                | FileLockingProtocolFailed
        )
    )
}
