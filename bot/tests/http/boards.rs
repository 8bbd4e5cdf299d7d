use reqwest::{Method, StatusCode};
use serde_json::json;

use taflbot::domain::GameId;
use taflbot::service::render_board;

use crate::common::TestApp;

#[tokio::test]
async fn board_images_are_immutable_per_ply_with_etags() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
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

/// A weak king on c5 beside an attacker on b5: d7-d5 takes him.
const KING_TRAP: &str = "dim:7 ks:w start:/7/7/7/7/1tK4/7/3t3/";

/// Two players in a game of `rules`, `a` with the attackers.
async fn custom_game(
    app: &TestApp,
    rules: &str,
) -> (i64, crate::common::Player, crate::common::Player) {
    let a = app.register("A").await;
    let b = app.register("B").await;
    let id = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "rules": rules, "side": "attackers" }),
        )
        .await;
    let game = app
        .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
        .await;
    (game["id"].as_i64().unwrap(), a, b)
}

#[tokio::test]
async fn the_board_of_a_finished_game_shows_its_result() {
    let app = TestApp::start().await;
    let (game, a, _b) = custom_game(&app, KING_TRAP).await;
    let before = app
        .service()
        .games()
        .board_snapshot(GameId(game), None)
        .await
        .unwrap();
    assert!(before.result.is_none());
    assert!(
        !before.settled,
        "the current ply of an active game may change"
    );

    let played = app
        .post(
            &format!("/games/{game}/moves"),
            &a.token,
            json!({ "move": "d7-d5", "ply": 0 }),
        )
        .await;
    assert_eq!(played["result"]["reason"], "king_captured");

    let snapshot = app
        .service()
        .games()
        .board_snapshot(GameId(game), None)
        .await
        .unwrap();
    let result = snapshot
        .result
        .clone()
        .expect("the last ply carries the result");
    assert_eq!(result.winner, Some(tafl_engine::Side::Attackers));
    assert_eq!(result.reason.as_str(), "king_captured");
    assert_eq!(result.badge(), "Attackers win");
    assert_eq!(snapshot.king_captured, Some(tafl_engine::Square::new(2, 4)));
    assert_eq!(snapshot.to_move, None);
    assert!(snapshot.settled);
    // The earlier ply is drawn as it was.
    let start = app
        .service()
        .games()
        .board_snapshot(GameId(game), Some(0))
        .await
        .unwrap();
    assert!(start.result.is_none() && start.king_captured.is_none());

    // The same position without the result is another picture, and the API serves the one
    // with it.
    let with_result = render_board(&snapshot, false, "light").await.unwrap();
    let mut bare = snapshot.clone();
    bare.result = None;
    bare.king_captured = None;
    let without = render_board(&bare, false, "light").await.unwrap();
    assert_ne!(with_result, without);
    let served = app
        .client
        .get(app.url(&format!("/games/{game}/board.png?ply=1")))
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap();
    assert!(
        served.headers()["etag"]
            .to_str()
            .unwrap()
            .ends_with("-over\"")
    );
    assert!(
        served.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    assert_eq!(served.bytes().await.unwrap(), with_result);
}

#[tokio::test]
async fn a_resignation_redraws_the_last_board_with_the_result() {
    let app = TestApp::start().await;
    let (game, a, b) = custom_game(&app, KING_TRAP).await;
    app.play_line(game, &a, &b, &["b5-b6"]).await;
    let get = || {
        app.client
            .get(app.url(&format!("/games/{game}/board.png?ply=1")))
            .bearer_auth(&a.token)
            .send()
    };
    let live = get().await.unwrap();
    assert_eq!(live.headers()["cache-control"], "no-cache");
    let live_etag = live.headers()["etag"].to_str().unwrap().to_owned();
    let live_png = live.bytes().await.unwrap();

    app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
        .await;
    let snapshot = app
        .service()
        .games()
        .board_snapshot(GameId(game), None)
        .await
        .unwrap();
    let result = snapshot
        .result
        .clone()
        .expect("a resigned game's board shows it");
    assert_eq!(result.winner, Some(tafl_engine::Side::Attackers));
    assert_eq!(result.reason.as_str(), "resignation");
    assert_eq!(snapshot.king_captured, None);

    let over = get().await.unwrap();
    assert_eq!(over.status(), StatusCode::OK);
    let over_etag = over.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(
        over_etag, live_etag,
        "a client revalidating gets the new picture"
    );
    assert_ne!(over.bytes().await.unwrap(), live_png);
}
