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
    #[error("the database commit failed: {0}")]
    Commit(String),
    #[error("a database job failed: {0}")]
    Thread(String),
    #[error("a database lock was poisoned")]
    Poisoned,
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}
