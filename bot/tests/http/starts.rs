//! Games that cannot be played are refused at the start, and an AI game that somehow began
//! there ends by the rules instead of the AI trying its turn forever.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;
use taflbot::domain::{GameId, GameStatus, PlayerId, Seat};
use taflbot::store::rows::{self, ClockRow, GameRow};

use crate::common::{T0, TestApp, wire};

/// Rules strings whose start cannot be played, with what the refusal must name.
const UNPLAYABLE: &[(&str, &str)] = &[
    ("dim:7 start:/7/7/7/3K3/7/7/7/", "no legal move"),
    ("dim:7 start:/7/7/7/7/7/7/7/", "no king"),
    ("dim:7 start:/K6/7/7/7/7/7/3t3/", "a winning square"),
    ("dim:7 start:/7/tT5/T6/3K3/7/7/7/", "no legal move"),
];

#[tokio::test]
async fn challenges_with_unplayable_starts_are_refused_with_the_reason() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    for (rules, reason) in UNPLAYABLE {
        for opponent in [json!({ "ai_level": 1 }), json!({ "opponent_id": b.id })] {
            let mut body = json!({ "rules": rules, "side": "defenders" });
            body.as_object_mut()
                .unwrap()
                .extend(opponent.as_object().unwrap().clone());
            let e = app
                .call(
                    Method::POST,
                    "/challenges",
                    Some(&a.token),
                    Some(body),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await;
            let message = e["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("cannot start a game") && message.contains(reason),
                "{rules}: {message}"
            );
        }
    }
    // No game was made of any of them.
    assert_eq!(
        app.get("/games", &a.token).await.as_array().unwrap().len(),
        0
    );
    // A playable custom start and every preset still start, and so do starts that only look
    // lost: capture is active, so a king already between two attackers is not captured.
    for rules in [
        "dim:7 start:/3t3/7/7/3K3/7/7/7/",
        "dim:7 esc:e atkf:y ka:y ks:w cor: cen: surf:n start:/1t1tt2/1t5/3tT2/6t/2t1tKt/2t4/tt2t2/",
        "dim:7 atkf:n start:/7/7/7/3K3/7/7/7/",
    ] {
        app.challenge(&a, json!({ "opponent_id": b.id, "rules": rules }))
            .await;
    }
    for v in tafl_engine::variants() {
        app.challenge(&a, json!({ "opponent_id": b.id, "variant": v.id }))
            .await;
    }
}

/// A game stored before starts were checked: the AI holds the attackers and has nothing to
/// move. It must end as the rules say (the side that cannot move loses), not stay active.
#[tokio::test]
async fn an_ai_game_stuck_at_its_start_ends_by_the_rules() {
    let app = TestApp::start().await;
    let me = app.register("Me").await;
    let game_id =
        insert_active_game(&app, "dim:7 start:/7/7/7/3K3/7/7/7/", Seat::Ai(1), me.id).await;
    let mut events = app.service().events().subscribe();

    app.service().scheduler().run_due().await.unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let event = wire(&events.recv().await.unwrap());
            if event["kind"] == "game_ended" && event["game_id"] == game_id {
                return event;
            }
        }
    })
    .await
    .expect("no game_ended event for the stuck AI game within 10 s");
    assert_eq!(ended["data"]["winner"], "defenders");
    assert_eq!(ended["data"]["reason"], "no_legal_moves");

    let view = app.get(&format!("/games/{game_id}"), &me.token).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"]["winner"], "defenders");
    assert_eq!(view["result"]["reason"], "no_legal_moves");
    assert_eq!(view["ply"], 0);
}

async fn insert_active_game(app: &TestApp, rules: &str, attackers: Seat, defender: i64) -> i64 {
    let parsed = tafl_engine::Rules::from_opentafl(rules).unwrap();
    let row = GameRow {
        id: GameId(0),
        variant: None,
        rules: rules.to_owned(),
        attackers,
        defenders: Seat::Player(PlayerId(defender)),
        status: GameStatus::Active,
        winner: None,
        result_reason: None,
        ply: 0,
        side_to_move: parsed.first_to_move(),
        position: parsed.start_position().to_opentafl(),
        clock: ClockRow {
            kind: "unlimited".into(),
            ..ClockRow::default()
        },
        attackers_bank_ms: None,
        defenders_bank_ms: None,
        turn_started_at: T0,
        deadline_at: None,
        reminded_ply: None,
        draw_offer_by: None,
        context: None,
        created_at: T0,
        updated_at: T0,
        finished_at: None,
        rated: false,
        private: false,
        paused_at: None,
    };
    app.service()
        .store()
        .write(move |c| rows::insert_game(c, &row))
        .await
        .unwrap()
        .get()
}
