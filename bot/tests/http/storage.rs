//! The store out of reach: a locked database and a deleted file answer 503 with
//! `Retry-After`, never 500, and nothing is acknowledged that was not stored.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use taflbot::app::{AppOptions, RunningApp};

use crate::common::{TestApp, test_config};

/// Sends a move and expects the store's 503: code `unavailable`, `Retry-After: 1`.
async fn expect_store_unavailable(app: &TestApp, token: &str, game: i64, mv: &str) {
    let r = app
        .send(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(token),
            Some(json!({ "move": mv, "ply": 0 })),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.headers()["retry-after"], "1");
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unavailable", "{body}");
}

#[tokio::test]
async fn a_locked_database_answers_503_with_retry_after_then_recovers() {
    let app = TestApp::start_with(|c| c.database.busy_timeout_ms = 50).await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;

    // Another process holds the write lock.
    let other = rusqlite::Connection::open(&app.config.database.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    expect_store_unavailable(&app, &a.token, game, "d2-e2").await;
    other.execute_batch("COMMIT").unwrap();

    app.post(
        &format!("/games/{game}/moves"),
        &a.token,
        json!({ "move": "d2-e2", "ply": 0 }),
    )
    .await;
}

#[tokio::test]
async fn a_deleted_database_file_stops_writes_and_readiness() {
    let app = TestApp::start().await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;

    std::fs::remove_file(&app.config.database.path).unwrap();

    expect_store_unavailable(&app, &a.token, game, "d2-e2").await;
    let ready = app
        .call(
            Method::GET,
            "/health/ready",
            None,
            None,
            StatusCode::SERVICE_UNAVAILABLE,
        )
        .await;
    assert_eq!(ready["ready"], false, "{ready}");
    assert_eq!(ready["checks"]["database"]["ok"], false, "{ready}");
    // Still refused on the next try, and the game did not move.
    expect_store_unavailable(&app, &a.token, game, "d2-e2").await;
    assert_eq!(
        read_through_an_open_connection(&app, &a.token, game).await["ply"],
        0
    );
}

/// The game as the read connections already open still see it. A read that finds none free
/// opens a new one, which fails while the file is gone (503), so ask again, for a while.
async fn read_through_an_open_connection(app: &TestApp, token: &str, game: i64) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let r = app
            .send(Method::GET, &format!("/games/{game}"), Some(token), None)
            .await;
        if r.status() == StatusCode::OK {
            return r.json().await.unwrap();
        }
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            std::time::Instant::now() < deadline,
            "no open read connection answered GET /games/{game} within 10 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn an_sqlite_url_opens_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("from-url.db");
    let url = format!("sqlite://{}", file.display());
    let app = TestApp::start_with(|c| c.database.url = url).await;
    app.register("A").await;
    assert!(file.exists(), "the store is not at database.url");
    assert!(
        !app.config.database.path.exists(),
        "database.path was used despite the url"
    );
}

#[tokio::test]
async fn an_unreachable_postgres_url_fails_the_start_without_showing_its_password() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(&dir);
    // Port 1: nothing listens there.
    config.database.url = "postgres://bot:secret@127.0.0.1:1/taflbot".into();
    let err = RunningApp::start(config.clone(), AppOptions::default())
        .await
        .err()
        .expect("an unreachable database must not start the app");
    let message = err.to_string();
    assert!(message.contains("PostgreSQL"), "{message}");
    assert!(
        !message.contains("secret"),
        "the password was shown: {message}"
    );
    assert!(
        matches!(&err, taflbot::app::StartError::Store { source, .. } if source.is_unavailable()),
        "{err:?}"
    );
    assert!(!config.database.path.exists(), "a file was created instead");
}

/// Corrupt stored data (an AI level no seat holds) is an internal error: the client is told
/// "internal error" and the request's id, never the store's or the driver's words.
#[tokio::test]
async fn a_store_failure_tells_the_client_only_internal_error() {
    let app = TestApp::start().await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let other = rusqlite::Connection::open(&app.config.database.path).unwrap();
    other
        .execute(
            "UPDATE games SET attackers_player = NULL, attackers_ai_level = 300 WHERE id = ?1",
            [game],
        )
        .unwrap();

    let r = app
        .send(Method::GET, &format!("/games/{game}"), Some(&a.token), None)
        .await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let request_id = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "internal", "{body}");
    assert_eq!(body["error"]["message"], "internal error", "{body}");
    assert_eq!(body["error"]["request_id"], request_id.as_str(), "{body}");
    // Nothing else is said: the cause (SQL, the driver's words) stays in the log.
    let mut fields: Vec<&str> = body["error"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    fields.sort_unstable();
    assert_eq!(fields, ["code", "message", "request_id"], "{body}");

    // The web page of the game says the same, and no more.
    let page = reqwest::get(format!("{}/games/{game}", app.base))
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let page = page.text().await.unwrap();
    assert!(page.contains("internal error"), "{page}");
    for cause in ["out of range", "corrupt", "column"] {
        assert!(!page.contains(cause), "the cause ({cause}) leaked: {page}");
    }
}
