//! Timeout protection over HTTP (issue 34): a vacation taken stops the clock and the opponent
//! is told; a move ends it; a day spent automatically when a clock runs out, until none is
//! left; a tournament that forbids vacation ends its game on time. Time is the app's manual
//! clock: no sleeps.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::sync::broadcast::Receiver;

use crate::common::{Player, T0, TestApp, wire};

const DAY_MS: i64 = 86_400_000;

/// The server's default: 14 days a year (the other suites turn vacation off).
fn with_vacation(config: &mut taflbot::config::Config) {
    config.games.vacation_days_per_year = 14;
}

/// The next event of `kind` on `events`, failing loudly after 5 seconds.
async fn next_of_kind(events: &mut Receiver<taflbot::service::Event>, kind: &str) -> Value {
    let wait = async {
        loop {
            let e = wire(&events.recv().await.expect("the event bus closed"));
            if e["kind"] == kind {
                return e;
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), wait)
        .await
        .unwrap_or_else(|_| panic!("no {kind} event within 5 seconds"))
}

/// A tablut game on `clock` with both first moves played: A (attackers) to move at ply 2,
/// their turn begun at `T0`, so running out of time loses rather than aborts.
async fn game_with_a_to_move(app: &TestApp, clock: Value) -> (Player, Player, i64) {
    let (a, b, game) = app.game_between_a_and_b_on("tablut", clock).await;
    app.play_line(game, &a, &b, &["d1-a1", "d5-d1"]).await;
    (a, b, game)
}

async fn vacation(app: &TestApp, who: &Player) -> Value {
    app.get("/me/vacation", &who.token).await
}

#[tokio::test]
async fn a_vacation_stops_the_clock_until_it_ends_and_the_opponent_is_told() {
    let app = TestApp::start_with(with_vacation).await;
    let day = json!({ "kind": "per_move", "seconds": 86400 });
    let (a, b, game) = game_with_a_to_move(&app, day).await;
    let mut events = app.service().events().subscribe();

    let taken = app
        .post("/me/vacation", &a.token, json!({ "days": 3 }))
        .await;
    assert_eq!(taken["vacation"]["until"], T0 + 3 * DAY_MS);
    assert_eq!(
        (taken["days_used"].as_u64(), taken["days_left"].as_u64()),
        (Some(3), Some(11))
    );
    assert_eq!(taken["unprotected_games"], json!([]));
    let started = next_of_kind(&mut events, "vacation_started").await;
    assert_eq!(started["game_id"], game);
    assert_eq!(
        started["players"],
        json!([a.id, b.id]),
        "the opponent is told"
    );
    assert_eq!(started["data"]["player"], a.id);
    assert_eq!(started["data"]["automatic"], false);
    // A second vacation on top is refused.
    app.call(
        Method::POST,
        "/me/vacation",
        Some(&a.token),
        Some(json!({ "days": 1 })),
        StatusCode::CONFLICT,
    )
    .await;

    // Two days in, past the day-per-move deadline: the clock stands still.
    app.clock.advance_ms(2 * DAY_MS);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!((pass.timeouts, pass.vacations_ended), (0, 0));
    // The opponent's move out of turn is refused as out of turn, not as out of time.
    let e = app
        .call(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&b.token),
            Some(json!({ "move": "d9-a9", "ply": 2 })),
            StatusCode::FORBIDDEN,
        )
        .await;
    assert_eq!(e["error"]["code"], "not_your_turn", "{e}");
    let view = app.get(&format!("/games/{game}"), &b.token).await;
    assert_eq!(view["status"], "active");
    assert_eq!(
        view["vacation_until"],
        T0 + 3 * DAY_MS,
        "the game says why it waits"
    );

    // The vacation ends by itself at its time, even seen late: the deadline moves by the
    // three days the turn stood still.
    app.clock.advance_ms(DAY_MS + 1_000);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!((pass.timeouts, pass.vacations_ended), (0, 1));
    let ended = next_of_kind(&mut events, "vacation_ended").await;
    assert_eq!(ended["data"]["stopped_ms"], 3 * DAY_MS);
    assert_eq!(ended["data"]["deadline_at"], T0 + 4 * DAY_MS);
    assert_eq!(
        app.get(&format!("/games/{game}"), &a.token).await["deadline_at"],
        T0 + 4 * DAY_MS
    );
    assert_eq!(vacation(&app, &a).await["vacation"], Value::Null);
    assert_eq!(
        app.get(&format!("/games/{game}"), &b.token).await["vacation_until"],
        Value::Null
    );

    // Then the clock runs again: with no days left it would be lost; here a day is spent.
    app.clock.advance_ms(DAY_MS);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!(
        pass.timeouts, 0,
        "a vacation day is spent before a loss on time"
    );
    assert_eq!(vacation(&app, &a).await["days_used"], 4);
}

