//! The migration runner on PostgreSQL (a server the tests start, `test-support/src/pg_server.rs`),
//! and the check that both backends' migrations build the same schema.

use std::collections::BTreeMap;
use std::time::Duration;

use super::tests::{
    a_failing_migration_leaves_the_version_before_it, assert_old_data_kept, every_version,
    recorded, write_old_data,
};
use super::*;
use crate::pg_test_server::database_url;
use crate::{Dialect, MigrationError, SCHEMA_VERSION, Store, params, pg};

fn open(url: &str) -> Result<Store, StoreError> {
    Store::open_postgres(url, 1, 8)
}

/// Runs `f` on a session of its own, away from any async runtime (a session drives its
/// connection on a runtime of its own).
fn with_session<T: Send>(url: &str, f: impl FnOnce(&Conn<'_>) -> T + Send) -> T {
    pg::off_runtime(|| {
        let mut session = pg::Session::connect(url).unwrap();
        f(&session.conn())
    })
}

/// A database as PostgreSQL's previous runner left it at `version`: its texts up to it
/// applied, and the version in its one-row `taflbot_schema`.
fn database_of_the_previous_runner(c: &Conn<'_>, version: i64) {
    c.batch("CREATE TABLE taflbot_schema (version BIGINT NOT NULL)")
        .unwrap();
    for m in MIGRATIONS.iter().take_while(|m| m.version <= version) {
        match m.postgres {
            Postgres::Baseline(sql) | Postgres::Sql(sql) => c.batch(sql).unwrap(),
            Postgres::InBaseline | Postgres::Unchanged => {}
        }
    }
    c.batch(&format!(
        "INSERT INTO taflbot_schema (version) VALUES ({version})"
    ))
    .unwrap();
}

fn previous_marker(c: &Conn<'_>) -> i64 {
    c.query_one("SELECT version FROM taflbot_schema", params![], |r| {
        r.get(0)
    })
    .unwrap()
}

#[test]
fn a_new_database_records_every_version_once_and_keeps_the_previous_marker_in_step() {
    let url = database_url();
    drop(open(&url).unwrap());
    drop(open(&url).unwrap());
    let (versions, marker) = with_session(&url, |c| (recorded(c), previous_marker(c)));
    assert_eq!(versions, every_version());
    // For an instance of a build from before this runner, which reads only `taflbot_schema`.
    assert_eq!(marker, SCHEMA_VERSION);
}

/// Several instances starting at once on a new database: each waits for the one migrating,
/// then finds nothing to do.
#[test]
fn instances_starting_together_migrate_the_database_once() {
    let url = database_url();
    let opened: Vec<Result<Store, StoreError>> = std::thread::scope(|scope| {
        let starts: Vec<_> = (0..4).map(|_| scope.spawn(|| open(&url))).collect();
        starts.into_iter().map(|s| s.join().unwrap()).collect()
    });
    for store in opened {
        store.unwrap();
    }
    let versions = with_session(&url, recorded);
    assert_eq!(versions, every_version());
}

#[test]
fn a_database_from_a_newer_build_is_refused_untouched() {
    let url = database_url();
    drop(open(&url).unwrap());
    with_session(&url, |c| {
        c.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, 'future', 0)",
            params![SCHEMA_VERSION + 1],
        )
        .unwrap()
    });
    let err = open(&url).err().expect("a newer schema is refused");
    assert!(
        matches!(&err, StoreError::Migration(MigrationError::NewerThanBuild { found, latest })
            if *found == SCHEMA_VERSION + 1 && *latest == SCHEMA_VERSION),
        "{err:?}"
    );
}

