//! Team matches over HTTP: two teams named in full start at once, every board's pair plays
//! both sides, the score is summed by team (checked by hand) and the match ends with its last
//! game; a match in sign-up is joined by team and started by its organiser.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp};
use crate::events::EventLines;

pub(crate) async fn handle_of(app: &TestApp, p: &Player) -> String {
    app.get("/me", &p.token).await["handle"]
        .as_str()
        .unwrap_or_else(|| panic!("no handle"))
        .to_owned()
}

/// The match as anyone reads it, without a token.
pub(crate) async fn read(app: &TestApp, id: i64) -> Value {
    app.call(
        Method::GET,
        &format!("/matches/{id}"),
        None,
        None,
        StatusCode::OK,
    )
    .await
}

pub(crate) async fn join(
    app: &TestApp,
    id: i64,
    p: &Player,
    team: &str,
    status: StatusCode,
) -> Value {
    app.call(
        Method::POST,
        &format!("/matches/{id}/join"),
        Some(&p.token),
        Some(json!({ "team": team })),
        status,
    )
    .await
}

async fn resign(app: &TestApp, game: &Value, loser: &Player) {
    app.post(
        &format!("/games/{}/resign", game["game_id"]),
        &loser.token,
        json!({}),
    )
    .await;
}

/// Reads `p`'s event stream from the start until an event of `kind`; fails after 5 s without
/// one.
pub(crate) async fn event_of_kind(app: &TestApp, p: &Player, kind: &str) -> Value {
    let resp = app
        .send(Method::GET, "/stream/events", Some(&p.token), None)
        .await;
    let mut lines = EventLines::new(resp);
    loop {
        let got = lines.events(1).await;
        if let Some(event) = got.into_iter().find(|l| l["kind"] == kind) {
            return event;
        }
    }
}

