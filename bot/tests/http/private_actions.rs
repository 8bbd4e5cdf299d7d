//! A private game is not found by anyone but its players, whatever they try: acting in it
//! (a move, resigning, aborting, draw offers) answers 404 as reading it does, so no answer
//! tells that it exists. A public game is there for all to see: acting in it is 403.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp};

async fn game_of_a_and_b(app: &TestApp, a: &Player, b: &Player, private: bool) -> i64 {
    let challenge = app
        .challenge(
            a,
            json!({ "opponent_id": b.id, "variant": "brandubh", "side": "attackers",
                    "clock": { "kind": "unlimited" }, "private": private }),
        )
        .await;
    app.post(
        &format!("/challenges/{challenge}/accept"),
        &b.token,
        json!({}),
    )
    .await["id"]
        .as_i64()
        .unwrap()
}

/// Every action a player may take in a game, as (path under the game, body).
fn actions() -> Vec<(&'static str, Value)> {
    vec![
        ("moves", json!({ "move": "d2-e2", "ply": 0 })),
        ("resign", json!({})),
        ("abort", json!({})),
        ("draw/offer", json!({})),
        ("draw/accept", json!({})),
        ("draw/decline", json!({})),
    ]
}

#[tokio::test]
async fn a_stranger_acting_in_a_private_game_finds_no_game() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let stranger = app.register("C").await;
    let private = game_of_a_and_b(&app, &a, &b, true).await;
    let public = game_of_a_and_b(&app, &a, &b, false).await;

    for (action, body) in actions() {
        let answer = app
            .call(
                Method::POST,
                &format!("/games/{private}/{action}"),
                Some(&stranger.token),
                Some(body.clone()),
                StatusCode::NOT_FOUND,
            )
            .await;
        assert_eq!(
            answer["error"]["message"],
            format!("game {private} not found"),
            "{action}: the same words as for a game that does not exist"
        );
        app.call(
            Method::POST,
            &format!("/games/{public}/{action}"),
            Some(&stranger.token),
            Some(body),
            StatusCode::FORBIDDEN,
        )
        .await;
    }
    // Untouched: its players still play it.
    app.post(
        &format!("/games/{private}/moves"),
        &a.token,
        json!({ "move": "d2-e2", "ply": 0 }),
    )
    .await;
}
