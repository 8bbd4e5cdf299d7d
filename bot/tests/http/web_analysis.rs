//! A game's computer analysis on the web page, without a browser: the "Request analysis" form
//! (CSRF, who sees it, refusals in words), the panel, the marks and the chart only once the
//! analysis is done, the page size with an analysis. The browser side is
//! tests/tests/e2e/web_analysis.rs.

use reqwest::header::{COOKIE, LOCATION};
use reqwest::{Method, StatusCode};
use serde_json::json;
use taflbot::domain::GameId;
use taflbot::service::{Missing, ServiceError};

use super::analysis::{done_event, quick_app, scripted_game};
use super::common::TestApp;
use super::web_sessions::{browserless, game_of_sixty_moves, signed_in};

/// A page (or fragment) of the site, as the visitor with `cookie` (if any) sees it.
async fn page(app: &TestApp, path: &str, cookie: Option<&str>) -> String {
    let mut request = browserless().get(format!("{}{path}", app.base));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let answer = request.send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "{path}");
    answer.text().await.unwrap()
}

/// Posts the analysis form of `game` as the page's script does (the token in a header) or as
/// a plain form (in a field).
async fn ask(
    app: &TestApp,
    game: i64,
    cookie: &str,
    header: Option<&str>,
    field: Option<&str>,
) -> reqwest::Response {
    let mut request = browserless()
        .post(format!("{}/games/{game}/analysis", app.base))
        .header(COOKIE, cookie)
        .form(&[("csrf", field.unwrap_or_default())]);
    if let Some(token) = header {
        request = request.header("x-csrf-token", token);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn the_request_form_needs_the_sessions_csrf_token() {
    let app = quick_app(20).await;
    let (a, _, game) = scripted_game(&app, false).await;
    let (cookie, csrf) = signed_in(&app, &a).await;
    assert!(
        page(&app, &format!("/games/{game}"), Some(&cookie))
            .await
            .contains("id=\"analysis-form\"")
    );
    let without = ask(&app, game, &cookie, None, None).await;
    assert_eq!(without.status(), StatusCode::FORBIDDEN);
    let wrong = ask(&app, game, &cookie, Some(&"0".repeat(64)), None).await;
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN);
    assert!(wrong.text().await.unwrap().contains("security token"));
    // Nothing was asked for.
    app.call(
        Method::GET,
        &format!("/games/{game}/analysis"),
        None,
        None,
        StatusCode::NOT_FOUND,
    )
    .await;
    // The page's script: the new panel, with the analysis's place in the queue.
    let mut events = app.service().events().subscribe();
    let scripted = ask(&app, game, &cookie, Some(&csrf), None).await;
    assert_eq!(scripted.status(), StatusCode::OK);
    let panel = scripted.text().await.unwrap();
    assert!(panel.contains("data-status=\"queued\""), "{panel}");
    assert!(panel.contains("(number 1 in the queue)"), "{panel}");
    assert!(!panel.contains("analysis-chart"), "{panel}");
    let id = app.get(&format!("/games/{game}/analysis"), &a.token).await["id"]
        .as_i64()
        .unwrap();
    done_event(&mut events, id).await;
    // A plain form (no script): back to the game.
    let plain = ask(&app, game, &cookie, None, Some(&csrf)).await;
    assert_eq!(plain.status(), StatusCode::SEE_OTHER);
    assert_eq!(plain.headers()[LOCATION], format!("/games/{game}"));
}

#[tokio::test]
async fn a_live_game_against_a_person_offers_no_analysis_and_refuses_one_in_words() {
    let app = quick_app(20).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    app.play_line(game, &a, &b, &["a4-a3"]).await;
    let c = app.register("C").await;
    let (stranger, stranger_csrf) = signed_in(&app, &c).await;
    let (player, player_csrf) = signed_in(&app, &a).await;
    for cookie in [&stranger, &player] {
        let shown = page(&app, &format!("/games/{game}"), Some(cookie)).await;
        assert!(!shown.contains("analysis-form"), "{shown}");
        assert!(!shown.contains("Computer analysis"), "{shown}");
    }
    // Posted anyway: the service's refusal, in its words, for the script to show in place.
    let refused = ask(&app, game, &stranger, Some(&stranger_csrf), None).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let words = refused.text().await.unwrap();
    assert!(
        words.contains("only its players see its analysis"),
        "{words}"
    );
    let refused = ask(&app, game, &player, Some(&player_csrf), None).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let words = refused.text().await.unwrap();
    assert!(words.contains("against a person"), "{words}");
    // Nothing was queued; the panel alone is empty for them.
    app.call(
        Method::GET,
        &format!("/games/{game}/analysis"),
        Some(&a.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;
    let panel = page(&app, &format!("/games/{game}/analysis"), Some(&stranger)).await;
    assert!(!panel.contains("<h2"), "{panel}");
}

#[tokio::test]
async fn a_full_queue_is_said_in_place() {
    let app = TestApp::start_with(|c| c.games.analysis_max_queued = 0).await;
    let (a, _, game) = scripted_game(&app, false).await;
    let (cookie, csrf) = signed_in(&app, &a).await;
    let refused = ask(&app, game, &cookie, Some(&csrf), None).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let words = refused.text().await.unwrap();
    assert!(words.contains("ask again later"), "{words}");
}

#[tokio::test]
async fn the_chart_and_the_marks_appear_only_once_the_analysis_is_done() {
    let app = quick_app(20).await;
    let (a, _, game) = scripted_game(&app, false).await;
    let path = format!("/games/{game}");
    // Before: no chart, no marks; a visitor who is not signed in is offered nothing.
    let before = page(&app, &path, None).await;
    assert!(!before.contains("analysis-chart"), "{before}");
    assert!(!before.contains("analysis-form"), "{before}");
    assert!(!before.contains("class=\"mark\""), "{before}");

    let mut events = app.service().events().subscribe();
    let queued = app
        .call(
            Method::POST,
            &format!("/games/{game}/analysis"),
            Some(&a.token),
            None,
            StatusCode::ACCEPTED,
        )
        .await;
    done_event(&mut events, queued["id"].as_i64().unwrap()).await;

    let after = page(&app, &path, None).await;
    assert!(after.contains("id=\"analysis-chart\""), "{after}");
    assert!(after.contains("data-status=\"done\""), "{after}");
    // The chart's text alternative, and a dot for the blunder and one for the missed win.
    assert!(
        after.contains("Blunders and missed wins at plies: 1, 2."),
        "{after}"
    );
    assert_eq!(after.matches("class=\"dot\"").count(), 2, "{after}");
    // The move list: ?? on the blunder, ✗ on the missed win, nothing on the last move.
    let blunder = marked_move(&after, "m-blunder", 1).expect("ply 1 marked");
    assert!(after[blunder..].contains("<span class=\"mark\" aria-hidden=\"true\">??</span>"));
    assert!(after[blunder..].contains("blunder: better was"), "{after}");
    let missed = marked_move(&after, "m-missed-win", 2).expect("ply 2 marked");
    assert!(
        after[missed..].contains("missed win: better was a3-a1 (escape in 1)"),
        "{after}"
    );
    assert!(
        after.contains("<span class=\"ply at\"><a href=\"?ply=3\" data-ply=\"3\">b6-b4</a></span>"),
        "{after}"
    );
    // Stepping to ply 2 shows its evaluation.
    let board = page(&app, &format!("/games/{game}/board?ply=2"), None).await;
    assert!(board.contains("id=\"ply-eval\""), "{board}");
    assert!(board.contains("Best: <strong>a3-a1</strong>"), "{board}");
    assert!(
        board.contains("The search proved escape in 1 before this move."),
        "{board}"
    );
    // The panel alone, as the script asks for it on `analysis_done`.
    let panel = page(&app, &format!("{path}/analysis"), None).await;
    assert!(panel.starts_with("<section id=\"analysis\""), "{panel}");
    assert!(panel.contains("analysis-chart"), "{panel}");
}

#[tokio::test]
async fn a_finished_game_page_with_its_analysis_stays_under_100_kb() {
    let app = quick_app(2).await;
    let (a, _, game) = game_of_sixty_moves(&app).await;
    // Over (a resignation, unless the moves ended it already): anyone may analyse it.
    if app.get(&format!("/games/{game}"), &a.token).await["status"] == "active" {
        app.post(&format!("/games/{game}/resign"), &a.token, json!({}))
            .await;
    }
    let mut events = app.service().events().subscribe();
    let queued = app
        .call(
            Method::POST,
            &format!("/games/{game}/analysis"),
            Some(&a.token),
            None,
            StatusCode::ACCEPTED,
        )
        .await;
    done_event(&mut events, queued["id"].as_i64().unwrap()).await;
    let (cookie, _) = signed_in(&app, &a).await;
    let html = page(&app, &format!("/games/{game}"), Some(&cookie)).await;
    assert!(html.contains("analysis-chart"));
    let assets = taflbot::server::web::game_page_asset_bytes();
    let total = html.len() + assets;
    // The figure docs/web.md quotes.
    println!(
        "game page with its analysis (Copenhagen 11x11, 60 moves): {} bytes HTML + {assets} \
         bytes CSS and JS = {total}",
        html.len()
    );
    assert!(total < 100_000, "{total} bytes");
}

/// A game nobody asked to analyse and a game that does not exist are told apart: by the
/// service (typed), by the API and by the web panel (in words).
#[tokio::test]
async fn a_missing_analysis_is_told_apart_from_a_missing_game() {
    let app = quick_app(20).await;
    let (_, _, game) = scripted_game(&app, false).await;
    let missing_game = game + 1000;
    let service = app.service();
    assert!(matches!(
        service.analysis().get(None, GameId(game)).await,
        Err(ServiceError::NotFound(Missing::Analysis(g))) if g == GameId(game)
    ));
    assert!(matches!(
        service.analysis().get(None, GameId(missing_game)).await,
        Err(ServiceError::NotFound(Missing::Game(g))) if g == GameId(missing_game)
    ));

    let api = |id: i64| {
        let app = &app;
        async move {
            let body = app
                .call(
                    Method::GET,
                    &format!("/games/{id}/analysis"),
                    None,
                    None,
                    StatusCode::NOT_FOUND,
                )
                .await;
            body["error"]["message"].as_str().unwrap().to_owned()
        }
    };
    assert_eq!(
        api(game).await,
        format!("game {game} has no analysis yet: ask for one with POST /games/{game}/analysis")
    );
    assert_eq!(
        api(missing_game).await,
        format!("game {missing_game} not found")
    );

    // The panel: empty (no analysis yet) for the game, "not found" in words for no game.
    let panel = page(&app, &format!("/games/{game}/analysis"), None).await;
    assert!(panel.contains("id=\"analysis\""), "{panel}");
    assert!(!panel.contains("analysis-chart"), "{panel}");
    let answer = browserless()
        .get(format!("{}/games/{missing_game}/analysis", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        answer.text().await.unwrap(),
        format!("game {missing_game} not found")
    );
}

/// Where the move list's entry for `ply` starts when it carries the mark `class`.
fn marked_move(page: &str, class: &str, ply: u32) -> Option<usize> {
    let entry = format!("<span class=\"ply {class}\"");
    page.match_indices(&entry).map(|(at, _)| at).find(|&at| {
        page[at..]
            .split("data-ply=")
            .nth(1)
            .is_some_and(|rest| rest.starts_with(&format!("\"{ply}\"")))
    })
}