#[tokio::test]
async fn a_two_board_team_match_over_http_is_scored_by_team_and_ends_with_its_last_game() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (h1, h2, a1, a2) = (
        app.register("Home one").await,
        app.register("Home two").await,
        app.register("Away one").await,
        app.register("Away two").await,
    );
    let mut handles = Vec::new();
    for p in [&h1, &h2, &a1, &a2] {
        handles.push(handle_of(&app, p).await);
    }
    let created = app
        .call(
            Method::POST,
            "/matches",
            Some(&organiser.token),
            Some(json!({
                "name": "North v South",
                "variant": "brandubh",
                "clock": {"kind": "per_move", "seconds": 86400},
                "teams": [
                    {"name": "North", "players": [handles[0], handles[1]]},
                    {"name": "South", "players": [handles[2], handles[3]]},
                ],
            })),
            StatusCode::CREATED,
        )
        .await;
    let id = created["id"].as_i64().unwrap_or(0);
    // Both teams named in full: every game started at once.
    assert_eq!(created["status"], "running");
    assert_eq!(created["rated"], true);
    assert_eq!(created["max_boards"], 2);
    let boards = created["boards"].as_array().cloned().unwrap_or_default();
    assert_eq!(boards.len(), 2);
    for (board, (home, away)) in boards.iter().zip([(&h1, &a1), (&h2, &a2)]) {
        assert_eq!(board["home"], home.id);
        assert_eq!(board["away"], away.id);
        let games = &board["games"];
        assert_eq!(games.as_array().map(Vec::len), Some(2));
        assert_eq!(
            (&games[0]["attackers"], &games[0]["defenders"]),
            (&json!(home.id), &json!(away.id))
        );
        assert_eq!(
            (&games[1]["attackers"], &games[1]["defenders"]),
            (&json!(away.id), &json!(home.id))
        );
        assert!(games[0]["result"].is_null());
    }
    let started = event_of_kind(&app, &a2, "match_started").await;
    assert_eq!(started["data"]["match_id"], id);
    assert_eq!(started["data"]["boards"], 2);

    // Board 1: North's player wins with the attackers, then draws with the defenders.
    resign(&app, &boards[0]["games"][0], &a1).await;
    let draw = &boards[0]["games"][1]["game_id"];
    app.post(&format!("/games/{draw}/draw/offer"), &a1.token, json!({}))
        .await;
    app.post(&format!("/games/{draw}/draw/accept"), &h1.token, json!({}))
        .await;
    // Board 2: South's player wins with the defenders...
    resign(&app, &boards[1]["games"][0], &h2).await;
    let m = read(&app, id).await;
    assert_eq!(m["status"], "running");
    assert_eq!(m["teams"][0]["points"], 1.5);
    assert_eq!(m["teams"][1]["points"], 1.5);
    assert!(m.get("winner").is_none());
    // ... and with the attackers: North 1.5, South 2.5 (by hand: 1 + ½ against ½ + 1 + 1).
    resign(&app, &boards[1]["games"][1], &h2).await;

    let m = read(&app, id).await;
    assert_eq!(m["status"], "finished");
    assert_eq!(m["teams"][0]["name"], "North");
    assert_eq!(m["teams"][0]["points"], 1.5);
    assert_eq!(m["teams"][1]["points"], 2.5);
    assert_eq!(m["winner"], "away");
    let results: Vec<&Value> = m["boards"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|b| b["games"].as_array().into_iter().flatten())
        .map(|g| &g["result"])
        .collect();
    assert_eq!(
        results,
        [
            &json!("attackers_won"),
            &json!("draw"),
            &json!("defenders_won"),
            &json!("attackers_won")
        ]
    );
    let ended = event_of_kind(&app, &h1, "match_ended").await;
    assert_eq!(ended["data"]["home_points"], 1.5);
    assert_eq!(ended["data"]["away_points"], 2.5);
    assert_eq!(ended["data"]["winner"], "away");

    let list = app
        .call(Method::GET, "/matches", None, None, StatusCode::OK)
        .await;
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["home"], "North");
    assert_eq!(list[0]["winner"], "away");
    // The web page shows the teams, the score and every game linked.
    let page = crate::web_sessions::browserless()
        .get(format!("{}/matches/{id}", app.base))
        .send()
        .await
        .unwrap_or_else(|e| panic!("no page: {e}"));
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap_or_default();
    assert!(html.contains("Winner: South"), "{html}");
    assert!(html.contains("2½"), "{html}");
    for g in m["boards"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|b| b["games"].as_array().into_iter().flatten())
    {
        assert!(html.contains(&format!("/games/{}", g["game_id"])), "{html}");
    }
    // Past sign-up: nobody joins.
    let late = app.register("Late").await;
    join(&app, id, &late, "home", StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn a_match_in_sign_up_is_joined_by_team_and_started_by_its_organiser() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (h, a, other) = (
        app.register("Home").await,
        app.register("Away").await,
        app.register("Other").await,
    );
    let created = app
        .call(
            Method::POST,
            "/matches",
            Some(&organiser.token),
            Some(json!({
                "name": "Open match",
                "variant": "tablut",
                "boards": 2,
                "teams": [{"name": "Reds"}, {"name": "Blues"}],
            })),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["status"], "sign_up");
    let id = created["id"].as_i64().unwrap_or(0);
    join(&app, id, &h, "home", StatusCode::OK).await;
    let joined = join(&app, id, &a, "away", StatusCode::OK).await;
    assert_eq!(joined["teams"][1]["players"][0]["player_id"], a.id);
    // Twice in one match: refused.
    join(&app, id, &h, "away", StatusCode::CONFLICT).await;
    // Only the organiser starts it.
    app.call(
        Method::POST,
        &format!("/matches/{id}/start"),
        Some(&other.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;
    let started = app
        .post(&format!("/matches/{id}/start"), &organiser.token, json!({}))
        .await;
    assert_eq!(started["status"], "running");
    assert_eq!(started["boards"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn a_team_match_refuses_bad_teams_in_the_organisers_terms() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let p = app.register("Someone").await;
    let handle = handle_of(&app, &p).await;
    let refused = |body: Value| {
        app.call(
            Method::POST,
            "/matches",
            Some(&organiser.token),
            Some(body),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let one = refused(json!({"name": "M", "teams": [{"name": "A"}]})).await;
    assert!(
        one["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("exactly two teams")
    );
    let unknown = refused(json!({"name": "M", "teams": [
        {"name": "A", "players": ["nobody-here"]}, {"name": "B"}]}))
    .await;
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("nobody-here")
    );
    let twice = refused(json!({"name": "M", "teams": [
        {"name": "A", "players": [handle]}, {"name": "B", "players": [handle]}]}))
    .await;
    assert!(
        twice["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("named twice")
    );
    refused(json!({"name": "M", "teams": [{"name": "Same"}, {"name": "same"}]})).await;
}
