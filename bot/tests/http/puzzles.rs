//! Puzzles over HTTP: mined from an analysed game with a forced escape (its first move proved
//! unique), solved and failed with the ratings moving, exported as an OpenTafl puzzle record.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot_test_support::eventually;

use super::analysis::{done_event, quick_app, scripted_game};
use super::common::{Player, TestApp};

/// Plays the analysis example (a blunder freeing the king's road, the escape missed, the king
/// taken), has it analysed, and waits for the miner to file its puzzles; answers them by ply.
async fn mined_example(app: &TestApp) -> (Player, Player, Vec<Value>) {
    let (a, b, game) = scripted_game(app, false).await;
    let puzzles = analysed_and_mined(app, &a, game).await;
    (a, b, puzzles)
}

/// `who` asks for the analysis of finished `game`; once it is done and the miner has searched
/// the game, its puzzles.
async fn analysed_and_mined(app: &TestApp, who: &Player, game: i64) -> Vec<Value> {
    let mut events = app.service().events().subscribe();
    let queued = app
        .call(
            Method::POST,
            &format!("/games/{game}/analysis"),
            Some(&who.token),
            None,
            StatusCode::ACCEPTED,
        )
        .await;
    done_event(&mut events, queued["id"].as_i64().unwrap()).await;
    let service = app.service().clone();
    let puzzles = eventually(Duration::from_secs(60), "the game's puzzles mined", || {
        let service = service.clone();
        async move {
            let mined = service
                .puzzles()
                .of_game(taflbot::domain::GameId(game))
                .await
                .ok()?;
            mined.mined.then_some(mined.puzzles)
        }
    })
    .await;
    puzzles
        .into_iter()
        .map(|p| serde_json::to_value(p).unwrap())
        .collect()
}

async fn attempt(app: &TestApp, who: &Player, puzzle: i64, moves: &[&str]) -> Value {
    app.post(
        &format!("/puzzles/{puzzle}/attempts"),
        &who.token,
        json!({ "moves": moves }),
    )
    .await
}

