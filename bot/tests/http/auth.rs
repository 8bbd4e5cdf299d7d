use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn every_auth_failure_has_its_own_status_and_code() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let c = app.register("C").await;
    let game = app
        .start_game(&a, &b, "tablut", json!({ "kind": "unlimited" }))
        .await;
    let path = format!("/games/{game}/moves");
    let body = json!({ "move": "d1-a1", "ply": 0 });

    // No token.
    let e = app
        .call(
            Method::POST,
            &path,
            None,
            Some(body.clone()),
            StatusCode::UNAUTHORIZED,
        )
        .await;
    assert_eq!(e["error"]["code"], "missing_token");
    // Not a bearer header.
    let r = app
        .client
        .post(app.url(&path))
        .header("Authorization", "Basic abc")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["error"]["code"],
        "bad_authorization"
    );
    // Wrong token.
    let e = app
        .call(
            Method::POST,
            &path,
            Some("tfl_not_a_token"),
            Some(body.clone()),
            StatusCode::UNAUTHORIZED,
        )
        .await;
    assert_eq!(e["error"]["code"], "invalid_token");
    // Not your game.
    let e = app
        .call(
            Method::POST,
            &path,
            Some(&c.token),
            Some(body.clone()),
            StatusCode::FORBIDDEN,
        )
        .await;
    assert_eq!(e["error"]["code"], "forbidden");
    app.call(
        Method::POST,
        &format!("/games/{game}/resign"),
        Some(&c.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;
    // Not your turn (attackers move first).
    let e = app
        .call(
            Method::POST,
            &path,
            Some(&b.token),
            Some(json!({ "move": "e3-a3", "ply": 0 })),
            StatusCode::FORBIDDEN,
        )
        .await;
    assert_eq!(e["error"]["code"], "not_your_turn");
    // Public endpoints need no token.
    app.call(Method::GET, "/variants", None, None, StatusCode::OK)
        .await;
    app.call(Method::GET, "/games", None, None, StatusCode::UNAUTHORIZED)
        .await;
}

#[tokio::test]
async fn a_token_over_its_rate_gets_429_with_retry_after() {
    let app = TestApp::start_with(|c| {
        c.http.rate_limit_per_second = 0.5;
        c.http.rate_limit_burst = 3;
    })
    .await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    for _ in 0..3 {
        app.call(Method::GET, "/me", Some(&a.token), None, StatusCode::OK)
            .await;
    }
    let r = app.send(Method::GET, "/me", Some(&a.token), None).await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["error"]["code"],
        "rate_limited"
    );
    // Another token is not affected.
    app.call(Method::GET, "/me", Some(&b.token), None, StatusCode::OK)
        .await;
}

#[tokio::test]
async fn too_many_registrations_from_one_address_get_429_with_retry_after() {
    // The per-address buckets themselves: `http::rate_limit` unit tests (a test only ever
    // comes from 127.0.0.1).
    let app = TestApp::start_with(|c| {
        c.http.registration_per_minute = 1.0;
        c.http.registration_burst = 2;
        // Tokens have their own, separate, limit.
        c.http.rate_limit_per_second = 10_000.0;
    })
    .await;
    let a = app.register("A").await;
    app.register("B").await;
    let r = app
        .send(Method::POST, "/players", None, Some(json!({ "name": "C" })))
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(
        r.json::<serde_json::Value>().await.unwrap()["error"]["code"],
        "rate_limited"
    );
    // Registered players are not slowed by it.
    app.call(Method::GET, "/me", Some(&a.token), None, StatusCode::OK)
        .await;
}

#[tokio::test]
async fn bad_requests_get_json_errors_never_a_500() {
    let app = TestApp::start_with(|c| c.http.body_limit_bytes = 1024).await;
    let a = app.register("A").await;
    let cases: Vec<(Method, &str, Option<&str>, StatusCode, &str)> = vec![
        (
            Method::POST,
            "/challenges",
            Some("{not json"),
            StatusCode::BAD_REQUEST,
            "malformed_json",
        ),
        (
            Method::POST,
            "/challenges",
            Some("{\"side\": \"sideways\"}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
        ),
        (
            Method::POST,
            "/challenges",
            Some("{\"clock\": {\"kind\": \"sometimes\"}}"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
        ),
        (
            Method::GET,
            "/games/abc",
            None,
            StatusCode::BAD_REQUEST,
            "bad_path",
        ),
        (
            Method::GET,
            "/games/99999",
            None,
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            Method::GET,
            "/games/1/legal-moves?from=zz99",
            None,
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            Method::GET,
            "/nowhere",
            None,
            StatusCode::NOT_FOUND,
            "no_route",
        ),
        (
            Method::DELETE,
            "/games",
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
        ),
    ];
    for (method, path, body, status, code) in cases {
        let r = app
            .send_raw(method.clone(), path, Some(&a.token), body)
            .await;
        let got = r.status();
        let v: serde_json::Value = r.json().await.unwrap();
        assert_eq!(got, status, "{method} {path}: {v}");
        assert_eq!(v["error"]["code"], code, "{method} {path}: {v}");
    }
    // Too large a body.
    let big = format!("{{\"name\": \"{}\"}}", "x".repeat(4096));
    let r = app
        .client
        .post(app.url("/players"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn registration_can_be_turned_off_and_tokens_can_be_issued_to_discord_users() {
    let app = TestApp::start_with(|c| c.http.allow_registration = false).await;
    let e = app
        .call(
            Method::POST,
            "/players",
            None,
            Some(json!({ "name": "X" })),
            StatusCode::FORBIDDEN,
        )
        .await;
    assert_eq!(e["error"]["code"], "registration_closed");
    let service = app.service();
    let player = service
        .accounts()
        .player_for_discord_user(4242, "dee", "Dee")
        .await
        .unwrap();
    let same = service
        .accounts()
        .player_for_discord_user(4242, "dee", "Dee renamed")
        .await
        .unwrap();
    assert_eq!(player.id, same.id);
    let issued = service
        .accounts()
        .issue_api_token(player.id, "discord /token")
        .await
        .unwrap();
    let me = app
        .call(
            Method::GET,
            "/me",
            Some(&issued.token),
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(me["id"], player.id.get());
    assert_eq!(me["name"], "Dee renamed");
    assert_eq!(me["discord_user_id"], 4242);
}
