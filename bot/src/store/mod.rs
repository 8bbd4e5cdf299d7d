//! The SQLite store: one writer thread that commits jobs in durable group commits, and a
//! small pool of read-only connections for queries. Jobs get a [`Conn`], the store's narrow
//! SQL interface, never the driver's connection: nothing outside `store/` names the driver.

mod conn;
mod error;
mod migrations;
mod sqlite;
mod value;
mod writer;

pub mod rows;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::config::DatabaseLocation;

pub use crate::__store_params as params;
pub use conn::{Conn, Dialect, Params, Row, numbered_placeholders_as_dollars};
pub use error::{BackendError, StoreError};
pub use migrations::{SCHEMA_VERSION, migrations};
pub use value::{FromSqlValue, SqlValue, ToSqlValue, ValueError};
use writer::Writer;

/// Cloneable handle on the database.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    writer: Writer,
    readers: Mutex<Vec<Connection>>,
    max_readers: usize,
    path: std::path::PathBuf,
    busy_timeout: Duration,
}

impl Store {
    /// Opens the database `location` names: an SQLite file as [`Store::open`]; PostgreSQL is
    /// refused (no backend yet), never answered with a file instead.
    pub fn open_location(
        location: &DatabaseLocation,
        readers: usize,
        busy_timeout: Duration,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        match location {
            DatabaseLocation::Sqlite(path) => Store::open(path, readers, busy_timeout, max_batch),
            DatabaseLocation::Postgres(_) => Err(StoreError::PostgresNotSupported),
        }
    }

    /// Opens (creating when absent) and migrates the database at `path`.
    pub fn open(
        path: &Path,
        readers: usize,
        busy_timeout: Duration,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        let mut conn = Connection::open(path)?;
        configure(&conn, busy_timeout)?;
        migrations().to_latest(&mut conn)?;
        let pool = (0..readers.max(1))
            .map(|_| open_reader(path, busy_timeout))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Store {
            inner: Arc::new(Inner {
                writer: Writer::start(conn, path, max_batch.max(1))?,
                readers: Mutex::new(pool),
                max_readers: readers.max(1),
                path: path.to_owned(),
                busy_timeout,
            }),
        })
    }

    /// Runs `job` on the writer inside its own savepoint of a durable transaction.
    /// An `Err` rolls back only this job's changes. `Ok` is returned once committed to disk.
    pub async fn write<T, E, F>(&self, job: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner.writer.submit(job, |_| {}).await
    }

    /// Like [`Store::write`]; `after_commit` runs on the writer thread once the job's
    /// changes are durable, before any later job's, so effects (events) keep commit order.
    pub async fn write_then<T, E, F, A>(&self, job: F, after_commit: A) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        A: FnOnce(&T) + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner.writer.submit(job, after_commit).await
    }

    /// Runs `query` on a read-only connection off the async runtime.
    pub async fn read<T, E, F>(&self, query: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || store.read_blocking(query))
            .await
            .map_err(|e| E::from(StoreError::Thread(e.to_string())))?
    }

    /// Like [`Store::read`], for code already off the runtime.
    pub fn read_blocking<T, E, F>(&self, query: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E>,
        E: From<StoreError>,
    {
        let pooled = self
            .inner
            .readers
            .lock()
            .map_err(|_| StoreError::Poisoned)?
            .pop();
        let conn = match pooled {
            Some(conn) => conn,
            None => open_reader(&self.inner.path, self.inner.busy_timeout).map_err(E::from)?,
        };
        let result = query(&Conn::sqlite(&conn));
        // Keep at most the configured number; extra connections opened under load close.
        if let Ok(mut pool) = self.inner.readers.lock()
            && pool.len() < self.inner.max_readers
        {
            pool.push(conn);
        }
        result
    }
}

fn configure(conn: &Connection, busy_timeout: Duration) -> Result<(), StoreError> {
    conn.busy_timeout(busy_timeout)?;
    conn.set_prepared_statement_cache_capacity(sqlite::STATEMENT_CACHE);
    // WAL: readers never block the writer. synchronous=FULL: a commit is on disk when it returns.
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Setup(format!(
            "journal_mode is {mode}, not wal"
        )));
    }
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")?;
    Ok(())
}

fn open_reader(path: &Path, busy_timeout: Duration) -> Result<Connection, StoreError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(busy_timeout)?;
    conn.set_prepared_statement_cache_capacity(sqlite::STATEMENT_CACHE);
    conn.execute_batch("PRAGMA foreign_keys = ON;")?;
    Ok(conn)
}

#[cfg(test)]
mod tests;
