//! The opening explorer over HTTP: finished games counted as they end, a mirrored opening
//! folded into the same node (at the first move and deeper), results and ratings counted,
//! and a move that cannot be played refused in words.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp};

async fn explore(app: &TestApp, who: &Player, moves: &str) -> Value {
    app.get(&format!("/explorer/brandubh?moves={moves}"), &who.token)
        .await
}

/// The line of `view` whose move (or one of its mirror images) is `mv`.
fn line<'v>(view: &'v Value, mv: &str) -> &'v Value {
    view["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("a move list: {view}"))
        .iter()
        .find(|m| {
            m["move"] == mv
                || m["same_as"]
                    .as_array()
                    .is_some_and(|s| s.contains(&json!(mv)))
        })
        .unwrap_or_else(|| panic!("no line {mv} in {view}"))
}

fn counts(v: &Value) -> [u64; 4] {
    ["games", "attackers_won", "defenders_won", "draws"].map(|k| {
        v[k].as_u64()
            .unwrap_or_else(|| panic!("{k} is a count: {v}"))
    })
}

#[tokio::test]
async fn a_mirrored_opening_is_one_line_with_the_results_of_both_games() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bob").await;
    // Rated games: by the second, both players have a rating to average.
    let first = app.timed_game(&a, &b, "brandubh").await;
    app.play_line(first, &a, &b, &["d1-c1", "d3-c3"]).await;
    app.post(&format!("/games/{first}/resign"), &b.token, json!({}))
        .await;
    let start = explore(&app, &a, "").await;
    assert_eq!(counts(&start), [1, 1, 0, 0], "{start}");

    // The same opening mirrored, which the defenders win.
    let second = app.timed_game(&a, &b, "brandubh").await;
    app.play_line(second, &a, &b, &["d1-e1", "d3-e3"]).await;
    app.post(&format!("/games/{second}/resign"), &a.token, json!({}))
        .await;
    // Another opening, drawn.
    let third = app.timed_game(&a, &b, "brandubh").await;
    app.play_line(third, &a, &b, &["d2-c2", "d3-e3"]).await;
    app.post(&format!("/games/{third}/draw/offer"), &a.token, json!({}))
        .await;
    app.post(&format!("/games/{third}/draw/accept"), &b.token, json!({}))
        .await;

    let start = explore(&app, &a, "").await;
    assert_eq!(counts(&start), [3, 1, 1, 1], "{start}");
    assert_eq!(start["played"], json!([]));
    let opening = line(&start, "d1-c1");
    assert_eq!(counts(opening), [2, 1, 1, 0], "{start}");
    // From the symmetric start, all eight images of the move are the one line.
    let mut images: Vec<String> = std::iter::once(&opening["move"])
        .chain(opening["same_as"].as_array().unwrap())
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    images.sort();
    assert_eq!(
        images,
        [
            "a4-a3", "a4-a5", "d1-c1", "d1-e1", "d7-c7", "d7-e7", "g4-g3", "g4-g5"
        ]
    );
    assert!(
        opening["average_rating"]
            .as_u64()
            .is_some_and(|r| (1000..2000).contains(&r)),
        "the second game's players both had a rating: {opening}"
    );
    assert_eq!(counts(line(&start, "d2-c2")), [1, 0, 0, 1], "{start}");

    // Deeper: from either image, the reply is shown in the orientation asked, with both games.
    for (asked, reply) in [("d1-e1", "d3-e3"), ("d1-c1", "d3-c3"), ("a4-a5", "c4-c5")] {
        let view = explore(&app, &b, asked).await;
        assert_eq!(view["played"], json!([asked]));
        assert_eq!(counts(&view)[0], 2, "{view}");
        let answer = &view["moves"][0];
        assert_eq!(answer["move"], reply, "{view}");
        assert_eq!(counts(answer), [2, 1, 1, 0], "{view}");
        assert!(
            view["analysis_board"]
                .as_str()
                .is_some_and(|l| l.starts_with("/analysis?variant=brandubh&moves=")),
            "{view}"
        );
    }
    // The web page shows the same position, its moves one step deeper and the way back.
    let answer = crate::web_sessions::browserless()
        .get(format!("{}/explorer/brandubh?moves=d1-e1", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let html = answer.text().await.unwrap();
    assert!(
        html.contains("2 games: attackers won 50%, defenders 50%, drawn 0%."),
        "{html}"
    );
    assert!(
        html.contains("href=\"/explorer/brandubh?moves=d1-e1%2Cd3-e3\""),
        "the reply links one step deeper: {html}"
    );
    assert!(
        html.contains("href=\"/analysis?variant=brandubh&amp;moves=d1-e1"),
        "{html}"
    );
    // A position no game reached.
    let unseen = explore(&app, &a, "d1-c1,d5-c5").await;
    assert_eq!(counts(&unseen), [0, 0, 0, 0], "{unseen}");
    assert_eq!(unseen["moves"], json!([]));
}

#[tokio::test]
async fn a_move_that_cannot_be_played_or_an_unknown_variant_is_refused_in_words() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let refused = app
        .call(
            Method::GET,
            "/explorer/brandubh?moves=d1-c1,d1-d2",
            Some(&a.token),
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("move 2 (d1-d2)"), "{refused}");
    let unknown = app
        .call(
            Method::GET,
            "/explorer/chess",
            Some(&a.token),
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert!(
        unknown.to_string().contains("brandubh"),
        "names the presets: {unknown}"
    );
}
