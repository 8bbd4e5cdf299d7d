//! A tournament's withdrawal rule over HTTP: asked for on `POST /tournaments`, shown on the
//! tournament, applied to the standings once a player withdraws; an unknown rule and one that
//! annuls for a Swiss tournament refused in words.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::tournaments::{four_players, play_round, read, refused, tournament};

/// A 4-player round robin under `annul` (rounds: 1 A-D, B-C; 2 A-C, B-D; 3 A-B, C-D): D beats
/// A and B beats C in round 1, then D withdraws while round 2 runs (their game with B is
/// resigned). D's games count for nobody: B has the point of beating C, A and C none, and D
/// has no place in the standings.
#[tokio::test]
async fn annul_over_http_takes_a_withdrawn_players_games_out_of_the_standings() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (players, [a, b, c, d]) = four_players(&app).await;
    let id = tournament(
        &app,
        &organiser,
        json!({"name": "Annulled", "format": "round_robin", "variant": "brandubh",
               "clock": {"kind": "per_move", "seconds": 86400}, "max_players": 4,
               "withdrawal": "annul"}),
    )
    .await;
    assert_eq!(read(&app, id).await["withdrawal"], "annul");
    for p in [a, b, c, d] {
        app.post(
            &format!("/tournaments/{id}/join"),
            &players[&p].token,
            json!({}),
        )
        .await;
    }
    app.post(
        &format!("/tournaments/{id}/start"),
        &organiser.token,
        json!({}),
    )
    .await;
    // Round 1 is A-D and B-C: D and B win.
    play_round(&app, id, &players, |x, y| {
        Some(if x == a || y == a { d } else { b })
    })
    .await;
    let left = app
        .post(
            &format!("/tournaments/{id}/leave"),
            &players[&d].token,
            json!({}),
        )
        .await;
    assert_eq!(left["round"], 2, "{left}");
    let t = read(&app, id).await;
    let quitter = t["players"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .find(|p| p["player"]["player_id"] == d)
        .unwrap_or_else(|| panic!("{t}"));
    assert_eq!(quitter["withdrawn"], true, "{t}");
    assert_eq!(quitter["games_annulled"], true, "{t}");
    let table: Vec<(i64, u64, f64)> = t["standings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|s| {
            (
                s["player"].as_i64().unwrap_or(0),
                s["rank"].as_u64().unwrap_or(0),
                s["points"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    assert_eq!(table, vec![(b, 1, 1.0), (a, 2, 0.0), (c, 2, 0.0)], "{t}");
    let not_counted: Vec<(i64, i64)> = t["rounds"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .flat_map(|r| r["games"].as_array().cloned().unwrap_or_default())
        .filter(|g| g["counted"] == false)
        .map(|g| {
            (
                g["attackers"].as_i64().unwrap_or(0),
                g["defenders"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(not_counted.len(), 2, "A-D and the resigned B-D: {t}");
    assert!(not_counted.iter().all(|(x, y)| *x == d || *y == d), "{t}");
}

#[tokio::test]
async fn a_withdrawal_rule_is_forfeit_by_default_and_refused_in_words_when_it_cannot_be() {
    let app = TestApp::start().await;
    let me = app.register("Organiser").await;
    let plain = app
        .call(
            Method::POST,
            "/tournaments",
            Some(&me.token),
            Some(json!({"name": "Plain", "format": "double_round_robin"})),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(plain["withdrawal"], "forfeit", "{plain}");

    let unknown = refused(
        &app,
        &me,
        json!({"name": "W", "format": "round_robin", "withdrawal": "sometimes"}),
    )
    .await;
    assert_eq!(
        unknown,
        r#"withdrawal must be one of forfeit, annul, annul_under_half, not "sometimes""#
    );
    for rule in ["annul", "annul_under_half"] {
        let swiss = refused(
            &app,
            &me,
            json!({"name": "S", "format": "swiss", "rounds": 3, "withdrawal": rule}),
        )
        .await;
        assert!(swiss.contains("a Swiss tournament cannot annul"), "{swiss}");
        assert!(swiss.contains("say \"forfeit\""), "{swiss}");
    }
}
