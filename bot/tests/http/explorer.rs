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

/// How a test game ends.
#[derive(Clone, Copy)]
pub(crate) enum Ending {
    /// The defenders resign: the attackers win.
    AttackersWin,
    /// The attackers resign.
    DefendersWin,
    Drawn,
}

/// A rated brandubh game of `a` (attackers) against `b`: `moves`, then `ending`.
pub(crate) async fn finished_game(
    app: &TestApp,
    a: &Player,
    b: &Player,
    moves: &[&str],
    ending: Ending,
) -> i64 {
    let game = app.timed_game(a, b, "brandubh").await;
    app.play_line(game, a, b, moves).await;
    match ending {
        Ending::AttackersWin => {
            app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
                .await;
        }
        Ending::DefendersWin => {
            app.post(&format!("/games/{game}/resign"), &a.token, json!({}))
                .await;
        }
        Ending::Drawn => {
            app.post(&format!("/games/{game}/draw/offer"), &a.token, json!({}))
                .await;
            app.post(&format!("/games/{game}/draw/accept"), &b.token, json!({}))
                .await;
        }
    }
    game
}

/// The web page at `path`, as a visitor without a session sees it.
pub(crate) async fn web_page(app: &TestApp, path: &str) -> (StatusCode, String) {
    let answer = crate::web_sessions::browserless()
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    let status = answer.status();
    (status, answer.text().await.unwrap())
}

pub(crate) fn counts(v: &Value) -> [u64; 4] {
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
    finished_game(&app, &a, &b, &["d1-c1", "d3-c3"], Ending::AttackersWin).await;
    let start = explore(&app, &a, "").await;
    assert_eq!(counts(&start), [1, 1, 0, 0], "{start}");

    // The same opening mirrored, which the defenders win.
    finished_game(&app, &a, &b, &["d1-e1", "d3-e3"], Ending::DefendersWin).await;
    // Another opening, drawn.
    finished_game(&app, &a, &b, &["d2-c2", "d3-e3"], Ending::Drawn).await;

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
    let (status, html) = web_page(&app, "/explorer/brandubh?moves=d1-e1").await;
    assert_eq!(status, StatusCode::OK);
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

/// `mv` (`d1-c1`) mirrored through the middle file of a 7 by 7 board (`d1-e1`).
fn mirrored_files(mv: &str) -> String {
    mv.chars()
        .map(|c| match c {
            'a'..='g' => char::from(b'a' + (b'g' - c as u8)),
            other => other,
        })
        .collect()
}

#[tokio::test]
async fn the_engines_view_comes_after_the_first_answer_and_mirror_images_share_it() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bob").await;
    finished_game(&app, &a, &b, &["d1-c1", "d3-c3"], Ending::AttackersWin).await;

    // The first answer cannot wait for the engine: it says it has no view yet.
    let first = explore(&app, &a, "").await;
    assert_eq!(first["engine"], Value::Null, "{first}");
    assert_eq!(
        line(&first, "d1-c1")["engine_chance"],
        Value::Null,
        "{first}"
    );

    // The search it asked for runs in the background; a later answer has it, for the
    // position and for the position the move leads to.
    let start = taflbot_test_support::eventually(
        std::time::Duration::from_secs(60),
        "the engine's view of the start and of d1-c1",
        || async {
            let view = explore(&app, &a, "").await;
            (view["engine"].is_object() && line(&view, "d1-c1")["engine_chance"].is_number())
                .then_some(view)
        },
    )
    .await;
    let engine = &start["engine"];
    let chance = engine["chance"].as_f64().expect("a chance");
    assert!((0.0..=100.0).contains(&chance), "{start}");
    assert!(engine["best"].is_string(), "{start}");
    assert!(engine["depth"].as_u64().is_some_and(|d| d > 0), "{start}");
    let after = line(&start, "d1-c1")["engine_chance"]
        .as_f64()
        .expect("a chance");

    // The position after d1-c1 was searched as the start's move: asked from either side of
    // the board, the one evaluation is there at once, its best move in the orientation asked.
    let left = explore(&app, &a, "d1-c1").await;
    let right = explore(&app, &a, "d1-e1").await;
    for view in [&left, &right] {
        assert_eq!(view["engine"]["chance"].as_f64(), Some(after), "{view}");
    }
    let best = left["engine"]["best"].as_str().expect("a best move");
    assert_eq!(
        right["engine"]["best"].as_str(),
        Some(mirrored_files(best).as_str()),
        "the best move seen in the mirror: {left} {right}"
    );

    // The web page shows it beside the human figures.
    let (_, html) = web_page(&app, "/explorer/brandubh").await;
    assert!(
        html.contains(&format!("defenders' chance {chance:.1}%")),
        "the engine's view on the page: {html}"
    );
    assert!(
        html.contains(&format!("<td class=\"engine\">{after:.1}%</td>")),
        "the move's chance in the table: {html}"
    );
}
