//! A failure of the server's own tells clients "internal error" and the request's id, never
//! its cause (a driver's words, a query, a stored value): the cause is in the log, on the line
//! the request id names. Input the database cannot hold is refused as input.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot::store::params;

use crate::common::TestApp;

/// A stored move the engine cannot read: every replay of the game fails, inside the server.
async fn corrupt_a_stored_move(app: &TestApp, game: i64) {
    app.service()
        .store()
        .write(move |c| {
            c.execute(
                "UPDATE moves SET mv = 'zz99-zz98' WHERE game_id = ?1",
                params![game],
            )
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn an_internal_error_says_only_internal_error_with_the_request_id() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    app.play_line(game, &a, &b, &["d2-e2"]).await;
    corrupt_a_stored_move(&app, game).await;
    // A new process: the game is no longer cached and is replayed from its stored moves.
    let app = app.restart().await;

    let r = app
        .send(Method::GET, &format!("/games/{game}"), Some(&a.token), None)
        .await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let id = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    let text = r.text().await.unwrap();
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["error"]["code"], "internal", "{text}");
    assert_eq!(body["error"]["message"], "internal error", "{text}");
    assert_eq!(body["error"]["request_id"], id.as_str(), "{text}");
    for cause in ["stored move", "zz99", "ply", "SELECT", "moves"] {
        assert!(!text.contains(cause), "the cause leaks: {text}");
    }

    // The web client's page for the same game: the same words, and the request id to quote.
    let r = reqwest::get(format!("{}/games/{game}", app.base))
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let id = r.headers()["x-request-id"].to_str().unwrap().to_owned();
    let page = r.text().await.unwrap();
    assert!(page.contains("internal error"), "{page}");
    assert!(
        page.contains(&format!("request id {id}")),
        "the page names its request: {page}"
    );
    for cause in ["stored move", "zz99", "SELECT"] {
        assert!(!page.contains(cause), "the cause leaks: {page}");
    }
}

#[tokio::test]
async fn a_nul_in_a_text_field_is_refused_as_input_not_failed_as_a_write() {
    let app = TestApp::start_with(|c| c.webhooks.allow_private = vec!["127.0.0.1".into()]).await;
    let a = app.register("A").await;
    let answer = app
        .call(
            Method::POST,
            "/webhooks",
            Some(&a.token),
            Some(json!({ "url": "http://127.0.0.1:9/hook", "secret": "abc\u{0}defghij" })),
            StatusCode::BAD_REQUEST,
        )
        .await;
    // Refused where the body is read (every text field alike: `nul_text.rs`).
    assert_eq!(answer["error"]["code"], "nul_character", "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("secret must not contain the NUL character"),
        "{answer}"
    );
}
