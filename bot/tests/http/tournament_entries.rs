//! Joining and leaving a tournament are events (`tournament_joined`, `tournament_left`): on the
//! player's and the organiser's streams, and on the tournament page's live stream, which so
//! redraws when someone joins.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::events::EventLines;
use crate::public_games_stream::next_data;
use crate::web_sessions::browserless;

/// The events among `lines` (keep-alives dropped).
fn events_of(lines: Vec<Value>) -> Vec<Value> {
    lines
        .into_iter()
        .filter(|l| l.get("id").is_some())
        .collect()
}

#[tokio::test]
async fn a_join_and_a_leave_are_events_on_streams_and_redraw_the_tournaments_page() {
    let app = TestApp::start().await;
    let (ada, bob) = (app.register("Ada").await, app.register("Bob").await);
    let id = app
        .call(
            Method::POST,
            "/tournaments",
            Some(&ada.token),
            Some(json!({ "name": "Spring cup", "format": "round_robin", "clock": { "kind": "unlimited" } })),
            StatusCode::CREATED,
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let mut page_stream = browserless()
        .get(format!("{}/tournaments/{id}/live", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page_stream.status(), StatusCode::OK);
    let mut organiser = EventLines::new(
        app.send(Method::GET, "/stream/events", Some(&ada.token), None)
            .await,
    );

    app.post(&format!("/tournaments/{id}/join"), &bob.token, json!({}))
        .await;
    let mut buffered = String::new();
    assert_eq!(
        next_data(&mut page_stream, &mut buffered).await,
        "tournament_joined",
        "the page redraws on a join"
    );
    let joined = events_of(organiser.events(1).await);
    assert_eq!(joined[0]["kind"], "tournament_joined");
    assert_eq!(joined[0]["data"]["tournament_id"], id);
    assert_eq!(joined[0]["data"]["name"], "Spring cup");
    assert_eq!(joined[0]["data"]["player"], bob.id);
    assert_eq!(joined[0]["data"]["players"], 1);
    assert_eq!(joined[0]["data"]["withdrew"], false);
    assert_eq!(joined[0]["players"], json!([bob.id, ada.id]));
    assert!(joined[0]["game_id"].is_null());

    app.post(&format!("/tournaments/{id}/leave"), &bob.token, json!({}))
        .await;
    assert_eq!(
        next_data(&mut page_stream, &mut buffered).await,
        "tournament_left",
        "one redraw for the leave, though two players were told"
    );
    let left = events_of(organiser.events(1).await);
    assert_eq!(left[0]["kind"], "tournament_left");
    assert_eq!(left[0]["data"]["players"], 0);

    // The player's own stream holds both, in order.
    let mine = events_of(
        EventLines::new(
            app.send(
                Method::GET,
                "/stream/events?since=0",
                Some(&bob.token),
                None,
            )
            .await,
        )
        .events(2)
        .await,
    );
    let kinds: Vec<&str> = mine.iter().filter_map(|e| e["kind"].as_str()).collect();
    assert_eq!(kinds, ["tournament_joined", "tournament_left"]);

    // Once it runs, leaving is a withdrawal, said so.
    let cy = app.register("Cy").await;
    for p in [&ada, &bob, &cy] {
        app.post(&format!("/tournaments/{id}/join"), &p.token, json!({}))
            .await;
    }
    app.post(&format!("/tournaments/{id}/start"), &ada.token, json!({}))
        .await;
    app.post(&format!("/tournaments/{id}/leave"), &cy.token, json!({}))
        .await;
    let mut cys = EventLines::new(
        app.send(Method::GET, "/stream/events?since=0", Some(&cy.token), None)
            .await,
    );
    // Joined, the start, round 1 (and Cy's game, unless Cy has the bye), then the withdrawal.
    let mut seen = Vec::new();
    let withdrawal = loop {
        let next = events_of(cys.events(1).await);
        seen.extend(next.iter().cloned());
        if let Some(left) = next.into_iter().find(|e| e["kind"] == "tournament_left") {
            break left;
        }
        assert!(seen.len() < 10, "no tournament_left in {seen:?}");
    };
    assert_eq!(withdrawal["data"]["withdrew"], true);
    assert_eq!(withdrawal["data"]["players"], 2);
}
