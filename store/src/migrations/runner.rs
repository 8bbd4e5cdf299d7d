//! The one migration runner, for both backends: each migration the database lacks, in order,
//! in a transaction of its own that also records it in `schema_migrations` (version, name,
//! when), so a failure leaves the database at the version before it. A database newer than
//! this build is refused, untouched.
//!
//! Instances starting together migrate one after the other: on SQLite each transaction takes
//! the file's write lock before reading the version (`BEGIN IMMEDIATE`); on PostgreSQL the
//! runner holds an advisory lock throughout, waited for as long as it takes
//! (`migration_lock.rs`). On PostgreSQL a migration's statements have no deadline.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::{Migration, Postgres, legacy, migration_lock};
use crate::{Conn, Dialect, MigrationError, StoreError, params};

/// Brings the database behind `conn` (the writer's connection, outside any transaction) to
/// this build's [`SCHEMA_VERSION`](super::SCHEMA_VERSION).
pub fn migrate(conn: &Conn<'_>) -> Result<(), StoreError> {
    run(conn, super::MIGRATIONS)
}

/// Brings the database to the last version of `migrations` (a list numbered 1, 2, 3...).
pub fn run(conn: &Conn<'_>, migrations: &[Migration]) -> Result<(), StoreError> {
    run_logging_waits(conn, migrations, migration_lock::LOG_EVERY)
}

/// [`run`], saying once every `log_every` that it waits for another instance's migration.
pub(super) fn run_logging_waits(
    conn: &Conn<'_>,
    migrations: &[Migration],
    log_every: Duration,
) -> Result<(), StoreError> {
    if conn.dialect() == Dialect::Sqlite {
        return apply_missing(conn, migrations);
    }
    migration_lock::take(conn, log_every)?;
    // A migration runs for as long as it takes: `database.statement_timeout_ms` is for
    // requests, and one of a migration's statements cut by it (a recount over a million games
    // takes minutes) would make the database impossible to upgrade. Waits for a lock keep
    // their deadline: a migration is not to stall behind a running instance's transaction.
    let outcome = conn
        .batch("SET statement_timeout = 0")
        .and_then(|()| apply_missing(conn, migrations));
    let restored = conn.batch("RESET statement_timeout");
    let unlocked = migration_lock::release(conn);
    outcome.and(restored).and(unlocked)
}

fn apply_missing(conn: &Conn<'_>, migrations: &[Migration]) -> Result<(), StoreError> {
    let begin = match conn.dialect() {
        // The write lock before the version is read: a second process waits, then sees the
        // first one's migration.
        Dialect::Sqlite => "BEGIN IMMEDIATE",
        Dialect::Postgres => "BEGIN",
    };
    loop {
        conn.batch(begin)?;
        let outcome = apply_next(conn, migrations).and_then(|applied| {
            conn.batch("COMMIT").map_err(|e| match &applied {
                Some(step) => step.failed(e),
                None => e,
            })?;
            Ok(applied)
        });
        match outcome {
            Ok(Some(step)) => step.log(conn.dialect()),
            Ok(None) => return Ok(()),
            Err(e) => {
                if let Err(rollback) = conn.batch("ROLLBACK") {
                    // The database may have ended the transaction itself; the migration's
                    // own error is the one to report.
                    tracing::debug!(error = %rollback, "rolling back a failed migration failed");
                }
                return Err(e);
            }
        }
    }
}

/// What one transaction applies: a migration, or on PostgreSQL the baseline with every
/// version it holds.
struct Step<'m> {
    migrations: &'m [Migration],
    sql: &'m str,
    started: Instant,
}

impl Step<'_> {
    /// The version the step brings the database to.
    fn last(&self) -> Option<&Migration> {
        self.migrations.last()
    }

    fn failed(&self, source: StoreError) -> StoreError {
        match self.last() {
            Some(m) => MigrationError::Failed {
                version: m.version,
                name: m.name,
                source: Box::new(source),
            }
            .into(),
            None => source,
        }
    }

    fn log(&self, dialect: Dialect) {
        if let Some(m) = self.last() {
            tracing::info!(
                version = m.version,
                name = m.name,
                backend = ?dialect,
                elapsed_ms = self.started.elapsed().as_millis() as u64,
                "applied a schema migration"
            );
        }
    }
}

