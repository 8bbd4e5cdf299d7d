//! The analysis board without a browser: the page and its changing part (`/analysis/board`),
//! which carries the legal moves of the position shown and answers a move with the board after
//! it (or the referee's reason); a game's board and who may open it; the engine's line (signed
//! in, the CSRF token, one search at a time per viewer). The browser side is
//! tests/tests/e2e/web_analysis_board.rs.

use reqwest::StatusCode;
use reqwest::header::COOKIE;
use taflbot::domain::{GameId, PlayerId};
use taflbot::service::ServiceError;
use taflbot::service::analysis::board::{BoardAsk, BoardFrom};

use super::analysis::{quick_app, scripted_game};
use super::common::TestApp;
use super::web_sessions::{browserless, signed_in};

/// `path` as a visitor with `cookie` (if any) gets it: the status and the text.
async fn get(app: &TestApp, path: &str, cookie: Option<&str>) -> (StatusCode, String) {
    let mut request = browserless().get(format!("{}{path}", app.base));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let answer = request.send().await.unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// The value of `data-NAME="..."` in `html` (the first one).
fn data<'a>(html: &'a str, name: &str) -> &'a str {
    let key = format!("data-{name}=\"");
    let start = html
        .find(&key)
        .unwrap_or_else(|| panic!("no data-{name} in {html}"))
        + key.len();
    &html[start..start + html[start..].find('"').unwrap()]
}

fn legal(part: &str) -> Vec<String> {
    serde_json::from_str(&data(part, "legal").replace("&quot;", "\"")).unwrap()
}

