//! The store: one writer thread that commits jobs in durable group commits, and a small pool
//! of connections for queries. Jobs get a [`Conn`], the store's narrow SQL interface, never
//! the driver's connection: nothing outside `store/` names a driver. Two backends: an SQLite
//! file (the default, one process), or a PostgreSQL database that several instances share
//! (their writers take turns through an advisory lock; [`Store::changes`] hears the others).

use taflbot_config as config;
use taflbot_config::logging;
use taflbot_domain as domain;
use taflbot_domain::client_addr;

mod checkpointer;
mod conn;
mod domain_values;
mod error;
mod migrations;
mod pg;
mod pg_listener;
mod pg_writer;
mod sqlite;
mod value;
mod writer;

pub mod rows;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

use rusqlite::{Connection, OpenFlags};

use crate::config::DatabaseLocation;

pub use crate::__store_params as params;
pub use conn::{Conn, Dialect, Params, Row, numbered_placeholders_as_dollars};
pub use error::{BackendError, MigrationError, StoreError};
pub use migrations::SCHEMA_VERSION;
pub use pg::{PgTarget, PgTimeouts};
pub use value::{FromSqlValue, SqlValue, ToSqlValue, ValueError};
use writer::Writer;

/// Cloneable handle on the database.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    /// How long this handle's callers wait for an answer: [`ANSWER_WAIT`] unless a tool chose
    /// otherwise ([`Store::with_answer_wait`]).
    answer_wait: Duration,
}

struct Inner {
    writer: Writer,
    readers: Readers,
    max_readers: usize,
    /// One permit per read connection that may be open at once.
    open_readers: Arc<tokio::sync::Semaphore>,
    /// PostgreSQL: bumped whenever any instance committed (see [`Store::changes`]).
    changes: Option<watch::Receiver<u64>>,
    /// Tells the listener thread to end with the store.
    stop: Arc<AtomicBool>,
    /// SQLite: checkpoints the log off the writer's path, until dropped with the store.
    _checkpointer: Option<checkpointer::Checkpointer>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Readers::Postgres { pool, .. } = &mut self.readers {
            let sessions = std::mem::take(pool.get_mut().unwrap_or_else(|p| p.into_inner()));
            pg::off_runtime(move || drop(sessions));
        }
    }
}

/// Idle PostgreSQL read connections kept at least (see `Store::open_postgres`).
const PG_IDLE_READERS: usize = 16;

/// Read connections open at once, at most, as a multiple of those kept idle: a burst of reads
/// waits for a connection rather than opening one each (PostgreSQL's default
/// `max_connections` is 100, for every instance together).
const OPEN_READERS_PER_IDLE: usize = 2;

/// How long a caller waits for the store: for a read connection and the read's answer, for
/// the writer's answer to a write. Past it the store is out of reach for now (a 503 with
/// `Retry-After`), so a database that hangs (a server stopped, a connection that never
/// answers) holds a request this long, not until the request's own deadline.
const ANSWER_WAIT: Duration = Duration::from_secs(2);

/// The idle read connections, and how to open another.
enum Readers {
    Sqlite {
        pool: Mutex<Vec<Connection>>,
        path: std::path::PathBuf,
        busy_timeout: Duration,
    },
    Postgres {
        pool: Mutex<Vec<pg::Session>>,
        target: PgTarget,
    },
}

impl Store {
    /// Opens the database `location` names: an SQLite file as [`Store::open`] (a lock waited
    /// for at most `busy_timeout`), or a PostgreSQL database as [`Store::open_postgres_with`]
    /// (every connection with `pg_timeouts`).
    pub fn open_location(
        location: &DatabaseLocation,
        readers: usize,
        busy_timeout: Duration,
        pg_timeouts: PgTimeouts,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        match location {
            DatabaseLocation::Sqlite(path) => Store::open(path, readers, busy_timeout, max_batch),
            DatabaseLocation::Postgres(url) => Store::open_postgres_with(
                PgTarget {
                    url: url.clone(),
                    timeouts: pg_timeouts,
                },
                readers,
                max_batch,
            ),
        }
    }

    /// Connects to the PostgreSQL database at `url`, with the default deadlines, and migrates
    /// it.
    pub fn open_postgres(url: &str, readers: usize, max_batch: usize) -> Result<Store, StoreError> {
        let target = PgTarget {
            url: url.to_owned(),
            timeouts: PgTimeouts::default(),
        };
        Store::open_postgres_with(target, readers, max_batch)
    }

    /// Connects to the PostgreSQL database of `target` and migrates it. Several instances may
    /// open the same one: their writes take turns, and each hears the others' commits.
    pub fn open_postgres_with(
        target: PgTarget,
        readers: usize,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        pg::off_runtime(|| Store::open_postgres_here(target, readers, max_batch))
    }

