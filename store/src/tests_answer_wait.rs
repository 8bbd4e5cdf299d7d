//! Every caller of the store is answered within its answer wait ([`super::ANSWER_WAIT`]),
//! whatever the database does: a PostgreSQL server that hangs (frozen with `SIGSTOP`), an
//! SQLite file another connection keeps locked far longer than the busy timeout allows.

use std::time::Duration;

use super::rows;
use super::tests::handle;
use super::*;
use crate::params;
use crate::pg_test_server::PrivateServer;

/// Well below the request deadline (10 s), above the answer wait (2 s).
const ANSWERED_WITHIN: Duration = Duration::from_secs(5);

/// How long anything else here may take before the test fails loudly.
const WAIT: Duration = Duration::from_secs(30);

fn players(c: &Conn<'_>) -> Result<i64, StoreError> {
    c.query_one("SELECT COUNT(*) FROM players", params![], |r| r.get(0))
}

/// `call`'s answer, which must come within [`ANSWERED_WITHIN`] and be "not now".
async fn refused_in_time<T: std::fmt::Debug>(
    what: &str,
    call: impl Future<Output = Result<T, StoreError>>,
) -> StoreError {
    let answer = tokio::time::timeout(ANSWERED_WITHIN, call)
        .await
        .unwrap_or_else(|_| panic!("{what} was not answered within {ANSWERED_WITHIN:?}"));
    match answer {
        Err(e @ StoreError::NoAnswer(_)) => {
            assert!(e.is_unavailable(), "{what}: {e}");
            e
        }
        other => panic!("{what} answered {other:?}, not that the database did not answer"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_postgres_server_answers_reads_and_writes_within_the_answer_wait() {
    let server = PrivateServer::start();
    let store = Store::open_postgres(&server.database_url(), 2, 64).unwrap();
    store
        .write(|c| rows::insert_player(c, "Ann", &handle("ann"), None, 0))
        .await
        .unwrap();

    let frozen = server.freeze();
    refused_in_time("a read", store.read(players)).await;
    refused_in_time(
        "a write",
        store.write(|c| rows::insert_player(c, "Bob", &handle("bob"), None, 0)),
    )
    .await;
    drop(frozen);

    // Once the server goes on, so does the store: neither the writer nor the readers were
    // left stuck.
    taflbot_test_support::eventually(WAIT, "a write after the server went on", || {
        let store = store.clone();
        async move {
            store
                .write(|c| rows::insert_player(c, "Cy", &handle("cy"), None, 0))
                .await
                .ok()
        }
    })
    .await;
    let count = taflbot_test_support::eventually(WAIT, "a read after the server went on", || {
        let store = store.clone();
        async move { store.read(players).await.ok() }
    })
    .await;
    // Ann, Cy, and Bob if the writer had started his job before his caller stopped waiting.
    assert!((2..=3).contains(&count), "{count} players");
}

/// On SQLite, a write waiting for a file another connection keeps locked (the busy timeout
/// far away) is answered within the answer wait; the writer had not started it, so it is not
/// made once the lock is gone.
#[tokio::test]
async fn a_write_the_writer_had_not_started_when_its_caller_stopped_waiting_is_never_made() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = Store::open(&path, 1, Duration::from_secs(60), 64).unwrap();
    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();

    refused_in_time(
        "a write on a locked file",
        store.write(|c| rows::insert_player(c, "Ann", &handle("ann"), None, 0)),
    )
    .await;
    lock.execute_batch("ROLLBACK").unwrap();

    let bob = tokio::time::timeout(
        WAIT,
        store.write(|c| rows::insert_player(c, "Bob", &handle("bob"), None, 0)),
    )
    .await
    .expect("a write once the lock is gone")
    .unwrap();
    let names: Vec<String> = store
        .read(|c| {
            c.query_all("SELECT name FROM players ORDER BY id", params![], |r| {
                r.get(0)
            })
        })
        .await
        .unwrap();
    assert_eq!(names, vec![bob.name]);
}