#[tokio::test]
async fn each_step_carries_the_legal_moves_and_a_move_answers_the_board_after_it() {
    let app = TestApp::start().await;
    let (status, start) = get(&app, "/analysis/board?variant=brandubh", None).await;
    assert_eq!(status, StatusCode::OK, "{start}");
    let moves = legal(&start);
    // Brandubh's attackers have 40 moves at the start (the engine's perft figure).
    assert_eq!(moves.len(), 40, "{moves:?}");
    assert!(moves.contains(&"d1-c1".to_owned()));
    assert_eq!(data(&start, "link"), "/analysis?variant=brandubh");

    // A move for the attackers, then one for the defenders: both sides may move.
    let (status, after) = get(&app, "/analysis/board?variant=brandubh&play=d1-c1", None).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(data(&after, "at"), "1");
    assert!(after.contains("Defenders to move."), "{after}");
    assert!(legal(&after).contains(&"d3-e3".to_owned()));
    let link = data(&after, "link").replace("&amp;", "&");
    assert_eq!(link, "/analysis?variant=brandubh&moves=d1-c1&at=1");
    let (_, answer) = get(
        &app,
        &format!("/analysis/board?{}&play=d3e3", &link[10..]),
        None,
    )
    .await;
    assert_eq!(
        data(&answer, "link").replace("&amp;", "&"),
        "/analysis?variant=brandubh&moves=d1-c1+d3-e3&at=2"
    );

    // From the start again, another first move: a variation to d1-c1, written (and numbered)
    // right after it.
    let (_, branched) = get(
        &app,
        "/analysis/board?variant=brandubh&moves=d1-c1+d3-e3&at=0&play=a4-a3",
        None,
    )
    .await;
    assert_eq!(
        data(&branched, "link").replace("&amp;", "&"),
        "/analysis?variant=brandubh&moves=d1-c1+%28a4-a3%29+d3-e3&at=2"
    );
    assert!(branched.contains("class=\"variation\""), "{branched}");

    // The referee's refusals, in words, never a 500.
    let (status, illegal) = get(&app, "/analysis/board?variant=brandubh&play=d1-d7", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(illegal.starts_with("illegal move: "), "{illegal}");
    let (status, broken) = get(&app, "/analysis/board?variant=brandubh&moves=d1-c1+(", None).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(broken, "a variation \"(\" is never closed with \")\"");
}

#[tokio::test]
async fn a_games_board_is_for_those_who_may_analyse_it() {
    let app = quick_app(20).await;
    let (_, _, game) = scripted_game(&app, false).await;
    // A finished game: anyone, at the move asked for, with the game's moves as the main line.
    let (status, page) = get(&app, &format!("/analysis?game={game}&ply=1"), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(data(&page, "at"), "1");
    let link = data(&page, "link").replace("&amp;", "&");
    assert!(link.contains("&moves=a2-b2+a3-b3+b6-b4&at=1"), "{link}");
    assert!(
        link.starts_with("/analysis?rules="),
        "custom rules travel whole: {link}"
    );
    // The link alone reopens the same board.
    let (status, again) = get(&app, &link, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(data(&again, "legal"), data(&page, "legal"));

    // A game still being played between two people: not for a spectator, nor its players.
    let (b, _, live) = app.game_between_a_and_b("brandubh").await;
    let (status, refused) = get(&app, &format!("/analysis?game={live}"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(refused.contains("still being played"), "{refused}");
    let (cookie, _) = signed_in(&app, &b).await;
    let (status, _) = get(&app, &format!("/analysis?game={live}"), Some(&cookie)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_engine_answers_signed_in_viewers_one_search_at_a_time() {
    let app = quick_app(20).await;
    let (a, _, game) = scripted_game(&app, false).await;
    let (_, page) = get(&app, &format!("/analysis?game={game}&ply=1"), None).await;
    let link = data(&page, "link").replace("&amp;", "&");
    let mut form: Vec<(String, String)> =
        serde_urlencoded::from_str(link.trim_start_matches("/analysis?")).unwrap();
    let engine = |cookie: Option<String>, form: Vec<(String, String)>| {
        let mut request = browserless()
            .post(format!("{}/analysis/engine", app.base))
            .form(&form);
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send()
    };
    // Signed out: sent to sign in; without the CSRF token: refused.
    let signed_out = engine(None, form.clone()).await.unwrap();
    assert_eq!(signed_out.status(), StatusCode::SEE_OTHER);
    let (cookie, csrf) = signed_in(&app, &a).await;
    let no_token = engine(Some(cookie.clone()), form.clone()).await.unwrap();
    assert_eq!(no_token.status(), StatusCode::FORBIDDEN);
    form.push(("csrf".into(), csrf));
    // After a2-b2 the king walks out: the engine proves it.
    let answer = engine(Some(cookie.clone()), form.clone()).await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let text = answer.text().await.unwrap();
    assert!(
        text.contains("proved: <strong>escape in 1</strong>"),
        "{text}"
    );
    assert!(text.contains("Best: <strong>a3-a1</strong>"), "{text}");

    // One search at a time per viewer: a second is refused while the first waits or runs,
    // and taken once the first is given back.
    let analysis = app.service().analysis();
    let board = analysis
        .board(
            None,
            BoardAsk {
                from: BoardFrom::Game {
                    id: GameId(game),
                    ply: Some(1),
                },
                moves: String::new(),
                at: None,
                play: None,
            },
        )
        .await
        .unwrap();
    let viewer = PlayerId(a.id);
    let first = analysis.board_search(viewer, &board).unwrap();
    match analysis.board_search(viewer, &board) {
        Err(ServiceError::Limited { message, .. }) => {
            assert!(
                message.contains("still working on your last position"),
                "{message}"
            )
        }
        other => panic!(
            "a second search at once is refused, got {:?}",
            other.map(|_| ())
        ),
    }
    let still = engine(Some(cookie.clone()), form.clone()).await.unwrap();
    assert_eq!(still.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(still.text().await.unwrap().contains("still working"));
    drop(first);
    assert!(analysis.board_search(viewer, &board).is_ok());
}

#[tokio::test]
async fn a_search_that_must_wait_says_its_place_in_line_first() {
    // One engine worker, 1.5 s a search: Bob's search holds it while Ada asks.
    let app = TestApp::start_with(|c| {
        c.games.engine_workers = 1;
        c.games.analysis_ms_per_ply = 1_500;
        c.games.analysis_threads = 1;
    })
    .await;
    let ada = app.register("Ada").await;
    let bob = app.register("Bob").await;
    let analysis = app.service().analysis();
    let start = BoardAsk {
        from: BoardFrom::Start(taflbot::service::analysis::board::StartAsked {
            variant: Some("brandubh".into()),
            ..Default::default()
        }),
        moves: String::new(),
        at: None,
        play: None,
    };
    let board = analysis.board(None, start).await.unwrap();
    let mut bobs = Box::pin(
        analysis
            .board_search(PlayerId(bob.id), &board)
            .unwrap()
            .run(|place| panic!("Bob's search starts at once, not at {place}")),
    );
    // Its first poll takes the one worker.
    assert!(futures_util::poll!(&mut bobs).is_pending());
    let bobs = tokio::spawn(bobs);

    let (cookie, csrf) = signed_in(&app, &ada).await;
    let mut answer = browserless()
        .post(format!("{}/analysis/engine", app.base))
        .header(COOKIE, cookie)
        .form(&[("variant", "brandubh"), ("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let mut parts = String::new();
    while let Some(chunk) = answer.chunk().await.unwrap() {
        parts.push_str(&String::from_utf8_lossy(&chunk));
    }
    let parts: Vec<&str> = parts.split("\n<!--part-->\n").collect();
    assert_eq!(parts.len(), 3, "two parts and the end: {parts:?}");
    assert!(
        parts[0].contains("Waiting for the engine: number 1 in line."),
        "{parts:?}"
    );
    assert!(parts[1].contains("Best: <strong>"), "{parts:?}");
    bobs.await.unwrap().unwrap();
}

/// `GET /api/v1{path}` without a token, checked against the OpenAPI document.
async fn call(app: &TestApp, path: String, status: StatusCode) -> serde_json::Value {
    app.call(reqwest::Method::GET, &path, None, None, status)
        .await
}

#[tokio::test]
async fn the_api_answers_a_positions_legal_moves_and_the_board_after_a_move() {
    let app = quick_app(20).await;
    let (_, _, game) = scripted_game(&app, false).await;
    let app = &app;
    let start = call(
        app,
        "/analysis-board?variant=brandubh".into(),
        StatusCode::OK,
    )
    .await;
    assert_eq!(start["legal_moves"].as_array().unwrap().len(), 40);
    assert_eq!(start["to_move"], "attackers");
    assert_eq!(start["link"], "/analysis?variant=brandubh");
    // A move for each side, the second as a variation to the game's first answer.
    let after = call(
        app,
        "/analysis-board?variant=brandubh&moves=d1-c1+d3-e3&at=1&play=d3-f3".into(),
        StatusCode::OK,
    )
    .await;
    assert_eq!(after["moves"], "d1-c1 d3-e3 (d3-f3)");
    assert_eq!(after["at"], 3);
    assert_eq!(after["line"], serde_json::json!(["d1-c1", "d3-f3"]));
    assert_eq!(after["to_move"], "attackers");
    // A game's board at the move that ended it: the king captured, no move left.
    let end = call(
        app,
        format!("/analysis-board?game={game}&ply=3"),
        StatusCode::OK,
    )
    .await;
    assert_eq!(end["result"]["reason"], "king_captured", "{end}");
    assert_eq!(end["to_move"], serde_json::Value::Null);
    assert_eq!(end["legal_moves"], serde_json::json!([]));
    // Refusals in words.
    let illegal = call(
        app,
        "/analysis-board?variant=brandubh&play=d1-d7".into(),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(illegal["error"]["code"], "illegal_move", "{illegal}");
    let broken = call(
        app,
        "/analysis-board?variant=brandubh&moves=d1-c1+d1-d7".into(),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        broken["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the link's move 2, \"d1-d7\", cannot be played after d1-c1"),
        "{broken}"
    );
}
