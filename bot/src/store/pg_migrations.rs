//! PostgreSQL's schema: the same tables as SQLite's, in PostgreSQL's types (`BIGINT` ids from
//! identities, `BOOLEAN` flags, `BYTEA` hashes, `DOUBLE PRECISION`). Versions count as
//! SQLite's do, so both backends of one build are at the same [`SCHEMA_VERSION`]; PostgreSQL
//! starts at version 10 (the whole schema of that version in one file).

use super::pg::Session;
use super::{SCHEMA_VERSION, StoreError};

/// The schema files: the version each brings the database to, and its SQL.
const FILES: &[(usize, &str)] = &[
    (
        10,
        include_str!("../../../migrations/postgres/0010_schema.sql"),
    ),
    (
        11,
        include_str!("../../../migrations/postgres/0011_ai_turn_claims.sql"),
    ),
    (
        12,
        include_str!("../../../migrations/postgres/0012_game_versions.sql"),
    ),
    (
        13,
        include_str!("../../../migrations/postgres/0013_one_move_path.sql"),
    ),
];

/// A session-level advisory lock: instances starting together migrate one after the other.
const MIGRATION_LOCK: i64 = 0x7461_666d;

/// Brings the database to [`SCHEMA_VERSION`]; a database newer than this build is refused.
pub(super) fn migrate(session: &mut Session) -> Result<(), StoreError> {
    session.batch(&format!(
        "SELECT pg_advisory_lock({MIGRATION_LOCK}); \
         CREATE TABLE IF NOT EXISTS taflbot_schema (version BIGINT NOT NULL)"
    ))?;
    let outcome = apply_missing(session);
    let unlocked = session.batch(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"));
    outcome.and(unlocked)
}

fn apply_missing(session: &mut Session) -> Result<(), StoreError> {
    let stored = session
        .conn()
        .query_one("SELECT MAX(version) FROM taflbot_schema", &[], |r| {
            r.get::<Option<i64>>(0)
        })?;
    let current = usize::try_from(stored.unwrap_or(0)).unwrap_or(0);
    if current > SCHEMA_VERSION {
        return Err(StoreError::Setup(format!(
            "the database is at schema version {current}, newer than this build's \
             {SCHEMA_VERSION}: run a newer taflbot"
        )));
    }
    for (version, sql) in FILES.iter().filter(|(v, _)| *v > current) {
        session
            .batch(&format!(
                "BEGIN; {sql}; DELETE FROM taflbot_schema; \
                 INSERT INTO taflbot_schema (version) VALUES ({version}); COMMIT"
            ))
            .map_err(|e| {
                let _ = session.batch("ROLLBACK");
                StoreError::Setup(format!("schema version {version}: {e}"))
            })?;
    }
    Ok(())
}