/// In the open transaction: reads the version (adopting the previous runner's marker the first
/// time), and applies the next migration if any; answers what it applied.
fn apply_next<'m>(
    conn: &Conn<'_>,
    migrations: &'m [Migration],
) -> Result<Option<Step<'m>>, StoreError> {
    let latest = migrations.last().map_or(0, |m| m.version);
    let current = current_version(conn, migrations, latest)?;
    if current > latest {
        return Err(MigrationError::NewerThanBuild {
            found: current,
            latest,
        }
        .into());
    }
    let Some(step) = next_step(conn.dialect(), migrations, current)? else {
        return Ok(None);
    };
    apply(conn, &step).map_err(|e| step.failed(e))?;
    Ok(Some(step))
}

fn apply(conn: &Conn<'_>, step: &Step<'_>) -> Result<(), StoreError> {
    if !step.sql.trim().is_empty() {
        conn.batch(step.sql)?;
    }
    let at = now_ms();
    for m in step.migrations {
        if let Some(hook) = m.then {
            hook(conn)?;
        }
        record(conn, m, at)?;
    }
    match step.last() {
        Some(m) => legacy::keep_in_step(conn, m.version),
        None => Ok(()),
    }
}

/// The next transaction's work for a database at `current`, if it lacks anything.
fn next_step(
    dialect: Dialect,
    migrations: &[Migration],
    current: i64,
) -> Result<Option<Step<'_>>, MigrationError> {
    let Some(next) = migrations.iter().position(|m| m.version > current) else {
        return Ok(None);
    };
    let started = Instant::now();
    let one = |sql| Step {
        migrations: &migrations[next..=next],
        sql,
        started,
    };
    let m = &migrations[next];
    Ok(Some(match (dialect, &m.postgres) {
        (Dialect::Sqlite, _) => one(m.sqlite),
        (Dialect::Postgres, Postgres::Sql(sql)) => one(sql),
        (Dialect::Postgres, Postgres::Unchanged) => one(""),
        (Dialect::Postgres, Postgres::InBaseline | Postgres::Baseline(_)) => {
            let (end, sql) = migrations[next..]
                .iter()
                .enumerate()
                .find_map(|(i, m)| match m.postgres {
                    Postgres::Baseline(sql) => Some((next + i, sql)),
                    _ => None,
                })
                .ok_or(MigrationError::NoPostgresText(m.version))?;
            // Every PostgreSQL database began at the baseline: one part way to it was made
            // by no build of ours.
            if current != 0 {
                return Err(MigrationError::BelowBaseline {
                    found: current,
                    baseline: migrations[end].version,
                });
            }
            Step {
                migrations: &migrations[..=end],
                sql,
                started,
            }
        }
    }))
}

/// The version table's definition, in each backend's types.
fn version_table(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => {
            "CREATE TABLE schema_migrations (
                version    INTEGER PRIMARY KEY,
                name       TEXT    NOT NULL,
                applied_at INTEGER NOT NULL
            )"
        }
        Dialect::Postgres => {
            "CREATE TABLE schema_migrations (
                version    BIGINT PRIMARY KEY,
                name       TEXT   NOT NULL,
                applied_at BIGINT NOT NULL
            )"
        }
    }
}

/// The database's version: the last one recorded. A database without the version table gets
/// one, holding the versions the previous runner's marker says it has (0 for a new database),
/// so nothing they did runs again.
fn current_version(
    conn: &Conn<'_>,
    migrations: &[Migration],
    latest: i64,
) -> Result<i64, StoreError> {
    if table_exists(conn, "schema_migrations")? {
        return conn.query_one(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            params![],
            |r| r.get(0),
        );
    }
    let adopted = legacy::version(conn)?;
    if adopted > latest {
        return Err(MigrationError::NewerThanBuild {
            found: adopted,
            latest,
        }
        .into());
    }
    conn.batch(version_table(conn.dialect()))?;
    let at = now_ms();
    for m in migrations.iter().take_while(|m| m.version <= adopted) {
        record(conn, m, at)?;
    }
    if adopted > 0 {
        tracing::info!(
            version = adopted,
            backend = ?conn.dialect(),
            "adopted the schema version the previous migration runner recorded"
        );
    }
    Ok(adopted)
}

/// Records `m` as applied `at` (ms): the versions one transaction applies share one time.
fn record(conn: &Conn<'_>, m: &Migration, at: i64) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
        params![m.version, m.name, at],
    )?;
    Ok(())
}

/// Milliseconds since the Unix epoch, as every time in the schema.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Whether the table `name` exists (in PostgreSQL's current schema).
pub(super) fn table_exists(conn: &Conn<'_>, name: &str) -> Result<bool, StoreError> {
    let sql = match conn.dialect() {
        Dialect::Sqlite => "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
        Dialect::Postgres => {
            "SELECT COUNT(*) FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = ?1"
        }
    };
    let n: i64 = conn.query_one(sql, params![name], |r| r.get(0))?;
    Ok(n > 0)
}
