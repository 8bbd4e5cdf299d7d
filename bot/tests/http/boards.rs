use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn board_images_are_immutable_per_ply_with_etags() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app
        .start_game(&a, &b, "brandubh", json!({ "kind": "unlimited" }))
        .await;
    app.play_line(game, &a, &b, &["d1-b1", "d3-a3"]).await;

    let get = |query: &str, etag: Option<&str>| {
        let mut req = app
            .client
            .get(app.url(&format!("/games/{game}/board.png{query}")))
            .bearer_auth(&a.token);
        if let Some(e) = etag {
            req = req.header("if-none-match", e);
        }
        req.send()
    };
    let first = get("?ply=1", None).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(first.headers()["content-type"], "image/png");
    assert!(
        first.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let png = first.bytes().await.unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    // Revalidation: 304 without a body.
    let again = get("?ply=1", Some(&etag)).await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    // From the cache: the same bytes.
    let cached = get("?ply=1", None).await.unwrap().bytes().await.unwrap();
    assert_eq!(cached, png);
    // Other plies, orientations and themes are other images.
    let current = get("", None).await.unwrap();
    assert_ne!(current.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(current.headers()["cache-control"], "no-cache");
    let flipped = get("?ply=1&flip=true&theme=dark", None).await.unwrap();
    assert_eq!(flipped.status(), StatusCode::OK);
    assert_ne!(flipped.bytes().await.unwrap(), png);

    let e = app
        .call(
            Method::GET,
            &format!("/games/{game}/board.png?ply=3"),
            Some(&a.token),
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only 2 moves")
    );
    app.call(
        Method::GET,
        &format!("/games/{game}/board.png?theme=neon"),
        Some(&a.token),
        None,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    app.call(
        Method::GET,
        &format!("/games/{game}/board.png?ply=-1"),
        Some(&a.token),
        None,
        StatusCode::BAD_REQUEST,
    )
    .await;
}
