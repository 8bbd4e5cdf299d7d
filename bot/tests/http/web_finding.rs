//! The web client's pages for finding games and players, without a browser (the browser suite
//! has them too): the public games (not the private ones), player search by handle and by name,
//! a leaderboard. Run on PostgreSQL as well, for their queries.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::TestApp;
use crate::web_sessions::browserless;

async fn page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let answer = browserless()
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    (answer.status(), answer.text().await.unwrap())
}

#[tokio::test]
async fn the_public_games_page_lists_public_games_being_played_and_finished_never_private_ones() {
    let app = TestApp::start().await;
    let (a, b, live) = app.game_between_a_and_b("brandubh").await;
    let (c, _, ended) = app.game_between_a_and_b("brandubh").await;
    let hidden = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "variant": "brandubh", "side": "attackers", "private": true }),
        )
        .await;
    let hidden = app
        .post(&format!("/challenges/{hidden}/accept"), &b.token, json!({}))
        .await["id"]
        .as_i64()
        .unwrap();
    app.post(&format!("/games/{ended}/resign"), &c.token, json!({}))
        .await;
    let (status, html) = page(&app, "/games").await;
    assert_eq!(status, StatusCode::OK);
    let live_at = html.find("data-list=\"live\"").unwrap();
    let recent_at = html.find("data-list=\"recent\"").unwrap();
    let live_row = html.find(&format!("data-game=\"{live}\"")).unwrap();
    let ended_row = html.find(&format!("data-game=\"{ended}\"")).unwrap();
    assert!(live_at < live_row && live_row < recent_at, "{html}");
    assert!(recent_at < ended_row, "{html}");
    assert!(html.contains("resigned"), "{html}");
    assert!(!html.contains(&format!("data-game=\"{hidden}\"")), "{html}");
}

#[tokio::test]
async fn players_are_found_by_the_start_of_a_handle_or_a_name() {
    let app = TestApp::start().await;
    app.register("Grace Hopper").await;
    app.register("Ada").await;
    let (_, by_handle) = page(&app, "/players?q=gra").await;
    assert!(
        by_handle.contains("href=\"/players/grace_hopper\""),
        "{by_handle}"
    );
    assert!(!by_handle.contains("href=\"/players/ada\""), "{by_handle}");
    // A space starts no handle; the name still matches, any case.
    let (status, by_name) = page(&app, "/players?q=GRACE%20H").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        by_name.contains("href=\"/players/grace_hopper\""),
        "{by_name}"
    );
    // LIKE's wildcards match only themselves.
    let (_, wild) = page(&app, "/players?q=%25").await;
    assert!(
        wild.contains("Nobody's handle or name starts with"),
        "{wild}"
    );
}

#[tokio::test]
async fn a_leaderboard_page_lists_a_variants_rated_players() {
    let app = TestApp::start().await;
    let (status, html) = page(&app, "/leaderboards/brandubh").await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Leaderboard: Brandubh (7x7)"), "{html}");
    let (status, _) = page(&app, "/leaderboards/nonsense").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
