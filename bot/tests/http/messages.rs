//! Every refusal says once, in the API's terms, what was wrong and what is allowed: the exact
//! message of each kind of bad input, endpoint by endpoint.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

/// Method, path, body, and the status, code and message of the answer.
type Case<'a> = (
    Method,
    String,
    Option<&'a str>,
    StatusCode,
    &'a str,
    &'a str,
);

/// The body limit these tests run with, so the 413 names it.
const LIMIT: usize = 2048;

#[tokio::test]
async fn each_bad_input_gets_one_sentence_naming_what_is_allowed() {
    let app = TestApp::start_with(|c| c.http.body_limit_bytes = LIMIT).await;
    let (a, _b, game) = app.game_between_a_and_b("copenhagen").await;
    let moves = format!("/games/{game}/moves");
    let board = format!("/games/{game}/board.png");
    let legal = format!("/games/{game}/legal-moves");
    let big = format!(r#"{{"move":"{}","ply":0}}"#, "x".repeat(LIMIT));
    let cases: Vec<Case> = vec![
        // Bodies: one sentence per field, in JSON's terms, never a Rust type's name.
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"f4","ply":0}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
            r#"illegal move: "f4" is not a move: write the start square and the end square, like e5-e8 (or e5 e8, e5e8)"#,
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"d1-d4"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "ply is required",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"d1-d4","ply":-1}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "ply must be a whole number from 0 to 4294967295, not -1",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"d1-d4","ply":"x"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            r#"ply must be a whole number from 0 to 4294967295, not "x""#,
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":4,"ply":0}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "move must be a string, not 4",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"d1-d4","ply":0,"x":1}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            r#"unknown field "x": the body takes move, ply"#,
        ),
        (
            Method::POST,
            moves.clone(),
            Some("[1]"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "the body must be a JSON object, not a list",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(r#"{"move":"#),
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "the body is not valid JSON: EOF while parsing a value at line 1 column 8",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(""),
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "the body is empty: send a JSON object",
        ),
        (
            Method::POST,
            moves.clone(),
            Some(&big),
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            "the body is larger than the limit of 2048 bytes",
        ),
        (
            Method::POST,
            "/challenges".into(),
            Some(r#"{"clock":{"kind":"sometimes"}}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            r#"clock.kind must be one of unlimited, per_move, bank, not "sometimes""#,
        ),
        (
            Method::POST,
            "/challenges".into(),
            Some(r#"{"clock":{"kind":"per_move"}}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "clock.seconds is required",
        ),
        (
            Method::POST,
            "/challenges".into(),
            Some(r#"{"side":"up"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            r#"side must be one of attackers, defenders, random, not "up""#,
        ),
        (
            Method::POST,
            "/challenges".into(),
            Some(r#"{"opponent_id":"x"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            r#"opponent_id must be a whole number, not "x""#,
        ),
        (
            Method::POST,
            "/challenges".into(),
            Some(r#"{"ai_level":900}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            "AI level must be between 1 and 5",
        ),
        (
            Method::POST,
            "/players".into(),
            Some(r#"{"name":["a"]}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            "name must be a string, not a list",
        ),
        // Paths: every id is a whole number from 1 up.
        (
            Method::GET,
            "/games/abc".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_path",
            r#""abc" is not a game id: ids are whole numbers from 1 up"#,
        ),
        (
            Method::POST,
            "/challenges/x1/accept".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_path",
            r#""x1" is not a challenge id: ids are whole numbers from 1 up"#,
        ),
        (
            Method::DELETE,
            "/webhooks/abc".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_path",
            r#""abc" is not a webhook id: ids are whole numbers from 1 up"#,
        ),
        // Queries: values of the wrong kind, and names a route does not take.
        (
            Method::GET,
            format!("{board}?ply=abc"),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"ply must be a whole number, not "abc""#,
        ),
        (
            Method::GET,
            format!("{board}?flip=maybe"),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"flip must be true or false, not "maybe""#,
        ),
        (
            Method::GET,
            format!("{board}?theme=pink"),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            r#"theme must be light or dark, not "pink""#,
        ),
        (
            Method::GET,
            format!("{board}?size=3"),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"unknown query parameter "size": this endpoint takes ply, flip, theme"#,
        ),
        (
            Method::GET,
            "/games?status=active".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"unknown query parameter "status": this endpoint takes no query parameters"#,
        ),
        (
            Method::GET,
            format!("/games/{game}?x=1&y=2&x=3"),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"unknown query parameters "x", "y": this endpoint takes no query parameters"#,
        ),
        (
            Method::GET,
            "/stream/events?sinse=1".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"unknown query parameter "sinse": this endpoint takes since"#,
        ),
        (
            Method::GET,
            "/stream/events?since=abc".into(),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"since must be a whole number, not "abc""#,
        ),
        (
            Method::GET,
            format!("{legal}?side=up"),
            None,
            StatusCode::BAD_REQUEST,
            "bad_query",
            r#"side must be attackers or defenders, not "up""#,
        ),
        (
            Method::GET,
            format!("{legal}?from=zz99"),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            r#"from: "zz99" is not a square: write a file letter then a rank number, like e5"#,
        ),
    ];
    for (method, path, body, status, code, message) in cases {
        let r = app
            .send_raw(method.clone(), &path, Some(&a.token), body)
            .await;
        let got = r.status();
        let e: serde_json::Value = r.json().await.unwrap();
        assert_eq!(got, status, "{method} {path}: {e}");
        assert_eq!(e["error"]["code"], code, "{method} {path}: {e}");
        assert_eq!(e["error"]["message"], message, "{method} {path}");
    }
}

#[tokio::test]
async fn a_ply_ahead_of_the_game_says_how_many_moves_were_played() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("copenhagen").await;
    let path = format!("/games/{game}/moves");
    let send = |ply: u32| {
        app.call(
            Method::POST,
            &path,
            Some(&a.token),
            Some(json!({ "move": "d1-d4", "ply": ply })),
            StatusCode::CONFLICT,
        )
    };
    let e = send(14).await;
    assert_eq!(
        e["error"]["message"],
        "ply 14 is ahead of the game: 0 moves have been played"
    );
    assert_eq!(e["error"]["game"]["ply"], 0);
    app.play_line(game, &a, &b, &["d1-d4"]).await;
    let e = app
        .call(
            Method::POST,
            &path,
            Some(&b.token),
            Some(json!({ "move": "f4-f1", "ply": 3 })),
            StatusCode::CONFLICT,
        )
        .await;
    assert_eq!(
        e["error"]["message"],
        "ply 3 is ahead of the game: 1 move has been played"
    );
    let e = app
        .call(
            Method::POST,
            &path,
            Some(&b.token),
            Some(json!({ "move": "f4-f1", "ply": 0 })),
            StatusCode::CONFLICT,
        )
        .await;
    assert_eq!(
        e["error"]["message"],
        "the game has moved on: you sent ply 0, it is at ply 1"
    );
}
