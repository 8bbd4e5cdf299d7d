//! PostgreSQL's own deadlines on every connection (`database.lock_timeout_ms`,
//! `database.statement_timeout_ms`): a move waiting on a row lock another session holds is
//! answered 503 with `Retry-After` once the lock deadline passes, long before the request's
//! own deadline; readiness answers within a second meanwhile. A server that hangs altogether
//! (frozen) is answered for by the store's own answer wait. Run by `http_postgres` only (an
//! SQLite file's lock wait is `database.busy_timeout_ms`, tested in `stuck_database.rs`).

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;

/// A session of the test's own that holds game `game`'s row locked until dropped.
struct RowLock {
    client: tokio_postgres::Client,
}

impl RowLock {
    async fn take(app: &TestApp, game: i64) -> RowLock {
        let (client, connection) =
            tokio_postgres::connect(&app.config.database.url, tokio_postgres::NoTls)
                .await
                .unwrap();
        tokio::spawn(connection);
        client.batch_execute("BEGIN").await.unwrap();
        let locked = client
            .execute("SELECT id FROM games WHERE id = $1 FOR UPDATE", &[&game])
            .await
            .unwrap();
        assert_eq!(locked, 1, "game {game}'s row is locked");
        RowLock { client }
    }

    async fn release(self) {
        self.client.batch_execute("ROLLBACK").await.unwrap();
    }
}

#[tokio::test]
async fn a_move_waiting_on_a_locked_row_is_answered_503_once_the_lock_deadline_passes() {
    let app = TestApp::start_with(|c| {
        c.database.lock_timeout_ms = 300;
        // The request's own deadline is far: only PostgreSQL's lock deadline can answer.
        c.http.request_timeout_ms = 60_000;
    })
    .await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let lock = RowLock::take(&app, game).await;

    let started = Instant::now();
    let r = tokio::time::timeout(
        Duration::from_secs(5),
        app.send(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&a.token),
            Some(json!({ "move": "d2-e2", "ply": 0 })),
        ),
    )
    .await
    .expect("answered while the row is locked");
    let took = started.elapsed();
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["retry-after"], "1");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    assert!(
        !body.to_string().contains("lock"),
        "no database text reaches the client: {body}"
    );
    assert!(took < Duration::from_secs(3), "answered after {took:?}");

    // Readiness answers within a second while the row stays locked.
    let started = Instant::now();
    let ready = tokio::time::timeout(
        Duration::from_secs(5),
        app.send(Method::GET, "/health/ready", None, None),
    )
    .await
    .expect("readiness answered");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "readiness after {took:?}");
    assert!(
        [StatusCode::OK, StatusCode::SERVICE_UNAVAILABLE].contains(&ready.status()),
        "{}",
        ready.status()
    );

    // Once the lock is gone, the same move is played: the writer was not left stuck.
    lock.release().await;
    app.call(
        Method::POST,
        &format!("/games/{game}/moves"),
        Some(&a.token),
        Some(json!({ "move": "d2-e2", "ply": 0 })),
        StatusCode::OK,
    )
    .await;
}

#[tokio::test]
async fn every_connection_carries_the_configured_deadlines() {
    let app = TestApp::start_with(|c| {
        c.database.statement_timeout_ms = 4_321;
        c.database.lock_timeout_ms = 1_234;
    })
    .await;
    let store = app.service().store().clone();
    let (statement, lock) = tokio::task::spawn_blocking(move || {
        store.read_blocking(|c| {
            c.query_opt(
                "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')",
                taflbot::store::params![],
                |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)),
            )
        })
    })
    .await
    .unwrap()
    .unwrap()
    .unwrap();
    assert_eq!((statement.as_str(), lock.as_str()), ("4321ms", "1234ms"));
}

/// A server that hangs (every process of it stopped: connections open, nothing answered)
/// holds a read and a write for the store's answer wait (2 s), not the request's deadline:
/// both are answered 503 `unavailable` with `Retry-After`.
#[tokio::test]
async fn a_frozen_database_answers_reads_and_writes_503_within_the_answer_wait() {
    let server = crate::pg_server::PrivateServer::start();
    let url = server.database_url();
    let app = TestApp::start_with(|c| {
        c.database.url = url;
        // The request's own deadline is far: only the store's answer wait can answer.
        c.http.request_timeout_ms = 60_000;
    })
    .await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let read = (
        Method::GET,
        format!("/games/{game}"),
        Some(a.token.as_str()),
        None,
    );
    let write = (
        Method::POST,
        "/players".to_owned(),
        None,
        Some(json!({ "name": "Cy" })),
    );

    let frozen = server.freeze();
    for (method, path, token, body) in [read.clone(), write] {
        let what = format!("{method} {path} on a frozen database");
        let started = Instant::now();
        let r = tokio::time::timeout(Duration::from_secs(5), app.send(method, &path, token, body))
            .await
            .unwrap_or_else(|_| panic!("{what} was not answered within 5 s"));
        let took = started.elapsed();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE, "{what}");
        assert_eq!(r.headers()["retry-after"], "1", "{what}");
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unavailable", "{what}: {body}");
        assert!(
            took < Duration::from_secs(5),
            "{what}: answered after {took:?}"
        );
    }
    drop(frozen);

    // The server goes on, and so does the app.
    let (method, path, token, body) = read;
    let app = &app;
    taflbot_test_support::eventually(
        Duration::from_secs(30),
        "the game read again once the server went on",
        || {
            let (method, path, body) = (method.clone(), path.clone(), body.clone());
            async move {
                let r = app.send(method, &path, token, body).await;
                (r.status() == StatusCode::OK).then_some(())
            }
        },
    )
    .await;
}
