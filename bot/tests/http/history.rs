//! A player's games in pages, filtered by status and variant, and their finished public games
//! exported as one .otg file.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;

fn ids(page: &Value) -> Vec<i64> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_players_games_come_in_pages_latest_first_and_filtered() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bo").await;
    let unlimited = json!({ "kind": "unlimited" });
    let mut finished = Vec::new();
    for _ in 0..52 {
        let game = app.start_game(&a, &b, "tablut", unlimited.clone()).await;
        app.clock.advance_ms(1_000);
        app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
            .await;
        finished.push(game);
    }
    let brandubh = app.start_game(&a, &b, "brandubh", unlimited.clone()).await;
    app.clock.advance_ms(1_000);
    app.post(&format!("/games/{brandubh}/resign"), &a.token, json!({}))
        .await;
    let id = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "variant": "tablut", "side": "attackers", "private": true }),
        )
        .await;
    let private = app
        .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
        .await["id"]
        .as_i64()
        .unwrap();
    app.clock.advance_ms(1_000);
    app.post(&format!("/games/{private}/resign"), &b.token, json!({}))
        .await;
    let active = app.start_game(&a, &b, "tablut", unlimited).await;

    let first = app
        .call(
            Method::GET,
            "/players/ada/games?status=finished",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(first["next_page"], 2);
    let mut latest_first: Vec<i64> = finished.clone();
    latest_first.push(brandubh);
    latest_first.reverse();
    assert_eq!(
        ids(&first),
        latest_first[..50],
        "anonymous: no private game"
    );
    let second = app
        .call(
            Method::GET,
            "/players/ada/games?status=finished&page=2",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(ids(&second), latest_first[50..]);
    assert!(second["next_page"].is_null());
    // Its player sees the private game too, first (it finished last).
    let own = app
        .get("/players/ada/games?status=finished", &a.token)
        .await;
    assert_eq!(ids(&own)[0], private);
    let only_brandubh = app
        .call(
            Method::GET,
            "/players/bo/games?variant=brandubh",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(ids(&only_brandubh), [brandubh]);
    assert_eq!(only_brandubh["items"][0]["result"]["winner"], "defenders");
    let playing = app
        .call(
            Method::GET,
            "/players/ada/games?status=active",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(ids(&playing), [active]);
    let bad = app
        .call(
            Method::GET,
            "/players/ada/games?status=won",
            None,
            None,
            StatusCode::BAD_REQUEST,
        )
        .await;
    assert_eq!(
        bad["error"]["message"],
        "status must be one of active, finished, aborted, not \"won\""
    );
    let unknown = app
        .call(
            Method::GET,
            "/players/ada/games?variant=chess",
            None,
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("chess")
    );

    // The export: every finished public game, in order, each its own record.
    let r = app
        .client
        .get(app.url("/players/ada/games.otg"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(
        r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("taflbot-ada.otg")
    );
    let text = r.text().await.unwrap();
    let exported: Vec<i64> = text
        .match_indices("taflbot game ")
        .map(|(at, _)| {
            text[at + 13..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        })
        .collect();
    let mut expected = finished.clone();
    expected.push(brandubh);
    assert_eq!(exported, expected, "no private, active or aborted game");
    let single = app
        .call(
            Method::GET,
            &format!("/games/{brandubh}/export"),
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert!(
        text.contains(single.as_str().unwrap().trim_end()),
        "each record is the game's own export"
    );
}
