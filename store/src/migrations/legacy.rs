//! The version markers of the runners before this one: rusqlite_migration's SQLite
//! `user_version`, and the one-row `taflbot_schema` table of PostgreSQL's own runner. Read
//! once, to adopt a database at the version they say; written after every migration, so an
//! instance of a build from before this runner still refuses a database newer than itself
//! (rather than running its old statements on a schema it does not know). Nothing reads them
//! once `schema_migrations` exists.

use super::runner::table_exists;
use crate::{Conn, Dialect, StoreError, params};

/// The version the previous runner recorded; 0 for a database it never migrated.
pub(super) fn version(conn: &Conn<'_>) -> Result<i64, StoreError> {
    match conn.dialect() {
        Dialect::Sqlite => conn.query_one("PRAGMA user_version", params![], |r| r.get(0)),
        Dialect::Postgres => {
            if !table_exists(conn, "taflbot_schema")? {
                return Ok(0);
            }
            conn.query_one(
                "SELECT COALESCE(MAX(version), 0) FROM taflbot_schema",
                params![],
                |r| r.get(0),
            )
        }
    }
}

/// Sets the previous runner's marker to `version`, in the open transaction.
pub(super) fn keep_in_step(conn: &Conn<'_>, version: i64) -> Result<(), StoreError> {
    // Neither statement takes parameters (a PRAGMA cannot); `version` is an integer.
    conn.batch(&match conn.dialect() {
        Dialect::Sqlite => format!("PRAGMA user_version = {version}"),
        Dialect::Postgres => format!(
            "CREATE TABLE IF NOT EXISTS taflbot_schema (version BIGINT NOT NULL); \
             DELETE FROM taflbot_schema; \
             INSERT INTO taflbot_schema (version) VALUES ({version})"
        ),
    })
}
