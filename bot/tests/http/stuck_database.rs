//! A stuck database hangs no request: a request still waiting for it after
//! `http.request_timeout_ms` is answered 503 with `Retry-After`, and `/health/ready` answers
//! within a second whatever the database does. Stuck here: another connection holds SQLite's
//! write lock, and the store waits for it (`database.busy_timeout_ms`) far longer than that.

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;

/// Holds the database's write lock until dropped.
struct WriteLock(rusqlite::Connection);

impl WriteLock {
    fn take(app: &TestApp) -> WriteLock {
        let conn = rusqlite::Connection::open(&app.config.database.path).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        WriteLock(conn)
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        let _ = self.0.execute_batch("ROLLBACK");
    }
}

async fn stuck_app() -> TestApp {
    TestApp::start_with(|c| {
        c.database.busy_timeout_ms = 60_000;
        // Short, but not so short that setting the game up (players, a challenge) misses it
        // while the suite runs many tests at once; under the store's own answer wait (2 s).
        c.http.request_timeout_ms = 1_500;
    })
    .await
}

#[tokio::test]
async fn a_move_waiting_on_a_stuck_database_is_answered_503_with_retry_after() {
    let app = stuck_app().await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let lock = WriteLock::take(&app);

    let started = Instant::now();
    let r = tokio::time::timeout(
        Duration::from_secs(5),
        app.send(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&a.token),
            Some(json!({ "move": "d2-e2", "ply": 0, })),
        ),
    )
    .await
    .expect("answered while the database is stuck");
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["retry-after"], "1");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "answered after {:?}",
        started.elapsed()
    );
    drop(lock);
}

#[tokio::test]
async fn readiness_answers_within_a_second_while_the_database_is_stuck() {
    let app = stuck_app().await;
    let lock = WriteLock::take(&app);

    let started = Instant::now();
    let ready = tokio::time::timeout(
        Duration::from_secs(5),
        app.call(
            Method::GET,
            "/health/ready",
            None,
            None,
            StatusCode::SERVICE_UNAVAILABLE,
        ),
    )
    .await
    .expect("readiness answered while the database is stuck");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "answered after {took:?}");
    assert_eq!(ready["checks"]["database"]["ok"], false, "{ready}");
    drop(lock);
}
