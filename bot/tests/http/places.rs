//! Where games are shown: a client's context is a label, never a Discord channel; the health
//! endpoint says whether Discord is in use.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn a_challenge_cannot_bind_a_game_to_a_discord_channel() {
    let app = TestApp::start().await;
    let alice = app.register("alice").await;
    let bob = app.register("bob").await;
    let discord_places = [
        json!({ "ai_level": 1, "variant": "brandubh", "context": "discord:channel:123456789012345678" }),
        json!({ "opponent_id": bob.id, "variant": "brandubh", "context": "Discord:channel:42" }),
    ];
    for body in discord_places {
        let refused = app
            .call(
                Method::POST,
                "/challenges",
                Some(&alice.token),
                Some(body.clone()),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("Discord") && message.contains("/challenge"),
            "says why: {refused}"
        );
    }
    // Nothing was started or left pending.
    assert_eq!(app.get("/games", &alice.token).await, json!([]));
    let challenges = app.get("/challenges", &bob.token).await;
    assert_eq!(challenges["incoming"], json!([]), "{challenges}");

    // A label of the client's own is kept and shown back.
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&alice.token),
            Some(json!({ "ai_level": 1, "variant": "brandubh", "context": "table 3" })),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["game"]["context"], "table 3", "{created}");
}

#[tokio::test]
async fn health_says_discord_is_off_without_a_token() {
    let app = TestApp::start().await;
    let health = app
        .call(Method::GET, "/health", None, None, StatusCode::OK)
        .await;
    assert_eq!(
        health,
        json!({ "status": "ok", "discord": { "state": "off" }, "shards": [] })
    );
}
