use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{T0, TestApp, wire};

const DAY_MS: i64 = 86_400_000;

#[tokio::test]
async fn a_reminder_comes_before_the_deadline_and_the_game_ends_on_time() {
    let app = TestApp::start_with(|c| c.games.reminders_before_secs = vec![6 * 3600]).await;
    let (a, b, game) = app
        .game_between_a_and_b_on("tablut", json!({ "kind": "per_move", "seconds": 86400 }))
        .await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["deadline_at"], T0 + DAY_MS);
    let mut events = app.service().events().subscribe();

    // Nothing is due at first.
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!((pass.timeouts, pass.reminders), (0, 0));
    // 19 hours in: within 6 hours of the deadline, one reminder (not repeated).
    app.clock.advance_ms(19 * 3600 * 1000);
    assert_eq!(
        app.service().scheduler().run_due().await.unwrap().reminders,
        1
    );
    assert_eq!(
        app.service().scheduler().run_due().await.unwrap().reminders,
        0
    );
    let e = wire(&events.recv().await.unwrap());
    assert_eq!(e["kind"], "deadline_reminder");
    assert_eq!(e["players"], json!([a.id]));
    assert_eq!(e["data"]["deadline_at"], T0 + DAY_MS);

    // A move resets the deadline for the other player.
    app.play_line(game, &a, &b, &["d1-a1"]).await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["deadline_at"], T0 + 19 * 3600 * 1000 + DAY_MS);
    // Both have moved, so running out of time now loses (before, it would abort).
    app.play_line(game, &b, &a, &["d5-d1"]).await;

    // The scheduler's pass after a restart still finds the overdue game.
    let app = app.restart().await;
    app.clock.advance_ms(DAY_MS);
    assert_eq!(
        app.service().scheduler().run_due().await.unwrap().timeouts,
        1
    );
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"]["winner"], "defenders");
    assert_eq!(view["result"]["reason"], "timeout");
}

#[tokio::test]
async fn a_move_after_the_deadline_is_refused_and_ends_the_game() {
    // Seconds, not days, keep the arithmetic readable: no minimum clock here.
    let app = TestApp::start_with(|c| c.games.min_move_clock_secs = 0).await;
    let (a, b, game) = app
        .game_between_a_and_b_on(
            "tablut",
            json!({ "kind": "bank", "bank_seconds": 600, "increment_seconds": 30 }),
        )
        .await;
    app.clock.advance_ms(100_000);
    let played = app.play_line(game, &a, &b, &["d1-a1"]).await;
    // Defenders' bank is untouched: their deadline is a full 600 s away.
    assert_eq!(played["deadline_at"], T0 + 100_000 + 600_000);
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["attackers_bank_ms"], 600_000 - 100_000 + 30_000);
    // Both sides move once (running out before one's first move aborts instead).
    app.play_line(game, &b, &a, &["d5-d1"]).await;
    app.clock.advance_ms(530_001);
    let e = app
        .call(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&a.token),
            Some(json!({ "move": "a1-a2", "ply": 2 })),
            StatusCode::CONFLICT,
        )
        .await;
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ran out of time"),
        "{e}"
    );
    assert_eq!(e["error"]["game"]["result"]["reason"], "timeout");
    assert_eq!(e["error"]["game"]["result"]["winner"], "defenders");
}

