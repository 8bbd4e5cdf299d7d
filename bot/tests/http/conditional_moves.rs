//! Conditional moves over HTTP: queued while the opponent is to move, answered in the commit
//! of the opponent's move, hidden from the opponent, dropped when the game goes another way,
//! every move checked when queued, and a race between a move and new lines with one winner.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp};

fn path(game: i64) -> String {
    format!("/games/{game}/conditional-moves")
}

async fn queue(app: &TestApp, game: i64, who: &Player, body: Value, status: StatusCode) -> Value {
    app.call(
        Method::PUT,
        &path(game),
        Some(&who.token),
        Some(body),
        status,
    )
    .await
}

async fn moves_of(app: &TestApp, game: i64, who: &Player) -> Vec<String> {
    app.get(&format!("/games/{game}"), &who.token).await["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("game {game} has a move list"))
        .iter()
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// A (attackers) opens with d1-b1 in Copenhagen; B (defenders) is to move at ply 1.
async fn opened(app: &TestApp) -> (Player, Player, i64) {
    let (a, b, game) = app.game_between_a_and_b("copenhagen").await;
    app.play_line(game, &a, &b, &["d1-b1"]).await;
    (a, b, game)
}

#[tokio::test]
async fn a_queued_line_is_answered_in_the_opponents_commit_and_its_rest_waits_hidden() {
    let app = TestApp::start().await;
    let (a, b, game) = opened(&app).await;
    let queued = queue(
        &app,
        game,
        &a,
        json!({ "ply": 1, "lines": [["F4-B4", "b1 c1", "b4-f4", "c1-b1"], ["h6-h2", "a4-b4"]] }),
        StatusCode::OK,
    )
    .await;
    // Stored in the referee's own notation.
    assert_eq!(
        queued,
        json!({ "game_id": game, "ply": 1, "lines": [["f4-b4", "b1-c1", "b4-f4", "c1-b1"], ["h6-h2", "a4-b4"]] })
    );
    // The opponent sees none of it.
    let theirs = app.get(&path(game), &b.token).await;
    assert_eq!(theirs["lines"], json!([]), "{theirs}");
    let view = app.get(&format!("/games/{game}"), &b.token).await;
    assert!(!view.to_string().contains("c1-b1"), "{view}");

    let answer = app
        .post(
            &format!("/games/{game}/moves"),
            &b.token,
            json!({ "move": "f4-b4", "ply": 1 }),
        )
        .await;
    assert_eq!(answer["ply"], 2, "the answer is to B's own move: {answer}");
    // A's answer is already there for anyone who reads the game after B's move.
    assert_eq!(moves_of(&app, game, &b).await, ["d1-b1", "f4-b4", "b1-c1"]);
    let view = app.get(&format!("/games/{game}"), &b.token).await;
    assert_eq!(view["your_turn"], true, "{view}");
    let rest = app.get(&path(game), &a.token).await;
    assert_eq!(
        rest,
        json!({ "game_id": game, "ply": 3, "lines": [["b4-f4", "c1-b1"]] })
    );

    app.post(
        &format!("/games/{game}/moves"),
        &b.token,
        json!({ "move": "b4-f4", "ply": 3 }),
    )
    .await;
    assert_eq!(
        moves_of(&app, game, &b).await,
        ["d1-b1", "f4-b4", "b1-c1", "b4-f4", "c1-b1"]
    );
    let spent = app.get(&path(game), &a.token).await;
    assert_eq!(
        spent["lines"],
        json!([]),
        "a line played to its end is gone: {spent}"
    );
}

#[tokio::test]
async fn a_move_no_line_expected_drops_every_line_and_delete_drops_them_too() {
    let app = TestApp::start().await;
    let (a, b, game) = opened(&app).await;
    queue(
        &app,
        game,
        &a,
        json!({ "lines": [["f4-b4", "b1-c1"]] }),
        StatusCode::OK,
    )
    .await;
    app.post(
        &format!("/games/{game}/moves"),
        &b.token,
        json!({ "move": "h6-h2", "ply": 1 }),
    )
    .await;
    assert_eq!(moves_of(&app, game, &a).await, ["d1-b1", "h6-h2"]);
    assert_eq!(app.get(&path(game), &a.token).await["lines"], json!([]));

    // A moves, queues an answer to B's reply, then thinks better of it.
    app.post(
        &format!("/games/{game}/moves"),
        &a.token,
        json!({ "move": "b1-c1", "ply": 2 }),
    )
    .await;
    queue(
        &app,
        game,
        &a,
        json!({ "lines": [["h2-h3", "c1-b1"]] }),
        StatusCode::OK,
    )
    .await;
    app.call(
        Method::DELETE,
        &path(game),
        Some(&a.token),
        None,
        StatusCode::NO_CONTENT,
    )
    .await;
    app.post(
        &format!("/games/{game}/moves"),
        &b.token,
        json!({ "move": "h2-h3", "ply": 3 }),
    )
    .await;
    assert_eq!(
        moves_of(&app, game, &a).await,
        ["d1-b1", "h6-h2", "b1-c1", "h2-h3"],
        "no answer after the lines were dropped"
    );
}

#[tokio::test]
async fn lines_are_checked_when_queued_and_refusals_say_which_move_and_why() {
    let app = TestApp::start().await;
    let (a, b, game) = opened(&app).await;
    let refused = |body: Value, status: StatusCode| {
        let (app, a) = (&app, &a);
        async move { queue(app, game, a, body, status).await["error"].clone() }
    };
    let illegal = refused(
        json!({ "lines": [["f4-b4", "b1-c1"], ["f4-b4", "b1-c1", "b4-f4", "b1-b9"]] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(illegal["code"], "illegal_move", "{illegal}");
    let message = illegal["message"].as_str().unwrap_or_default();
    assert!(message.contains("line 2, move 4"), "{message}");
    let odd = refused(
        json!({ "lines": [["f4-b4"]] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        odd["message"]
            .as_str()
            .unwrap_or_default()
            .contains("line 1 must pair"),
        "{odd}"
    );
    let two = refused(
        json!({ "lines": [["f4-b4", "b1-c1"], ["f4-b4", "a4-a3"]] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        two["message"]
            .as_str()
            .unwrap_or_default()
            .contains("answer `f4-b4` differently"),
        "{two}"
    );
    let stale = refused(
        json!({ "ply": 0, "lines": [["f4-b4", "b1-c1"]] }),
        StatusCode::CONFLICT,
    )
    .await;
    assert!(
        stale["message"]
            .as_str()
            .unwrap_or_default()
            .contains("moved on"),
        "{stale}"
    );
    // B is to move: B plays rather than queues.
    let own_turn = queue(
        &app,
        game,
        &b,
        json!({ "lines": [["b1-c1", "f4-b4"]] }),
        StatusCode::CONFLICT,
    )
    .await;
    assert!(
        own_turn["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("it is your move")
    );
    // Nothing was stored by any refusal.
    assert_eq!(app.get(&path(game), &a.token).await["lines"], json!([]));

    let stranger = app.register("C").await;
    app.call(
        Method::GET,
        &path(game),
        Some(&stranger.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;

    // Against the AI there is nothing to wait for.
    let solo = app
        .call(
            Method::POST,
            "/challenges",
            Some(&stranger.token),
            Some(json!({ "ai_level": 1, "variant": "copenhagen", "side": "defenders" })),
            StatusCode::CREATED,
        )
        .await["game"]["id"]
        .as_i64()
        .unwrap_or_default();
    let ai = queue(
        &app,
        solo,
        &stranger,
        json!({ "lines": [["d1-b1", "f4-b4"]] }),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        ai["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("against people"),
        "{ai}"
    );
}

/// The opponent's move and new lines race: whichever commits first wins whole. Lines queued
/// first answer the move; lines sent after the move are refused as stale and the old lines
/// answered it.
#[tokio::test]
async fn a_move_racing_a_change_of_the_lines_is_answered_by_exactly_one_set() {
    let app = TestApp::start().await;
    for _ in 0..8 {
        let (a, b, game) = opened(&app).await;
        queue(
            &app,
            game,
            &a,
            json!({ "ply": 1, "lines": [["f4-b4", "b1-c1"]] }),
            StatusCode::OK,
        )
        .await;
        let (lines_path, moves_path) = (path(game), format!("/games/{game}/moves"));
        let change = app.send(
            Method::PUT,
            &lines_path,
            Some(&a.token),
            Some(json!({ "ply": 1, "lines": [["f4-b4", "a4-a3"]] })),
        );
        let mv = app.send(
            Method::POST,
            &moves_path,
            Some(&b.token),
            Some(json!({ "move": "f4-b4", "ply": 1 })),
        );
        let (change, mv) = tokio::join!(change, mv);
        assert_eq!(mv.status(), StatusCode::OK);
        let moves = moves_of(&app, game, &b).await;
        match change.status() {
            StatusCode::OK => {
                assert_eq!(moves, ["d1-b1", "f4-b4", "a4-a3"], "new lines came first");
            }
            StatusCode::CONFLICT => {
                assert_eq!(moves, ["d1-b1", "f4-b4", "b1-c1"], "the move came first");
            }
            other => panic!("the change answered {other}"),
        }
        assert_eq!(app.get(&path(game), &a.token).await["lines"], json!([]));
    }
}
