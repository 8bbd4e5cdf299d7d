#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    // The driver's words are the source's, said by the chain: not repeated here.
    #[error("database error")]
    Database(#[source] BackendError),
    #[error("database migration failed")]
    Migration(#[from] MigrationError),
    /// A query that always answers a row (an aggregate, a `RETURNING`) answered none.
    #[error("the query {0:?} returned no row")]
    NoRow(String),
    /// A parameter the database cannot hold (an integer beyond its range).
    #[error("a value cannot be stored: {0}")]
    Parameter(String),
    /// A parameter of another kind than its placeholder takes (PostgreSQL, which types every
    /// placeholder: an integer bound where a boolean goes, say). A bug in the statement's
    /// caller, found on the statement's first run.
    #[error(
        "parameter {index} of {statement:?} is a {value} value, but its placeholder takes {placeholder}"
    )]
    ParameterKind {
        index: usize,
        statement: String,
        value: &'static str,
        placeholder: String,
    },
    /// A write that would take something unique someone else holds (a handle): the store's
    /// name of the constraint. Refused before the database raised it, so the transaction
    /// stays usable (PostgreSQL aborts a transaction at its first error).
    #[error("{0} is taken")]
    UniqueTaken(String),
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
    /// Every read connection the store may open was in use for this long: a burst, worth
    /// retrying soon.
    #[error("every read connection stayed busy for {0:?}")]
    ReadersBusy(std::time::Duration),
    /// The database did not answer a read or a write within this long (a server that hangs,
    /// a lock held on): the caller stops waiting. A write may still be made after this (one
    /// the writer had not yet started is not).
    #[error("the database did not answer within {0:?}")]
    NoAnswer(std::time::Duration),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether the database is out of reach for now (locked, I/O, full disk, file gone,
    /// writer stopped), as opposed to a bug in a query or corrupt data. Callers answer the
    /// first "try again later" and the second "internal error".
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Database(e) => e.unavailable,
            StoreError::Commit { unavailable, .. } => *unavailable,
            StoreError::WriterGone
            | StoreError::FileGone(_)
            | StoreError::ReadersBusy(_)
            | StoreError::NoAnswer(_) => true,
            StoreError::Migration(_)
            | StoreError::NoRow(_)
            | StoreError::Parameter(_)
            | StoreError::ParameterKind { .. }
            | StoreError::UniqueTaken(_)
            | StoreError::Setup(_)
            | StoreError::Thread(_)
            | StoreError::Poisoned
            | StoreError::Corrupt(_) => false,
        }
    }

    /// For a write refused by a unique constraint, the database's words naming the
    /// constraint (SQLite: `UNIQUE constraint failed: players.handle`).
    pub fn unique_violation(&self) -> Option<&str> {
        match self {
            StoreError::Database(e) => e.unique_violation.as_deref(),
            StoreError::UniqueTaken(constraint) => Some(constraint),
            _ => None,
        }
    }
}

/// Why the schema could not be brought to this build's version (`store/src/migrations/`).
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    /// A newer build migrated the database: this one does not know its schema, so it touches
    /// nothing.
    #[error(
        "the database is at schema version {found}, newer than this build's {latest}: run a newer taflbot"
    )]
    NewerThanBuild { found: i64, latest: i64 },
    /// A PostgreSQL database part way to the baseline every PostgreSQL database starts from.
    #[error(
        "the PostgreSQL database is at schema version {found}, short of version {baseline}, where every PostgreSQL database starts"
    )]
    BelowBaseline { found: i64, baseline: i64 },
    /// A version without PostgreSQL text that no baseline after it holds (a mistake in the
    /// list of migrations).
    #[error("schema version {0} has no PostgreSQL text and no baseline holds it")]
    NoPostgresText(i64),
    /// The migration to `version` failed; it was rolled back, so the database is at the
    /// version before it.
    #[error("schema migration {version} ({name}) failed")]
    Failed {
        version: i64,
        name: &'static str,
        #[source]
        source: Box<StoreError>,
    },
}

/// The database driver's own error, kept opaque so no driver type leaves the store: its
/// message, and whether it means "not now" rather than "wrong". It stands for the driver's
/// error in a chain: its words are the driver's, its source the driver's source, so the
/// driver's words are said once.
#[derive(Debug)]
pub struct BackendError {
    driver: Box<dyn std::error::Error + Send + Sync>,
    unavailable: bool,
    /// Set for a write refused by a unique constraint: the database's words naming it.
    unique_violation: Option<String>,
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.driver.fmt(f)
    }
}

impl std::error::Error for BackendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.driver.source()
    }
}

impl BackendError {
    /// The driver's error itself, for the backend's module to tell its kinds apart.
    pub(super) fn driver(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.driver.as_ref()
    }

    pub(super) fn new(
        driver: Box<dyn std::error::Error + Send + Sync>,
        unavailable: bool,
        unique_violation: Option<String>,
    ) -> BackendError {
        BackendError {
            driver,
            unavailable,
            unique_violation,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        let unavailable = sqlite_unavailable(&e);
        let unique_violation = match &e {
            rusqlite::Error::SqliteFailure(failure, message)
                if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
            {
                Some(message.clone().unwrap_or_default())
            }
            _ => None,
        };
        StoreError::Database(BackendError {
            driver: Box::new(e),
            unavailable,
            unique_violation,
        })
    }
}

/// SQLite's answers that mean "not now" rather than "wrong".
fn sqlite_unavailable(e: &rusqlite::Error) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logging::ErrorChain;

    #[test]
    fn a_database_error_says_the_drivers_words_once() {
        let driver = rusqlite::Error::InvalidColumnName("no_such_column".into());
        let driver_words = driver.to_string();
        let error = StoreError::from(driver);
        assert!(
            !error.to_string().contains(&driver_words),
            "Display repeats its source: {error}"
        );
        let chain = ErrorChain(&error).to_string();
        assert_eq!(chain.matches(&driver_words).count(), 1, "{chain}");
        assert!(chain.starts_with("database error: "), "{chain}");
    }
}