#[tokio::test]
async fn pending_challenges_expire() {
    let app = TestApp::start_with(|c| c.games.challenge_expiry_secs = 3600).await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let id = app
        .challenge(&a, json!({ "opponent_id": b.id, "variant": "tablut" }))
        .await;
    app.clock.advance_ms(3_600_000);
    // Expired even before the scheduler runs.
    app.call(
        Method::POST,
        &format!("/challenges/{id}/accept"),
        Some(&b.token),
        None,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(
        app.service()
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .expired_challenges,
        1
    );
    let lists = app.get("/challenges", &b.token).await;
    assert!(lists["incoming"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_bank_is_topped_up_to_at_most_its_cap() {
    let app = TestApp::start_with(|c| {
        c.games.max_bank_ratio = 2.0;
        // Seconds, not days, keep the arithmetic readable: no minimum clock here.
        c.games.min_move_clock_secs = 0;
    })
    .await;
    // A 1000 s bank with 400 s per move: the cap is 2000 s.
    let (a, b, game) = app
        .game_between_a_and_b_on(
            "tablut",
            json!({ "kind": "bank", "bank_seconds": 1000, "increment_seconds": 400 }),
        )
        .await;
    let moves = ["d1-a1", "d5-d1", "a1-a2", "d1-c1", "a2-a1", "c1-d1"];
    let mut banks = Vec::new();
    for (ply, mv) in moves.iter().enumerate() {
        let (mover, side) = if ply % 2 == 0 {
            (&a, "attackers")
        } else {
            (&b, "defenders")
        };
        app.clock.advance_ms(100_000);
        app.post(
            &format!("/games/{game}/moves"),
            &mover.token,
            json!({ "move": mv, "ply": ply }),
        )
        .await;
        let view = app.get(&format!("/games/{game}"), &a.token).await;
        banks.push(view[format!("{side}_bank_ms")].as_i64().unwrap());
    }
    // Each move spends 100 s and gains 400 s until the 2000 s cap.
    assert_eq!(
        banks,
        [
            1_300_000, 1_300_000, 1_600_000, 1_600_000, 1_900_000, 1_900_000
        ]
    );
    app.clock.advance_ms(100_000);
    let played = app
        .post(
            &format!("/games/{game}/moves"),
            &a.token,
            json!({ "move": "a1-a2", "ply": 6 }),
        )
        .await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["attackers_bank_ms"], 2_000_000, "capped, not 2200 s");
    // The defenders' deadline is their own bank away.
    assert_eq!(played["deadline_at"], T0 + 700_000 + 1_900_000);
}

/// Starts a one-day-per-move tablut game between two new players (A attacks, moves first).
async fn day_per_move_game(app: &TestApp) -> (crate::common::Player, crate::common::Player, i64) {
    let (a, b, game) = app
        .game_between_a_and_b_on("tablut", json!({ "kind": "per_move", "seconds": 86400 }))
        .await;
    (a, b, game)
}

#[tokio::test]
async fn a_game_whose_first_mover_never_moved_is_aborted_not_lost() {
    let app = TestApp::start().await;
    let (a, _b, game) = day_per_move_game(&app).await;
    let mut events = app.service().events().subscribe();
    app.clock.advance_ms(DAY_MS);
    assert_eq!(
        app.service().scheduler().run_due().await.unwrap().timeouts,
        1
    );
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["status"], "aborted");
    assert_eq!(view["result"]["winner"], serde_json::Value::Null);
    assert_eq!(view["result"]["reason"], "no_first_move");
    let e = wire(&events.recv().await.unwrap());
    assert_eq!(e["kind"], "game_ended");
    assert_eq!(e["data"]["status"], "aborted");
    assert_eq!(e["data"]["winner"], serde_json::Value::Null);
    assert_eq!(e["data"]["reason"], "no_first_move");
}

#[tokio::test]
async fn a_game_whose_second_player_never_answered_is_aborted_not_lost() {
    let app = TestApp::start().await;
    let (a, b, game) = day_per_move_game(&app).await;
    app.play_line(game, &a, &b, &["d1-a1"]).await;
    app.clock.advance_ms(DAY_MS);
    // Found by a late move before the scheduler runs: refused, and the game is aborted.
    let e = app
        .call(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&b.token),
            Some(json!({ "move": "d5-d1", "ply": 1 })),
            StatusCode::CONFLICT,
        )
        .await;
    let message = e["error"]["message"].as_str().unwrap();
    assert!(message.contains("did not make their first move"), "{e}");
    assert_eq!(e["error"]["game"]["status"], "aborted");
    assert_eq!(e["error"]["game"]["result"]["reason"], "no_first_move");
    assert_eq!(
        e["error"]["game"]["result"]["winner"],
        serde_json::Value::Null
    );
}

#[tokio::test]
async fn a_timeout_once_both_have_moved_is_still_a_loss() {
    let app = TestApp::start().await;
    let (a, b, game) = day_per_move_game(&app).await;
    app.play_line(game, &a, &b, &["d1-a1", "d5-d1"]).await;
    app.clock.advance_ms(DAY_MS);
    assert_eq!(
        app.service().scheduler().run_due().await.unwrap().timeouts,
        1
    );
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"]["winner"], "defenders");
    assert_eq!(view["result"]["reason"], "timeout");
}

#[tokio::test]
async fn a_clock_under_the_servers_shortest_per_move_is_refused_saying_why() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let refused = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({
                "opponent_id": b.id, "variant": "brandubh", "side": "attackers",
                "clock": { "kind": "per_move", "seconds": 5 },
            })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    let said = refused["error"]["message"].as_str().unwrap();
    assert!(
        said.contains("5 seconds per move is too short") && said.contains("1 hour per move"),
        "{refused}"
    );
    // An hour is enough.
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({
            "opponent_id": b.id, "variant": "brandubh", "side": "attackers",
            "clock": { "kind": "per_move", "seconds": 3600 },
        })),
        StatusCode::CREATED,
    )
    .await;
}

#[tokio::test]
async fn the_webs_new_game_against_the_ai_has_no_clock_unless_asked() {
    use crate::web_sessions::{browserless, signed_in};
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let (cookie, csrf) = signed_in(&app, &a).await;
    let answer = browserless()
        .post(format!("{}/challenges", app.base))
        .header(reqwest::header::COOKIE, &cookie)
        .form(&[
            ("csrf", csrf.as_str()),
            ("opponent", "ai"),
            ("variant", "brandubh"),
            ("side", "attackers"),
            ("days", ""),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let to = answer.headers()[reqwest::header::LOCATION]
        .to_str()
        .unwrap();
    let game = to.trim_start_matches("/games/");
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["clock"]["kind"], "unlimited", "{view}");
    assert!(view["deadline_at"].is_null(), "{view}");
}