#[tokio::test]
async fn a_move_ends_the_vacation_charging_neither_the_bank_nor_the_days_not_begun() {
    let app = TestApp::start_with(with_vacation).await;
    let bank = json!({ "kind": "bank", "bank_seconds": 2 * 86400, "increment_seconds": 86400 });
    let (a, b, game) = game_with_a_to_move(&app, bank).await;
    app.post("/me/vacation", &a.token, json!({ "days": 5 }))
        .await;

    app.clock.advance_ms(DAY_MS + DAY_MS / 2);
    app.play_line(game, &a, &b, &["a1-a2"]).await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    // Nothing was spent from the bank while away (3 days after the first move's increment);
    // this move's increment came on top.
    assert_eq!(view["attackers_bank_ms"], 4 * DAY_MS);
    let balance = vacation(&app, &a).await;
    assert_eq!(balance["vacation"], Value::Null);
    assert_eq!(
        balance["days_used"], 2,
        "a day and a half away costs the two days begun"
    );

    // Coming back when not away is refused, saying why.
    let e = app
        .call(
            Method::DELETE,
            "/me/vacation",
            Some(&a.token),
            None,
            StatusCode::CONFLICT,
        )
        .await;
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not on vacation"),
        "{e}"
    );
    // More days than are left, or none, are refused in words.
    for days in [0, 13] {
        let e = app
            .call(
                Method::POST,
                "/me/vacation",
                Some(&a.token),
                Some(json!({ "days": days })),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        assert!(
            e["error"]["message"].as_str().unwrap().starts_with("days:"),
            "{e}"
        );
    }
}

#[tokio::test]
async fn a_day_is_spent_automatically_at_a_time_and_with_none_left_the_game_is_lost_on_time() {
    let app = TestApp::start_with(|c| c.games.vacation_days_per_year = 2).await;
    let day = json!({ "kind": "per_move", "seconds": 86400 });
    let (a, b, game) = game_with_a_to_move(&app, day).await;
    let mut events = app.service().events().subscribe();

    for spent in 1..=2 {
        app.clock.advance_ms(DAY_MS);
        let pass = app.service().scheduler().run_due().await.unwrap();
        assert_eq!(
            pass.timeouts, 0,
            "day {spent}: a vacation day keeps the game going"
        );
        let e = next_of_kind(&mut events, "vacation_started").await;
        assert_eq!(e["data"]["automatic"], true);
        assert_eq!(e["players"], json!([a.id, b.id]));
        assert_eq!(e["data"]["deadline_at"], T0 + (spent + 1) * DAY_MS);
        let view = app.get(&format!("/games/{game}"), &a.token).await;
        assert_eq!(view["status"], "active");
        assert_eq!(view["deadline_at"], T0 + (spent + 1) * DAY_MS);
        assert_eq!(vacation(&app, &a).await["days_left"], 2 - spent);
    }

    app.clock.advance_ms(DAY_MS);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!(pass.timeouts, 1);
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["result"]["reason"], "timeout");
    assert_eq!(view["result"]["winner"], "defenders");
}

#[tokio::test]
async fn a_late_move_spends_a_day_and_is_played() {
    let app = TestApp::start_with(with_vacation).await;
    let day = json!({ "kind": "per_move", "seconds": 86400 });
    let (a, b, game) = game_with_a_to_move(&app, day).await;
    // Past the deadline before any scheduler pass: the move itself spends the day.
    app.clock.advance_ms(DAY_MS + 60_000);
    let played = app.play_line(game, &a, &b, &["a1-a2"]).await;
    assert_eq!(played["deadline_at"], T0 + 2 * DAY_MS + 60_000);
    assert_eq!(vacation(&app, &a).await["days_used"], 1);
}

#[tokio::test]
async fn a_tournament_that_forbids_vacation_ends_its_game_on_time() {
    let app = TestApp::start_with(with_vacation).await;
    let organiser = app.register("Organiser").await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let created = app
        .call(
            Method::POST,
            "/tournaments",
            Some(&organiser.token),
            Some(
                json!({"name": "Strict", "format": "round_robin", "variant": "tablut",
                        "clock": {"kind": "per_move", "seconds": 86400},
                        "max_players": 2, "vacation": "forbidden"}),
            ),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["vacation"], "forbidden");
    let id = created["id"].as_i64().unwrap();
    // A capped rule reads back as it was given; a cap of 0 days is refused.
    let capped = app
        .call(
            Method::POST,
            "/tournaments",
            Some(&organiser.token),
            Some(
                json!({"name": "Capped", "format": "round_robin", "variant": "tablut",
                        "vacation": {"max_days": 3}}),
            ),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(capped["vacation"], json!({ "max_days": 3 }));
    app.call(
        Method::POST,
        "/tournaments",
        Some(&organiser.token),
        Some(
            json!({"name": "Zero", "format": "round_robin", "variant": "tablut",
                    "vacation": {"max_days": 0}}),
        ),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;

    for p in [&a, &b] {
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
    let game = started["rounds"][0]["games"][0]["game_id"]
        .as_i64()
        .unwrap();
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    let (first, second) = if view["attackers"]["player_id"] == a.id {
        (&a, &b)
    } else {
        (&b, &a)
    };
    app.play_line(game, first, second, &["d1-a1", "d5-d1"])
        .await;

    let away = app
        .post("/me/vacation", &first.token, json!({ "days": 3 }))
        .await;
    assert_eq!(away["unprotected_games"], json!([game]));
    app.clock.advance_ms(DAY_MS);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!(
        pass.timeouts, 1,
        "neither the vacation nor a day spent protects it"
    );
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["result"]["reason"], "timeout");
    assert_eq!(view["result"]["winner"], "defenders");
}
