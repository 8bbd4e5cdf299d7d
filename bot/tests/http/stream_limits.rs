//! Event streams are capped per player and in total; a closed stream frees its place.

use std::time::Duration;
use taflbot_test_support::eventually;

use reqwest::{Method, StatusCode};

use crate::common::TestApp;

#[tokio::test]
async fn a_player_may_hold_only_so_many_streams_and_a_closed_one_frees_its_place() {
    let app = TestApp::start_with(|c| {
        c.http.max_streams_per_player = 2;
        c.http.max_streams = 3;
    })
    .await;
    let (a, b) = (app.register("A").await, app.register("B").await);
    let open = |token: String| {
        let app = &app;
        async move {
            app.send(Method::GET, "/stream/events", Some(&token), None)
                .await
        }
    };
    let first = open(a.token.clone()).await;
    let _second = open(a.token.clone()).await;
    assert_eq!(first.status(), StatusCode::OK);

    let refused = open(a.token.clone()).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    let body: serde_json::Value = refused.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("2 event streams"),
        "{body}"
    );

    // The server's own cap: B gets the third place, then nobody gets a fourth.
    let _b1 = open(b.token.clone()).await;
    let full = open(b.token.clone()).await;
    assert_eq!(full.status(), StatusCode::TOO_MANY_REQUESTS);

    // Closing a stream frees its place once the server sees it closed.
    drop(first);
    eventually(
        Duration::from_secs(10),
        "the closed stream's place to be freed",
        || async { (open(a.token.clone()).await.status() == StatusCode::OK).then_some(()) },
    )
    .await;
}
