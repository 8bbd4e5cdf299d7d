//! `games.min_move_clock_secs` holds for every clock kind a challenge takes: a bank clock
//! whose bank, or whose increment, is shorter is refused in words, as a per-move one is.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn a_bank_clock_shorter_than_the_minimum_is_refused() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let challenge = |clock: serde_json::Value, status: StatusCode| {
        app.call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({
                "opponent_id": b.id, "variant": "brandubh", "side": "attackers", "clock": clock,
            })),
            status,
        )
    };
    let small_bank = challenge(
        json!({ "kind": "bank", "bank_seconds": 600, "increment_seconds": 3600 }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let said = small_bank["error"]["message"].as_str().unwrap();
    assert!(said.contains("a bank of 10 minutes is too short"), "{said}");
    let small_increment = challenge(
        json!({ "kind": "bank", "bank_seconds": 604_800, "increment_seconds": 30 }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let said = small_increment["error"]["message"].as_str().unwrap();
    assert!(
        said.contains("an increment of 30 seconds is too short"),
        "{said}"
    );
    // A week's bank with a day per move, or a fixed week for the game: correspondence.
    challenge(
        json!({ "kind": "bank", "bank_seconds": 604_800, "increment_seconds": 86_400 }),
        StatusCode::CREATED,
    )
    .await;
    challenge(
        json!({ "kind": "bank", "bank_seconds": 604_800, "increment_seconds": 0 }),
        StatusCode::CREATED,
    )
    .await;
}