#[tokio::test]
async fn a_forced_escape_becomes_a_puzzle_solved_and_failed_with_the_ratings_moving() {
    let app = quick_app(60).await;
    let (a, b, puzzles) = mined_example(&app).await;
    // After a2-b2 (ply 1) the king on a3 escapes to a1, and only there: a puzzle for the
    // defenders, its first move the only winning one.
    let escape = puzzles
        .iter()
        .find(|p| p["theme"] == "escape")
        .unwrap_or_else(|| panic!("no escape puzzle in {puzzles:?}"));
    assert_eq!(escape["ply"], 1, "{escape}");
    assert_eq!(escape["side_to_move"], "defenders");
    assert_eq!(escape["moves_to_find"], 1);
    assert_eq!(escape["hint"], "a3");
    assert_eq!(escape["rating"], 1500.0);
    let id = escape["id"].as_i64().unwrap();

    // A finds it next (nearest 1500, not tried) and solves it: A's rating goes up, the
    // puzzle's down.
    let next = app.get("/puzzles/next?variant=custom", &a.token).await;
    assert!(next["id"].is_i64(), "{next}");
    let solved = attempt(&app, &a, id, &["a3-a1"]).await;
    assert_eq!(solved["result"], "correct", "{solved}");
    assert_eq!(solved["rated"], true);
    assert!(
        solved["player_rating"]["change"].as_f64().unwrap() > 0.0,
        "{solved}"
    );
    assert!(
        solved["puzzle_rating"]["change"].as_f64().unwrap() < 0.0,
        "{solved}"
    );
    assert_eq!(solved["solution"], json!(["a3-a1"]));

    // B walks away instead: wrong, with the engine's refutation and the line; B's rating
    // goes down, the puzzle's up.
    let failed = attempt(&app, &b, id, &["a3-b3"]).await;
    assert_eq!(failed["result"], "wrong", "{failed}");
    assert_eq!(failed["wrong_move"], "a3-b3");
    assert_eq!(failed["refutation"], "b6-b4", "{failed}");
    assert_eq!(failed["solution"], json!(["a3-a1"]));
    assert!(
        failed["player_rating"]["change"].as_f64().unwrap() < 0.0,
        "{failed}"
    );
    assert!(
        failed["puzzle_rating"]["change"].as_f64().unwrap() > 0.0,
        "{failed}"
    );
    let rating = app.get("/puzzles/rating", &b.token).await;
    assert!(rating["rating"].as_f64().unwrap() < 1500.0, "{rating}");
    assert_eq!(rating["attempts"], 1);
    assert_eq!(rating["solved"], 0);

    // A second try changes nothing; a tried puzzle is not offered again.
    let again = attempt(&app, &b, id, &["a3-a1"]).await;
    assert_eq!(again["result"], "correct");
    assert_eq!(again["rated"], false);
    assert!(again["player_rating"].is_null());
    let r = app
        .send(Method::GET, "/puzzles/next", Some(&b.token), None)
        .await;
    if r.status() == StatusCode::OK {
        let next: Value = r.json().await.unwrap();
        assert_ne!(
            next["id"],
            json!(id),
            "a tried puzzle offered again: {next}"
        );
    } else {
        assert_eq!(r.status(), StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_try_with_an_illegal_move_is_refused_and_the_export_carries_the_line_only_after_a_try() {
    let app = quick_app(60).await;
    let (a, _b, puzzles) = mined_example(&app).await;
    let id = puzzles[0]["id"].as_i64().unwrap();
    let refused = app
        .call(
            Method::POST,
            &format!("/puzzles/{id}/attempts"),
            Some(&a.token),
            Some(json!({ "moves": ["a1-a2"] })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert_eq!(refused["error"]["code"], "illegal_move", "{refused}");
    let empty = app
        .call(
            Method::POST,
            &format!("/puzzles/{id}/attempts"),
            Some(&a.token),
            Some(json!({ "moves": [] })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert_eq!(empty["error"]["code"], "invalid");
    // Nothing was rated.
    let rating = app.get("/puzzles/rating", &a.token).await;
    assert_eq!(rating["attempts"], 0);

    // Untried, signed out or signed in: the position to solve, without the line (the answer
    // would win the rated first try).
    let export = format!("/puzzles/{id}/export");
    let untried = app.send(Method::GET, &export, None, None).await;
    assert_eq!(untried.status(), StatusCode::OK);
    let untried = untried.text().await.unwrap();
    let mine = app
        .send(Method::GET, &export, Some(&a.token), None)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(mine, untried);
    assert!(!untried.contains("[puzzle-mode:"), "{untried}");
    assert!(untried.contains("(hint:"), "{untried}");
    let (position, _) = tafl_engine::otg::read(&untried).unwrap();
    assert!(position.history().is_empty(), "no line: {untried}");
    // Failed with a legal move of another piece than the hint's: now the line comes along.
    let hint = puzzles[0]["hint"].as_str().unwrap();
    let wrong = position
        .legal_moves()
        .into_iter()
        .find(|m| m.from.to_string() != hint)
        .unwrap();
    let failed = app
        .post(
            &format!("/puzzles/{id}/attempts"),
            &a.token,
            json!({ "moves": [wrong.to_string()] }),
        )
        .await;
    assert_eq!(failed["result"], "wrong", "{failed}");
    let r = app.send(Method::GET, &export, Some(&a.token), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let record = r.text().await.unwrap();
    assert!(record.contains("[puzzle-mode:strict]"), "{record}");
    assert!(record.contains("[puzzle-start:1a]"), "{record}");
    assert!(record.contains("(hint:"), "{record}");
    // The engine reads it back: the position and the line.
    let (game, _) = tafl_engine::otg::read(&record).unwrap();
    assert!(game.is_over(), "{record}");
    // Still without it for anyone who has not tried.
    let anyone = app.send(Method::GET, &export, None, None).await;
    assert_eq!(anyone.text().await.unwrap(), untried);

    let missing = app
        .call(
            Method::GET,
            "/puzzles/999999",
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert_eq!(missing["error"]["code"], "not_found");
}

#[tokio::test]
async fn the_web_puzzle_page_offers_the_moves_a_hint_and_answers_a_try() {
    use super::web_sessions::{browserless, signed_in};
    use reqwest::header::{COOKIE, LOCATION};

    let app = quick_app(60).await;
    let (a, _b, puzzles) = mined_example(&app).await;
    let escape = puzzles.iter().find(|p| p["theme"] == "escape").unwrap();
    let id = escape["id"].as_i64().unwrap();
    let (cookie, csrf) = signed_in(&app, &a).await;
    let get = |path: String| {
        let cookie = cookie.clone();
        let base = app.base.clone();
        async move {
            browserless()
                .get(format!("{base}{path}"))
                .header(COOKIE, cookie)
                .send()
                .await
                .unwrap()
        }
    };
    let next = get("/puzzles?variant=custom".into()).await;
    assert!(next.status().is_redirection(), "{}", next.status());
    assert!(
        next.headers()[LOCATION]
            .to_str()
            .unwrap()
            .starts_with("/puzzles/")
    );
    let page = get(format!("/puzzles/{id}")).await.text().await.unwrap();
    assert!(
        page.contains("defenders to move: the king escapes in 1"),
        "{page}"
    );
    assert!(page.contains("<option value=\"a3-a1\">"), "{page}");
    assert!(
        page.contains("Move the piece on <strong>a3</strong>"),
        "{page}"
    );
    assert!(page.contains("<svg"), "the board is drawn");

    // A wrong try: the refutation, the line and the rating change.
    let answer = browserless()
        .post(format!("{}/puzzles/{id}", app.base))
        .header(COOKIE, &cookie)
        .form(&[("csrf", csrf.as_str()), ("moves", ""), ("move", "a3-b3")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let page = answer.text().await.unwrap();
    assert!(page.contains("Not this time: a3-b3"), "{page}");
    assert!(page.contains("b6-b4"), "the refutation: {page}");
    assert!(page.contains("The line: a3-a1"), "{page}");
    assert!(page.contains("My puzzle rating: 1500 →"), "{page}");

    // Without the session's CSRF token: refused, nothing tried.
    let forged = browserless()
        .post(format!("{}/puzzles/{id}", app.base))
        .header(COOKIE, &cookie)
        .form(&[("csrf", "0"), ("moves", ""), ("move", "a3-a1")])
        .send()
        .await
        .unwrap();
    assert!(forged.status().is_client_error(), "{}", forged.status());
}

#[tokio::test]
async fn refutations_have_the_engine_cooldown_of_hints() {
    let app = TestApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 60;
        c.games.analysis_threads = 1;
        c.games.hint_cooldown_secs = 30;
    })
    .await;
    let (_a, b, puzzles) = mined_example(&app).await;
    let escape = puzzles.iter().find(|p| p["theme"] == "escape").unwrap();
    let id = escape["id"].as_i64().unwrap();
    // The first wrong try is answered with the engine's refutation.
    let first = attempt(&app, &b, id, &["a3-b3"]).await;
    assert_eq!(first["refutation"], "b6-b4", "{first}");
    // Again at once: the try is answered, its refutation left out (each is a search).
    let again = attempt(&app, &b, id, &["a3-b3"]).await;
    assert_eq!(again["result"], "wrong", "{again}");
    assert!(again["refutation"].is_null(), "{again}");
    // Once the cooldown is over, the engine answers again.
    app.clock.advance_ms(30_000);
    let later = attempt(&app, &b, id, &["a3-b3"]).await;
    assert_eq!(later["refutation"], "b6-b4", "{later}");
}

/// A game that starts where the defenders escape in 2 (the king on b3 reaches b7, beside the
/// corner a7 with the top edge open to g7: two ways out), played on quietly and resigned,
/// analysed and mined; the puzzle of its start.
async fn escape_in_two(app: &TestApp) -> (Player, Player, Value) {
    let rules = tafl_engine::variant("brandubh")
        .unwrap()
        .rules_string
        .replace("atkf:y", "atkf:n")
        .replace(
            "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "start:/1t5/7/tK4t/7/7/7/7/",
        );
    let a = app.register("Astrid").await;
    let b = app.register("Ragnar").await;
    let challenge = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "rules": rules, "side": "attackers" }),
        )
        .await;
    let game = app
        .post(
            &format!("/challenges/{challenge}/accept"),
            &b.token,
            json!({}),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    // The defenders move first and miss it; then they resign.
    app.play_line(game, &b, &a, &["b3-c3", "g3-g2"]).await;
    app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
        .await;
    let puzzles = analysed_and_mined(app, &a, game).await;
    let puzzle = puzzles
        .into_iter()
        .find(|p| p["ply"] == 0)
        .unwrap_or_else(|| panic!("no puzzle at the start"));
    (a, b, puzzle)
}

#[tokio::test]
async fn an_escape_in_two_is_solved_move_by_move_and_a_wrong_second_move_is_refuted() {
    let app = quick_app(60).await;
    let (a, b, puzzle) = escape_in_two(&app).await;
    assert_eq!(puzzle["theme"], "escape", "{puzzle}");
    assert_eq!(puzzle["side_to_move"], "defenders");
    assert_eq!(puzzle["moves_to_find"], 2, "{puzzle}");
    assert_eq!(puzzle["hint"], "b3");
    let id = puzzle["id"].as_i64().unwrap();

    // The first move alone: right, the attackers' reply, the next piece to move.
    let going = attempt(&app, &a, id, &["b3-b7"]).await;
    assert_eq!(going["result"], "continue", "{going}");
    assert_eq!(going["replies"].as_array().unwrap().len(), 1, "{going}");
    assert_eq!(going["next_hint"], "b7", "{going}");
    assert_eq!(going["rated"], false);

    // A wrong second move ends the try: refuted by the engine, the line shown, rated.
    let failed = attempt(&app, &a, id, &["b3-b7", "b7-b6"]).await;
    assert_eq!(failed["result"], "wrong", "{failed}");
    assert_eq!(failed["wrong_move"], "b7-b6");
    assert!(failed["refutation"].is_string(), "{failed}");
    assert_eq!(failed["solution"].as_array().unwrap().len(), 3, "{failed}");
    assert_eq!(failed["solution"][0], "b3-b7");
    assert!(
        failed["player_rating"]["change"].as_f64().unwrap() < 0.0,
        "{failed}"
    );

    // Both moves right: solved.
    let solved = attempt(&app, &b, id, &["b3-b7", "b7-a7"]).await;
    assert_eq!(solved["result"], "correct", "{solved}");
    assert_eq!(solved["rated"], true);
}
