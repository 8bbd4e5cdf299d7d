//! Ratings over HTTP: which games are rated, and what a rated game's end shows.

use reqwest::{Method, StatusCode};
use serde_json::json;

use taflbot::store::params;

use crate::common::TestApp;

#[tokio::test]
async fn rated_is_the_default_only_between_people_on_a_timed_preset_and_refused_where_it_cannot_be()
{
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let challenge = |body: serde_json::Value, status: StatusCode| {
        app.call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(body),
            status,
        )
    };
    let timed = json!({ "kind": "per_move", "seconds": 86_400 });
    let rated = challenge(
        json!({ "opponent_id": b.id, "variant": "brandubh", "clock": timed }),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(rated["challenge"]["rated"], true);
    let untimed = challenge(
        json!({ "opponent_id": b.id, "variant": "brandubh" }),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(untimed["challenge"]["rated"], false);
    let casual = challenge(
        json!({ "opponent_id": b.id, "clock": timed, "rated": false }),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(casual["challenge"]["rated"], false);

    let rules = app.service().games().variants()[0].rules.clone();
    let custom = challenge(
        json!({ "opponent_id": b.id, "rules": rules, "clock": timed, "rated": true }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        custom["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("games on custom rules are never rated"),
        "{custom}"
    );
    let ai = challenge(
        json!({ "ai_level": 1, "rated": true }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        ai["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("a rated game against the AI needs a clock"),
        "{ai}"
    );
}

#[tokio::test]
async fn games_against_the_ai_and_aborted_games_leave_ratings_alone() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(
                json!({ "ai_level": 1, "variant": "brandubh", "side": "defenders",
                         "clock": { "kind": "per_move", "seconds": 86_400 } }),
            ),
            StatusCode::CREATED,
        )
        .await;
    let game = created["game"]["id"].as_i64().unwrap();
    assert_eq!(created["game"]["rated"], false);
    app.post(&format!("/games/{game}/resign"), &a.token, json!({}))
        .await;
    let over = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(over["status"], "finished");
    assert!(over["ratings"].is_null(), "{over}");

    let aborted = app.timed_game(&a, &b, "brandubh").await;
    let view = app
        .post(&format!("/games/{aborted}/abort"), &a.token, json!({}))
        .await;
    assert_eq!(view["rated"], true);
    assert!(view["ratings"].is_null(), "{view}");
    let count: i64 = app
        .service()
        .store()
        .read(|c| c.query_one("SELECT COUNT(*) FROM ratings", params![], |r| r.get(0)))
        .await
        .unwrap();
    assert_eq!(count, 0);
}

#[tokio::test]
async fn a_rated_games_end_shows_both_changes_in_its_view() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.timed_game(&a, &b, "brandubh").await;
    let view = app
        .post(&format!("/games/{game}/resign"), &a.token, json!({}))
        .await;
    let ratings = &view["ratings"];
    assert_eq!(ratings["pool"], "brandubh");
    assert_eq!(ratings["attackers"]["player_id"], a.id);
    assert_eq!(ratings["attackers"]["before"], 1500.0);
    assert_eq!(
        ratings["attackers"]["after"].as_f64().unwrap().round(),
        1338.0
    );
    assert_eq!(
        ratings["defenders"]["after"].as_f64().unwrap().round(),
        1662.0
    );
    assert_eq!(ratings["defenders"]["provisional"], true);
    let change = ratings["defenders"]["change"].as_f64().unwrap();
    assert!((change - 162.31).abs() < 0.01, "{ratings}");

    // A second game; B's history in the pool, the latest first, each change with its game.
    app.clock.advance_ms(1_000);
    let again = app.timed_game(&a, &b, "brandubh").await;
    app.post(&format!("/games/{again}/resign"), &a.token, json!({}))
        .await;
    let handle = app.get("/me", &b.token).await["handle"].clone();
    let history = app
        .call(
            Method::GET,
            &format!("/players/{}/ratings/brandubh", handle.as_str().unwrap()),
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let items = history["items"].as_array().unwrap();
    let games: Vec<i64> = items
        .iter()
        .map(|e| e["game_id"].as_i64().unwrap())
        .collect();
    assert_eq!(games, [again, game]);
    assert_eq!(items[1]["before"], 1500.0);
    assert_eq!(
        items[0]["before"], items[1]["after"],
        "each change starts where the last ended"
    );
    assert!(items[0]["change"].as_f64().unwrap() > 0.0);
}