/// A database whose only marker is the previous runner's: newer than this build, or part way
/// to the baseline (which no build made), it is refused and left without a version table.
#[test]
fn a_database_the_previous_runner_marked_newer_or_short_of_the_baseline_is_refused() {
    for (marker, baseline_error) in [(SCHEMA_VERSION + 1, false), (5, true)] {
        let url = database_url();
        with_session(&url, |c| {
            c.batch(&format!(
                "CREATE TABLE taflbot_schema (version BIGINT NOT NULL); \
                 INSERT INTO taflbot_schema (version) VALUES ({marker})"
            ))
            .unwrap()
        });
        let err = open(&url).err().expect("the database is refused");
        let StoreError::Migration(reason) = &err else {
            panic!("{err:?}")
        };
        match reason {
            MigrationError::BelowBaseline { found, baseline } => {
                assert!(baseline_error);
                assert_eq!((*found, *baseline), (5, 10));
            }
            MigrationError::NewerThanBuild { found, .. } => {
                assert!(!baseline_error);
                assert_eq!(*found, marker);
            }
            other => panic!("{other:?}"),
        }
        let table = with_session(&url, |c| {
            runner::table_exists(c, "schema_migrations").unwrap()
        });
        assert!(!table, "nothing was written (marker {marker})");
    }
}

/// A database PostgreSQL's previous runner migrated to 12 is adopted at 12 (the baseline does
/// not run again: it would fail, the tables being there) and brought to the latest, its data
/// kept.
#[test]
fn a_database_of_the_previous_runner_is_adopted_at_its_version_and_keeps_its_data() {
    let url = database_url();
    let old = with_session(&url, |c| {
        database_of_the_previous_runner(c, 12);
        write_old_data(c)
    });
    let store = open(&url).unwrap();
    store
        .read_blocking(|c| {
            assert_old_data_kept(c, &old);
            Ok::<_, StoreError>(())
        })
        .unwrap();
    drop(store);
    let (versions, adopted_together, marker) = with_session(&url, |c| {
        (
            recorded(c),
            c.query_one(
                "SELECT COUNT(DISTINCT applied_at) FROM schema_migrations WHERE version <= 12",
                params![],
                |r| r.get::<i64>(0),
            )
            .unwrap(),
            previous_marker(c),
        )
    });
    assert_eq!(versions, every_version());
    assert_eq!(adopted_together, 1);
    assert_eq!(marker, SCHEMA_VERSION);
}

#[test]
fn a_failing_migration_leaves_the_database_at_the_version_before_it() {
    with_session(
        &database_url(),
        a_failing_migration_leaves_the_version_before_it,
    );
}

/// A migration's statement runs past the session's statement deadline (meant for requests),
/// and the session has its deadline back afterwards.
#[test]
fn a_migration_runs_past_the_sessions_statement_deadline() {
    let url = database_url();
    let target = crate::PgTarget {
        url: url.clone(),
        timeouts: crate::PgTimeouts {
            statement: Duration::from_millis(200),
            ..crate::PgTimeouts::default()
        },
    };
    let slow = [Migration {
        version: 1,
        name: "slow",
        sqlite: "",
        postgres: Postgres::Sql("SELECT pg_sleep(0.6); CREATE TABLE slow (id BIGINT)"),
        then: None,
    }];
    let (migrated, deadline) = pg::off_runtime(|| {
        let mut session = pg::Session::connect_to(&target).unwrap();
        let migrated = run(&session.conn(), &slow);
        let deadline: String = session
            .conn()
            .query_one(
                "SELECT current_setting('statement_timeout')",
                params![],
                |r| r.get(0),
            )
            .unwrap();
        (migrated, deadline)
    });
    migrated.unwrap();
    assert_eq!(deadline, "200ms");
    assert_eq!(with_session(&url, recorded), [(1, "slow".to_owned())]);
}

/// One column as both backends describe it: its name, its type in SQLite's words (a
/// PostgreSQL type mapped to the one SQLite declares for it), and whether it takes NULL.
type Column = (String, String, bool);

