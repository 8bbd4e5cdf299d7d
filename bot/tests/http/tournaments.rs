//! Tournaments over HTTP: created, joined, started, played to the end by resignations and
//! agreed draws, standings and tie-breaks checked against hand-worked values.

use std::collections::HashMap;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp};

pub(crate) async fn tournament(app: &TestApp, organiser: &Player, body: Value) -> i64 {
    app.call(
        Method::POST,
        "/tournaments",
        Some(&organiser.token),
        Some(body),
        StatusCode::CREATED,
    )
    .await["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no id"))
}

/// Plays the current round's undecided games: `winner(attackers, defenders)` names the
/// winner's id, `None` a draw. Answers the tournament afterwards.
pub(crate) async fn play_round(
    app: &TestApp,
    id: i64,
    players: &HashMap<i64, Player>,
    winner: impl Fn(i64, i64) -> Option<i64>,
) -> Value {
    let t = read(app, id).await;
    let round = t["round"].as_u64().unwrap_or(0) as usize;
    let games = t["rounds"][round - 1]["games"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for g in games {
        if !g["result"].is_null() {
            continue;
        }
        let (a, d) = (
            g["attackers"].as_i64().unwrap_or(0),
            g["defenders"].as_i64().unwrap_or(0),
        );
        let game = g["game_id"].as_i64().unwrap_or(0);
        match winner(a, d) {
            Some(w) => {
                let loser = if w == a { d } else { a };
                app.post(
                    &format!("/games/{game}/resign"),
                    &players[&loser].token,
                    json!({}),
                )
                .await;
            }
            None => {
                app.post(
                    &format!("/games/{game}/draw/offer"),
                    &players[&a].token,
                    json!({}),
                )
                .await;
                app.post(
                    &format!("/games/{game}/draw/accept"),
                    &players[&d].token,
                    json!({}),
                )
                .await;
            }
        }
    }
    read(app, id).await
}

/// The refusal (`422`) of a tournament `body`, in words.
pub(crate) async fn refused(app: &TestApp, me: &Player, body: Value) -> String {
    let answer = app
        .call(
            Method::POST,
            "/tournaments",
            Some(&me.token),
            Some(body),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    answer["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned()
}

/// The tournament as anyone reads it, without a token.
pub(crate) async fn read(app: &TestApp, id: i64) -> Value {
    app.call(
        Method::GET,
        &format!("/tournaments/{id}"),
        None,
        None,
        StatusCode::OK,
    )
    .await
}

/// Players A, B, C and D, registered in that order: by id, and their ids.
pub(crate) async fn four_players(app: &TestApp) -> (HashMap<i64, Player>, [i64; 4]) {
    let mut players = HashMap::new();
    let mut ids = [0; 4];
    for (i, name) in ["A", "B", "C", "D"].into_iter().enumerate() {
        let p = app.register(name).await;
        ids[i] = p.id;
        players.insert(p.id, p);
    }
    (players, ids)
}

#[tokio::test]
async fn a_four_player_round_robin_over_http_ends_with_hand_worked_standings() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (players, [a, b, c, d]) = four_players(&app).await;
    let id = tournament(
        &app,
        &organiser,
        json!({"name": "Four", "format": "round_robin", "variant": "brandubh",
               "clock": {"kind": "per_move", "seconds": 86400}, "max_players": 4}),
    )
    .await;
    for p in players.values() {
        app.post(&format!("/tournaments/{id}/join"), &p.token, json!({}))
            .await;
    }
    let started = app
        .post(
            &format!("/tournaments/{id}/start"),
            &organiser.token,
            json!({}),
        )
        .await;
    assert_eq!(started["status"], "running");
    assert_eq!(started["format"], "round_robin");
    assert_eq!(
        started["rounds"][0]["games"].as_array().map(Vec::len),
        Some(2)
    );

    // A beats B, A draws C, D beats A; B beats C and D; C draws D.
    let result = move |x: i64, y: i64| -> Option<i64> {
        let pair = (x.min(y), x.max(y));
        match pair {
            p if p == (a, b) => Some(a),
            p if p == (a, c) => None,
            p if p == (a, d) => Some(d),
            p if p == (b, c) => Some(b),
            p if p == (b, d) => Some(b),
            _ => None,
        }
    };
    let mut t = started;
    for _ in 0..3 {
        t = play_round(&app, id, &players, result).await;
    }
    assert_eq!(t["status"], "finished", "{t}");
    assert_eq!(t["winner"], b);
    let table: Vec<(i64, u64, f64, f64, f64)> = t["standings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| {
            (
                s["player"].as_i64().unwrap_or(0),
                s["rank"].as_u64().unwrap_or(0),
                s["points"].as_f64().unwrap_or(-1.0),
                s["sonneborn_berger"].as_f64().unwrap_or(-1.0),
                s["buchholz"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    assert_eq!(
        table,
        vec![
            (b, 1, 2.0, 2.5, 4.0),
            (a, 2, 1.5, 2.5, 4.5),
            (d, 3, 1.5, 2.0, 4.5),
            (c, 4, 1.0, 1.5, 5.0)
        ]
    );
    let listed = app.get("/tournaments", &organiser.token).await;
    assert_eq!(listed[0]["id"], id);
    assert_eq!(listed[0]["status"], "finished");
}

#[tokio::test]
async fn a_five_player_swiss_over_http_gives_byes_and_ends() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let mut players = HashMap::new();
    for name in ["P1", "P2", "P3", "P4", "P5"] {
        let p = app.register(name).await;
        players.insert(p.id, p);
    }
    let id = tournament(
        &app,
        &organiser,
        json!({"name": "Swiss", "format": "swiss", "rounds": 3, "variant": "brandubh"}),
    )
    .await;
    for p in players.values() {
        app.post(&format!("/tournaments/{id}/join"), &p.token, json!({}))
            .await;
    }
    let mut t = app
        .post(
            &format!("/tournaments/{id}/start"),
            &organiser.token,
            json!({}),
        )
        .await;
    for round in 1..=3usize {
        assert!(
            t["rounds"][round - 1]["bye"].is_i64(),
            "round {round} has a bye: {t}"
        );
        t = play_round(&app, id, &players, |x, y| Some(x.min(y))).await;
    }
    assert_eq!(t["status"], "finished");
    let byes: std::collections::HashSet<i64> = t["rounds"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|r| r["bye"].as_i64())
        .collect();
    assert_eq!(byes.len(), 3, "three different players sat out");
    let total: f64 = t["standings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s["points"].as_f64())
        .sum();
    assert_eq!(total, 9.0, "six games and three byes");
}

#[tokio::test]
async fn a_tournament_body_that_cannot_be_played_is_refused_saying_why() {
    let app = TestApp::start().await;
    let me = app.register("Organiser").await;
    for (body, message) in [
        (
            json!({"name": "S", "format": "swiss"}),
            "a Swiss tournament needs rounds",
        ),
        (
            json!({"name": "R", "format": "round_robin", "rounds": 3}),
            "rounds is only for a Swiss tournament",
        ),
        (
            json!({"name": "R", "format": "round_robin", "min_players": 5, "max_players": 4}),
            "players: the minimum must be at least 2 and the maximum between the minimum and 256 (asked 5 to 4)",
        ),
        (
            json!({"name": "W", "format": "round_robin", "round_days": 0}),
            "round_days: rounds may start 1 to 90 days apart (asked 0)",
        ),
    ] {
        assert_eq!(refused(&app, &me, body).await, message);
    }
    let missing = app
        .call(
            Method::GET,
            "/tournaments/999",
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert_eq!(missing["error"]["message"], "tournament 999 not found");
}

#[tokio::test]
async fn rounds_at_set_times_are_asked_for_and_shown_with_the_next_rounds_day() {
    let app = TestApp::start().await;
    let a = app.register("Organiser").await;
    let b = app.register("Second").await;
    let id = tournament(
        &app,
        &a,
        json!({"name": "Weekly", "format": "double_round_robin", "variant": "brandubh",
               "clock": {"kind": "per_move", "seconds": 2_592_000}, "round_days": 7}),
    )
    .await;
    for p in [&a, &b] {
        app.post(&format!("/tournaments/{id}/join"), &p.token, json!({}))
            .await;
    }
    let signing_up = read(&app, id).await;
    assert_eq!(signing_up["round_days"], 7, "{signing_up}");
    assert!(signing_up.get("next_round_at").is_none(), "{signing_up}");
    let started = app
        .post(&format!("/tournaments/{id}/start"), &a.token, json!({}))
        .await;
    let now = app.service().now_ms();
    let next = started["next_round_at"]
        .as_i64()
        .unwrap_or_else(|| panic!("{started}"));
    assert_eq!(next - now, 7 * 86_400_000, "{started}");
}