    fn open_postgres_here(
        target: PgTarget,
        readers: usize,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        let mut session = pg::Session::connect_to(&target)?;
        migrations::migrate(&session.conn())?;
        let pool = (0..readers.max(1))
            .map(|_| pg::Session::connect_to(&target))
            .collect::<Result<Vec<_>, _>>()?;
        let stop = Arc::new(AtomicBool::new(false));
        let (changes, heard) = watch::channel(0);
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes)
            .map_err(|e| StoreError::Setup(format!("no randomness for the store's mark: {e}")))?;
        let mark = hex::encode(bytes);
        pg_listener::start(target.clone(), mark.clone(), changes, stop.clone())?;
        Ok(Store {
            answer_wait: ANSWER_WAIT,
            inner: Arc::new(Inner {
                writer: Writer::start(
                    pg_writer::PgWriter::new(target.clone(), &mark, session)?,
                    max_batch.max(1),
                )?,
                readers: Readers::Postgres {
                    pool: Mutex::new(pool),
                    target,
                },
                // A server connection costs a process to open: those opened under a burst are
                // kept for the next one, up to this many.
                max_readers: readers.max(PG_IDLE_READERS),
                open_readers: open_readers(readers.max(PG_IDLE_READERS)),
                changes: Some(heard),
                stop,
                _checkpointer: None,
            }),
        })
    }

    /// This store, its callers waiting up to `wait` for each answer instead of [`ANSWER_WAIT`]:
    /// for a tool whose jobs are long by design (a benchmark that builds its database in
    /// transactions of thousands of games). The database's own deadlines still apply.
    pub fn with_answer_wait(&self, wait: Duration) -> Store {
        Store {
            inner: self.inner.clone(),
            answer_wait: wait,
        }
    }

    /// Which database this is: SQLite or PostgreSQL SQL.
    pub fn dialect(&self) -> Dialect {
        match self.inner.readers {
            Readers::Sqlite { .. } => Dialect::Sqlite,
            Readers::Postgres { .. } => Dialect::Postgres,
        }
    }

    /// On a database other instances may write (PostgreSQL): a counter bumped after any
    /// instance's commit, and after the listener reconnected (notifications may have been
    /// missed). `None` for SQLite, where this process is the only writer.
    pub fn changes(&self) -> Option<watch::Receiver<u64>> {
        self.inner.changes.clone()
    }

    /// Opens (creating when absent) and migrates the database at `path`.
    pub fn open(
        path: &Path,
        readers: usize,
        busy_timeout: Duration,
        max_batch: usize,
    ) -> Result<Store, StoreError> {
        let conn = Connection::open(path)?;
        configure(&conn, busy_timeout)?;
        migrations::migrate(&Conn::sqlite(&conn))?;
        let pool = (0..readers.max(1))
            .map(|_| open_reader(path, busy_timeout))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Store {
            answer_wait: ANSWER_WAIT,
            inner: Arc::new(Inner {
                writer: Writer::start(writer::SqliteWriter::new(conn, path), max_batch.max(1))?,
                readers: Readers::Sqlite {
                    pool: Mutex::new(pool),
                    path: path.to_owned(),
                    busy_timeout,
                },
                max_readers: readers.max(1),
                open_readers: open_readers(readers.max(1)),
                changes: None,
                stop: Arc::new(AtomicBool::new(false)),
                _checkpointer: Some(checkpointer::Checkpointer::start(path, busy_timeout)?),
            }),
        })
    }

    /// Runs `job` on the writer inside its own savepoint of a durable transaction.
    /// An `Err` rolls back only this job's changes. `Ok` is returned once committed to disk.
    /// Not answered within the answer wait ([`ANSWER_WAIT`]): [`StoreError::NoAnswer`] (the
    /// job is then not run if the writer had not started it, and may still be committed if it
    /// had).
    pub async fn write<T, E, F>(&self, job: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner
            .writer
            .submit(job, |_| {}, self.answer_wait)
            .await
    }

    /// Like [`Store::write`]; `after_commit` runs on the writer thread once the job's
    /// changes are durable, before any later job's, so effects (events) keep commit order.
    pub async fn write_then<T, E, F, A>(&self, job: F, after_commit: A) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        A: FnOnce(&mut T) + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.inner
            .writer
            .submit(job, after_commit, self.answer_wait)
            .await
    }

    /// Runs `query` on a read-only connection off the async runtime, once one of the bounded
    /// number of read connections is free, answered within the answer wait ([`ANSWER_WAIT`])
    /// of the call: no connection free by then is [`StoreError::ReadersBusy`], no answer from
    /// the database by then [`StoreError::NoAnswer`]; both are "try again soon". A read past
    /// its deadline keeps its connection until the database answers it, so reads that hang
    /// fill the bounded connections, not the blocking threads.
    pub async fn read<T, E, F>(&self, query: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let wait = self.answer_wait;
        let deadline = tokio::time::Instant::now() + wait;
        let open = self.inner.open_readers.clone();
        let permit = match tokio::time::timeout_at(deadline, open.acquire_owned()).await {
            Ok(Ok(permit)) => permit,
            Ok(Err(_)) => return Err(E::from(StoreError::Poisoned)),
            Err(_) => return Err(E::from(StoreError::ReadersBusy(wait))),
        };
        let store = self.clone();
        let read = tokio::task::spawn_blocking(move || {
            let read = store.read_blocking(query);
            drop(permit);
            read
        });
        match tokio::time::timeout_at(deadline, read).await {
            Ok(answered) => answered.map_err(|e| E::from(StoreError::Thread(e.to_string())))?,
            Err(_) => Err(E::from(StoreError::NoAnswer(wait))),
        }
    }

    /// Like [`Store::read`], for code already off the runtime. Not bounded by the read
    /// connections' permits: for callers (tests, tools) that bound themselves.
    pub fn read_blocking<T, E, F>(&self, query: F) -> Result<T, E>
    where
        F: FnOnce(&Conn<'_>) -> Result<T, E>,
        E: From<StoreError>,
    {
        match &self.inner.readers {
            Readers::Sqlite {
                pool,
                path,
                busy_timeout,
            } => {
                let pooled = pool.lock().map_err(|_| StoreError::Poisoned)?.pop();
                let conn = match pooled {
                    Some(conn) => conn,
                    None => open_reader(path, *busy_timeout).map_err(E::from)?,
                };
                // One read transaction: every statement of `query` sees the same snapshot
                // (without it each sees the latest commit, and a commit landing between two
                // of them shows half of it).
                conn.execute_batch("BEGIN")
                    .map_err(|e| E::from(StoreError::from(e)))?;
                let result = query(&Conn::sqlite(&conn));
                // Ending a read commits nothing; a connection that cannot end it is dropped.
                let ended = conn.execute_batch("ROLLBACK").is_ok();
                if ended {
                    self.give_back(pool, conn, |_| true);
                }
                result
            }
            Readers::Postgres { pool, target } => {
                let pooled = pool.lock().map_err(|_| StoreError::Poisoned)?.pop();
                let mut session = match pooled {
                    Some(session) => session,
                    None => pg::Session::connect_to(target).map_err(E::from)?,
                };
                // As on SQLite, one snapshot for the whole read; the start goes with the first
                // statement (no round trip of its own).
                session.take_failed();
                session.begin_ahead(READ_SNAPSHOT);
                let result = query(&session.conn());
                let result = session.settle().map_err(E::from).and(result);
                // A read that sent no statement never began on the server.
                let ended = session.forget_ahead() || session.batch("ROLLBACK").is_ok();
                session.take_failed();
                if ended {
                    self.give_back(pool, session, |s| !s.is_closed());
                }
                result
            }
        }
    }

    /// Keeps at most the configured number of idle connections (extra ones opened under load
    /// close) and never one found broken.
    fn give_back<C>(&self, pool: &Mutex<Vec<C>>, conn: C, usable: impl Fn(&C) -> bool) {
        if usable(&conn)
            && let Ok(mut pool) = pool.lock()
            && pool.len() < self.inner.max_readers
        {
            pool.push(conn);
        }
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
    conn.pragma_update(
        None,
        "wal_autocheckpoint",
        checkpointer::WRITER_CHECKPOINT_PAGES,
    )?;
    Ok(())
}

/// How a PostgreSQL read begins: one snapshot for all its statements, and no writes.
const READ_SNAPSHOT: &str = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;";

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
#[cfg(test)]
mod tests_answer_wait;
#[cfg(test)]
mod tests_postgres;
#[cfg(test)]
mod tests_search_indexes;
#[cfg(test)]
mod tests_server_lifecycle;

/// The permits of the read connections that may be open at once, for `idle` kept idle.
fn open_readers(idle: usize) -> Arc<tokio::sync::Semaphore> {
    Arc::new(tokio::sync::Semaphore::new(
        idle.saturating_mul(OPEN_READERS_PER_IDLE),
    ))
}

/// The PostgreSQL server the tests start (shared with the integration tests).
#[cfg(test)]
pub(crate) use taflbot_test_support::pg_server as pg_test_server;