/// The schema of a store: every table of ours (the version table too) with its columns, in
/// order of name.
async fn schema_of(store: &Store) -> BTreeMap<String, Vec<Column>> {
    store
        .read(|c| {
            let mut tables = BTreeMap::new();
            match c.dialect() {
                Dialect::Sqlite => {
                    let names: Vec<String> = c.query_all(
                        "SELECT name FROM sqlite_master WHERE type = 'table' \
                         AND name NOT LIKE 'sqlite_%' ORDER BY name",
                        params![],
                        |r| r.get(0),
                    )?;
                    for name in names {
                        let mut columns: Vec<Column> = c.query_all(
                            &format!(
                                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('{name}')"
                            ),
                            params![],
                            |r| {
                                let declared: String = r.get(1)?;
                                let (not_null, key): (i64, i64) = (r.get(2)?, r.get(3)?);
                                // A primary key never holds NULL here (PostgreSQL says so;
                                // SQLite's table_info does not for a rowid key).
                                let nullable = not_null == 0 && key == 0;
                                Ok((r.get(0)?, sqlite_type(&declared), nullable))
                            },
                        )?;
                        columns.sort();
                        tables.insert(name, columns);
                    }
                }
                Dialect::Postgres => {
                    // `taflbot_schema` is the previous runner's marker (`legacy.rs`): a
                    // PostgreSQL table only because SQLite's marker is in the file's header.
                    let rows: Vec<(String, String, String, String)> = c.query_all(
                        "SELECT table_name::TEXT, column_name::TEXT, data_type::TEXT, \
                         is_nullable::TEXT FROM information_schema.columns \
                         WHERE table_schema = 'public' AND table_name <> 'taflbot_schema'",
                        params![],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                    )?;
                    for (table, column, data_type, nullable) in rows {
                        tables.entry(table).or_insert_with(Vec::new).push((
                            column,
                            postgres_type(&data_type),
                            nullable == "YES",
                        ));
                    }
                    tables.values_mut().for_each(|columns| columns.sort());
                }
            }
            Ok::<_, StoreError>(tables)
        })
        .await
        .unwrap()
}

/// The declared types the SQLite schema uses; any other shows as itself, and differs.
fn sqlite_type(declared: &str) -> String {
    let upper = declared.to_ascii_uppercase();
    match upper.as_str() {
        "INTEGER" | "BOOLEAN" | "TEXT" | "REAL" | "BLOB" => upper,
        _ => format!("SQLite {declared}"),
    }
}

/// The SQLite type a PostgreSQL column's type is declared as there. Only `BIGINT` is an
/// integer: SQLite's integers have 64 bits, so a narrower PostgreSQL column would refuse
/// values SQLite keeps.
fn postgres_type(data_type: &str) -> String {
    match data_type {
        "bigint" => "INTEGER".to_owned(),
        "boolean" => "BOOLEAN".to_owned(),
        "text" => "TEXT".to_owned(),
        "double precision" => "REAL".to_owned(),
        "bytea" => "BLOB".to_owned(),
        other => format!("PostgreSQL {other}"),
    }
}

#[tokio::test]
async fn both_backends_migrate_to_the_same_tables_columns_and_types() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(&dir.path().join("t.db"), 1, Duration::from_secs(5), 8).unwrap();
    let postgres = open(&database_url()).unwrap();
    let (on_sqlite, on_postgres) = (schema_of(&sqlite).await, schema_of(&postgres).await);
    assert!(on_sqlite.contains_key("games"), "{on_sqlite:?}");
    assert!(on_sqlite.contains_key("schema_migrations"), "{on_sqlite:?}");
    let names = |s: &BTreeMap<String, Vec<Column>>| s.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&on_sqlite), names(&on_postgres), "the tables differ");
    let differ: Vec<String> = on_sqlite
        .iter()
        .filter(|(table, columns)| on_postgres.get(*table) != Some(*columns))
        .map(|(table, columns)| {
            format!(
                "{table}:\n  SQLite     {columns:?}\n  PostgreSQL {:?}",
                on_postgres.get(table)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "(column, type, nullable) differ between the backends:\n{}",
        differ.join("\n")
    );
    // Both record the same versions, under the same names.
    let versions = |store: &Store| {
        let store = store.clone();
        async move {
            store
                .read(|c| Ok::<_, StoreError>(recorded(c)))
                .await
                .unwrap()
        }
    };
    assert_eq!(versions(&sqlite).await, every_version());
    assert_eq!(versions(&postgres).await, every_version());
}
