//! Public games: anyone may read them without a token (view, board, record, event stream),
//! from any web page (CORS); private ones are "not found" to everyone but their players.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Player, TestApp};
use crate::events::EventLines;

async fn anonymous(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .header("origin", "https://spectators.example")
        .send()
        .await
        .unwrap()
}

async fn private_game(app: &TestApp) -> (Player, Player, i64) {
    let a = app.register("A").await;
    let b = app.register("B").await;
    let id = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "variant": "brandubh", "side": "attackers", "private": true }),
        )
        .await;
    let game = app
        .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
        .await;
    assert_eq!(game["private"], true);
    (a, b, game["id"].as_i64().unwrap())
}

#[tokio::test]
async fn anyone_reads_a_public_game_without_a_token_from_any_page() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("tablut").await;
    app.play_line(game, &a, &b, &["d1-a1"]).await;
    let handle = app.get("/me", &a.token).await["handle"].clone();
    for path in [
        format!("/games/{game}"),
        format!("/games/{game}/board.png"),
        format!("/games/{game}/export"),
        format!("/games/{game}/legal-moves"),
        format!("/players/{}", handle.as_str().unwrap()),
        "/leaderboards/brandubh".to_owned(),
    ] {
        let r = anonymous(&app, &path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert_eq!(r.headers()["access-control-allow-origin"], "*", "{path}");
        assert!(
            r.headers()
                .get("access-control-allow-credentials")
                .is_none(),
            "{path}"
        );
    }
    let view: serde_json::Value = anonymous(&app, &format!("/games/{game}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(view["ply"], 1);
    assert!(view["your_side"].is_null());
    // Playing still needs a token, and a page elsewhere cannot send one.
    let r = app
        .client
        .post(app.url(&format!("/games/{game}/moves")))
        .json(&json!({ "move": "d7-d6", "ply": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let preflight = app
        .client
        .request(Method::OPTIONS, app.url(&format!("/games/{game}")))
        .header("origin", "https://spectators.example")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "authorization")
        .send()
        .await
        .unwrap();
    let allowed = preflight
        .headers()
        .get("access-control-allow-headers")
        .map(|v| v.to_str().unwrap().to_ascii_lowercase())
        .unwrap_or_default();
    assert!(!allowed.contains("authorization"), "{allowed}");
    // A bad token is still refused, not taken for nobody.
    app.call(
        Method::GET,
        &format!("/games/{game}"),
        Some("tfl_not-a-token"),
        None,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn a_private_game_is_not_found_by_anyone_but_its_players() {
    let app = TestApp::start().await;
    let (a, _b, game) = private_game(&app).await;
    let c = app.register("C").await;
    let not_found = format!("game {game} not found");
    for path in [
        format!("/games/{game}"),
        format!("/games/{game}/board.png?ply=0"),
        format!("/games/{game}/export"),
        format!("/games/{game}/legal-moves"),
        format!("/games/{game}/stream"),
    ] {
        let r = anonymous(&app, &path).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{path}");
        let body: serde_json::Value = r.json().await.unwrap();
        assert_eq!(body["error"]["message"], not_found, "{path}");
        let theirs = app
            .call(
                Method::GET,
                &path,
                Some(&c.token),
                None,
                StatusCode::NOT_FOUND,
            )
            .await;
        assert_eq!(theirs["error"]["message"], not_found, "{path}");
    }
    // Its players see it, the board image too (also once it is cached as settled).
    assert_eq!(
        app.get(&format!("/games/{game}"), &a.token).await["id"],
        game
    );
    for _ in 0..2 {
        let r = app
            .client
            .get(app.url(&format!("/games/{game}/board.png?ply=0")))
            .bearer_auth(&a.token)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(
            anonymous(&app, &format!("/games/{game}/board.png?ply=0"))
                .await
                .status(),
            StatusCode::NOT_FOUND
        );
    }
    // A player's page lists the private game to its player only.
    let page = format!(
        "/players/{}",
        app.get("/me", &a.token).await["handle"].as_str().unwrap()
    );
    let public = app
        .call(Method::GET, &page, None, None, StatusCode::OK)
        .await;
    assert_eq!(public["current_games"], json!([]));
    let own = app.get(&page, &a.token).await;
    assert_eq!(own["current_games"][0]["id"], game);
}

#[tokio::test]
async fn a_spectator_follows_a_game_stream_and_resumes_it_with_since() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("tablut").await;
    let (_, _, other) = {
        let c = app.register("C").await;
        let d = app.register("D").await;
        let other = app
            .start_game(&c, &d, "tablut", json!({ "kind": "unlimited" }))
            .await;
        app.play_line(other, &c, &d, &["d1-a1"]).await;
        (c, d, other)
    };
    app.play_line(game, &a, &b, &["d1-a1", "d5-d1"]).await;

    let r = anonymous(&app, &format!("/games/{game}/stream")).await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    // game_started and two moves: this game's only, not the other one's.
    let first = EventLines::new(r).events(3).await;
    let events: Vec<&serde_json::Value> = first.iter().filter(|l| l["id"].is_i64()).collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["game_started", "move_played", "move_played"]);
    assert!(events.iter().all(|e| e["game_id"] == game), "{events:?}");
    assert_ne!(other, game);
    let second = events[1]["id"].as_i64().unwrap();
    let third = events[2]["id"].as_i64().unwrap();

    // Resumed after the second: the third, then the next move live, then its end.
    let r = anonymous(&app, &format!("/games/{game}/stream?since={second}")).await;
    let mut stream = EventLines::new(r);
    let replayed = stream.events(1).await;
    assert_eq!(
        replayed.iter().rfind(|l| l["id"].is_i64()).unwrap()["id"],
        third
    );
    app.play_line(game, &a, &b, &["a1-b1"]).await;
    let live = stream.events(1).await;
    let event = live.iter().rfind(|l| l["id"].is_i64()).unwrap();
    assert_eq!(event["kind"], "move_played");
    assert_eq!(event["data"]["move"], "a1-b1");
    app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
        .await;
    let ended = stream.events(1).await;
    let event = ended.iter().rfind(|l| l["id"].is_i64()).unwrap();
    assert_eq!(event["kind"], "game_ended");
    assert_eq!(event["data"]["reason"], "resignation");
}

#[tokio::test]
async fn readers_without_a_token_are_limited_per_address() {
    let app = TestApp::start_with(|c| {
        c.http.anonymous_per_second = 0.001;
        c.http.anonymous_burst = 2;
    })
    .await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let path = format!("/games/{game}");
    for _ in 0..2 {
        assert_eq!(anonymous(&app, &path).await.status(), StatusCode::OK);
    }
    let refused = anonymous(&app, &path).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    let body: serde_json::Value = refused.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("too many requests without a token from your address"),
        "{body}"
    );
    // Without a trusted proxy, naming another address does not get a new allowance.
    let spoofed = app
        .client
        .get(app.url(&path))
        .header("x-forwarded-for", "203.0.113.9")
        .send()
        .await
        .unwrap();
    assert_eq!(spoofed.status(), StatusCode::TOO_MANY_REQUESTS);
    // With a token, the token's own limit counts.
    app.get(&path, &a.token).await;
}

/// Behind a reverse proxy every connection comes from the proxy: the limit counts the client
/// address it reports, so one busy client does not lock everyone else out.
#[tokio::test]
async fn behind_a_trusted_proxy_readers_are_limited_per_forwarded_address() {
    let app = TestApp::start_with(|c| {
        c.http.anonymous_per_second = 0.001;
        c.http.anonymous_burst = 2;
        c.http.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let (_a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let path = format!("/games/{game}");
    let from = |client: &'static str| {
        app.client
            .get(app.url(&path))
            .header("x-forwarded-for", client)
            .send()
    };
    for _ in 0..2 {
        assert_eq!(from("203.0.113.1").await.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(
        from("203.0.113.1").await.unwrap().status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // The proxy appends the address it was reached from to what the client sent.
    assert_eq!(
        from("203.0.113.9, 203.0.113.1").await.unwrap().status(),
        StatusCode::TOO_MANY_REQUESTS,
        "what the client wrote itself is not believed"
    );
    assert_eq!(from("203.0.113.2").await.unwrap().status(), StatusCode::OK);
}
