//! An instance that starts while another migrates waits for it, past its session's own lock
//! and statement deadlines, and migrates once the other is done (`migration_lock.rs`), on a
//! server the tests start (`test-support/src/pg_server.rs`).

use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use super::migration_lock::MIGRATION_LOCK;
use super::runner::run_logging_waits;
use super::tests::{every_version, recorded};
use super::*;
use crate::pg_test_server::database_url;
use crate::{PgTarget, PgTimeouts, Store, params, pg};

/// Deadlines far shorter than the other instance's hold below.
fn short_deadlines(url: &str) -> PgTarget {
    PgTarget {
        url: url.to_owned(),
        timeouts: PgTimeouts {
            connect: Duration::from_secs(5),
            statement: Duration::from_millis(300),
            lock: Duration::from_millis(200),
        },
    }
}

/// How long "another instance" holds the lock: several times both deadlines.
const HOLD: Duration = Duration::from_secs(1);

/// How long anything here may take before the test fails loudly.
const WAIT: Duration = Duration::from_secs(30);

/// Holds the migration lock as a migrating instance does, on a session of its own.
struct OtherInstance {
    session: pg::Session,
}

impl OtherInstance {
    fn migrating(url: &str) -> OtherInstance {
        let mut session = pg::Session::connect(url).unwrap();
        session
            .conn()
            .batch(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
            .unwrap();
        OtherInstance { session }
    }

    /// How many sessions wait for the migration lock on this database.
    fn waiting(&mut self) -> i64 {
        self.session
            .conn()
            .query_one(
                "SELECT COUNT(*) FROM pg_locks \
                 WHERE locktype = 'advisory' AND NOT granted \
                 AND classid = 0 AND CAST(objid AS BIGINT) = ?1 AND objsubid = 1 \
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                params![MIGRATION_LOCK],
                |r| r.get(0),
            )
            .unwrap()
    }

    /// Holds the lock past both deadlines of the waiting `start`, checks it still waits, and
    /// ends the migration.
    fn hold_then_release<T>(mut self, start: &ScopedJoinHandle<'_, T>) {
        wait_for(
            "the starting instance to wait for the migration lock",
            || self.waiting() == 1,
        );
        // The hold itself (the scenario), not a wait for something to happen.
        std::thread::sleep(HOLD);
        assert!(
            !start.is_finished(),
            "the starting instance stopped waiting while the lock was held"
        );
        assert_eq!(self.waiting(), 1, "still waiting when the migration ends");
        self.session
            .conn()
            .batch(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
            .unwrap();
    }
}

/// Asks `check` until it holds; past [`WAIT`] the test fails naming `what` it waited for.
fn wait_for(what: &str, mut check: impl FnMut() -> bool) {
    let give_up = Instant::now() + WAIT;
    while !check() {
        assert!(
            Instant::now() < give_up,
            "timed out after {WAIT:?} waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The answer of a thread that must end within [`WAIT`].
fn joined<T>(start: ScopedJoinHandle<'_, T>, what: &str) -> T {
    wait_for(what, || start.is_finished());
    start.join().unwrap()
}

/// The runner itself, saying every 50 ms that it waits: it tries again each time, and its
/// session has its own deadlines back afterwards (for the requests the writer then serves).
#[test]
fn the_runner_waits_for_another_instances_migration_past_its_lock_and_statement_deadlines() {
    let url = database_url();
    let target = short_deadlines(&url);
    let other = OtherInstance::migrating(&url);
    let (migrated, deadlines) = std::thread::scope(|scope| {
        let start = scope.spawn(|| {
            let mut session = pg::Session::connect_to(&target).unwrap();
            let migrated =
                run_logging_waits(&session.conn(), MIGRATIONS, Duration::from_millis(50));
            let deadlines: (String, String) = session
                .conn()
                .query_one(
                    "SELECT current_setting('lock_timeout'), current_setting('statement_timeout')",
                    params![],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            (migrated, deadlines)
        });
        other.hold_then_release(&start);
        joined(start, "the runner to migrate once the lock was released")
    });
    migrated.unwrap();
    assert_eq!(deadlines, ("200ms".to_owned(), "300ms".to_owned()));
    let mut session = pg::Session::connect(&url).unwrap();
    assert_eq!(recorded(&session.conn()), every_version());
}

/// As an instance starts: opening the store waits, then opens a migrated database.
#[test]
fn a_store_opened_while_another_instance_migrates_waits_and_then_opens() {
    let url = database_url();
    let other = OtherInstance::migrating(&url);
    let opened = std::thread::scope(|scope| {
        let start = scope.spawn(|| Store::open_postgres_with(short_deadlines(&url), 1, 8));
        other.hold_then_release(&start);
        joined(start, "the store to open once the lock was released")
    });
    let store = opened.unwrap();
    let versions = store
        .read_blocking(|c| Ok::<_, StoreError>(recorded(c)))
        .unwrap();
    assert_eq!(versions, every_version());
}
