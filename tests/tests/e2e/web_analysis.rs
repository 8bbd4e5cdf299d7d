//! A game's computer analysis in a real browser (headless Chromium over WebDriver): asked for
//! with the page's button, the chart and the move marks appearing live when the analysis is
//! done, replay from the move list and from the chart, a refusal said in place, a phone's width,
//! a waiting analysis's place in the queue kept up to date.
//! The game is the planted-blunder Brandubh game of bot/tests/http/analysis.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::{Client, Locator};
use taflbot::domain::GameId;
use taflbot::service::{ClockSpec, MoveRequest, NewChallenge, Opponent, RulesChoice, SideChoice};
use taflbot_e2e::web::{
    TestPlayer, WebApp, assert_not_reloaded, browser, click, dark_browser, mark_page, screenshot,
    screenshot_as_scrolled, sign_in, wait_for, wait_for_text,
};

/// An app whose analyses search 20 ms a position, on one thread.
async fn quick_app(max_queued: u32) -> WebApp {
    WebApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 20;
        c.games.analysis_threads = 1;
        c.games.analysis_max_queued = max_queued;
    })
    .await
}

/// Astrid (attackers) and Ragnar play a2-b2 (a blunder: the king's road is free), a3-b3 (a
/// missed win: a3-a1 escaped) and b6-b4 (the king is taken).
pub(crate) async fn scripted_game(app: &WebApp) -> (TestPlayer, GameId) {
    let astrid = app.player("Astrid").await;
    let ragnar = app.player("Ragnar").await;
    let s = app.service();
    let challenge = s
        .challenges()
        .create(
            astrid.id,
            NewChallenge {
                opponent: Opponent::Player(ragnar.id),
                rules: RulesChoice::Rules(tafl_engine::ai::analysis::example::rules_string()),
                side: SideChoice::Attackers,
                clock: ClockSpec::Unlimited {},
                context: None,
                rated: Some(false),
                private: false,
            },
        )
        .await
        .unwrap();
    let game = s
        .challenges()
        .accept(ragnar.id, challenge.challenge.id)
        .await
        .unwrap()
        .id;
    for (who, mv) in [(&astrid, "a2-b2"), (&ragnar, "a3-b3"), (&astrid, "b6-b4")] {
        s.games()
            .play(
                who.id,
                game,
                MoveRequest {
                    text: mv.into(),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
    }
    (astrid, game)
}

async fn open_game(client: &Client, app: &WebApp, game: GameId) {
    client
        .goto(&app.url(&format!("/games/{game}")))
        .await
        .expect("the game page opens");
    wait_for(client, "[data-game][data-live='open']").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_requested_analysis_appears_live_with_its_chart_and_marks_and_replays_its_plies() {
    let app = quick_app(100).await;
    let (astrid, game) = scripted_game(&app).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&astrid).await).await;
    open_game(&a, &app, game).await;
    assert!(a.find(Locator::Css("#analysis-chart")).await.is_err());
    mark_page(&a).await;
    click(&a, "#analysis-form button").await;
    // The chart arrives without a reload (the page's live stream carries `analysis_done`).
    wait_for(&a, "#analysis[data-status='done'] svg#analysis-chart").await;
    assert_not_reloaded(&a, "the analysis").await;
    // The marks: ?? on the blunder, ✗ on the missed win, with their words for screen readers.
    let blunder = wait_for_text(&a, "#live .ply.m-blunder:has(a[data-ply='1']) .mark", "??").await;
    assert_eq!(blunder, "??");
    let missed = wait_for(&a, "#live .ply.m-missed-win:has(a[data-ply='2'])").await;
    let words = missed.attr("title").await.unwrap().unwrap_or_default();
    assert!(words.contains("better was a3-a1 (escape in 1)"), "{words}");
    // The form is gone: the analysis covers the whole game.
    assert!(a.find(Locator::Css("#analysis-form")).await.is_err());
    screenshot(&a, "game-analysis").await;

    // A click on a move shows its position and its evaluation.
    click(&a, "#live ol.moves a[data-ply='2']").await;
    wait_for(&a, "#live[data-ply='2'][data-last-ply='3']").await;
    wait_for_text(&a, "#ply-eval", "The search proved escape in 1").await;
    // A click on the chart's dot of the blunder, then the keyboard on it.
    click(&a, "#analysis-chart .dot[data-ply='1']").await;
    wait_for(&a, "#live[data-ply='1'][data-last-ply='3']").await;
    wait_for_text(&a, "#ply-eval", "blunder").await;
    wait_for(&a, "#chart-cursor[x1='226.7']").await;
    a.execute(
        "document.querySelector(\"#analysis-chart .dot[data-ply='2']\").focus()",
        vec![],
    )
    .await
    .unwrap();
    // Enter, to the element that has the focus.
    let enter = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: '\u{E007}' })
        .then(KeyAction::Up { value: '\u{E007}' });
    a.perform_actions(enter).await.unwrap();
    wait_for(&a, "#live[data-ply='2'][data-last-ply='3']").await;
    a.close().await.unwrap();

    // On a phone: nothing scrolls sideways, the chart fits.
    let phone = browser(375).await;
    open_game(&phone, &app, game).await;
    wait_for(&phone, "svg#analysis-chart").await;
    let width = phone
        .execute("return document.documentElement.scrollWidth", vec![])
        .await
        .unwrap();
    let viewport = phone
        .execute("return window.innerWidth", vec![])
        .await
        .unwrap();
    assert!(
        width.as_u64() <= viewport.as_u64(),
        "the analysed game scrolls sideways on a phone: {width} px wide in {viewport}"
    );
    phone
        .execute(
            "document.getElementById('analysis').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    screenshot_as_scrolled(&phone, "game-analysis-phone").await;
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_analysis_shows_its_place_in_the_queue_live_until_it_runs() {
    // Slow analyses (4 s a position, in openings no search settles sooner), so that the
    // second waits for the first a while.
    let app = WebApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 4_000;
        c.games.analysis_threads = 1;
    })
    .await;
    let astrid = app.player("Astrid").await;
    let ragnar = app.player("Ragnar").await;
    let s = app.service();
    let mut games = Vec::new();
    for _ in 0..2 {
        let game = app.brandubh(&astrid, &ragnar).await;
        for (who, mv) in [(&astrid, "d1-c1"), (&ragnar, "d5-e5")] {
            let text = mv.into();
            let request = MoveRequest {
                text,
                ..Default::default()
            };
            s.games().play(who.id, game, request).await.unwrap();
        }
        s.games().resign(ragnar.id, game).await.unwrap();
        games.push(game);
    }
    let (first, second) = (games[0], games[1]);
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&astrid).await).await;
    let ahead = s.analysis().request(astrid.id.into(), first).await.unwrap();
    let mine = s
        .analysis()
        .request(astrid.id.into(), second)
        .await
        .unwrap();
    assert_eq!(
        (ahead.queue_position, mine.queue_position),
        (Some(1), Some(2))
    );
    open_game(&a, &app, second).await;
    wait_for_text(&a, "#analysis .notice", "number 2 in the queue").await;
    mark_page(&a).await;
    // Only the first game's stream tells of its end: this page learns of its own turn by
    // asking again.
    wait_for(&a, "#analysis[data-status='running']").await;
    wait_for_text(&a, "#analysis .notice", "number 1 in the queue").await;
    assert_not_reloaded(&a, "the analysis").await;
    a.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_request_is_said_in_place() {
    // A queue that holds nothing: every request is refused.
    let app = quick_app(0).await;
    let (astrid, game) = scripted_game(&app).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&astrid).await).await;
    open_game(&a, &app, game).await;
    click(&a, "#analysis-form button").await;
    wait_for_text(&a, "#analysis-error", "ask again later").await;
    assert!(a.find(Locator::Css("#analysis-chart")).await.is_err());
    a.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_button_appears_live_when_a_game_against_a_person_ends() {
    let app = quick_app(100).await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    app.service()
        .games()
        .play(
            ada.id,
            game,
            MoveRequest {
                text: "d1-c1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    open_game(&a, &app, game).await;
    // Still played against a person: nobody may ask yet.
    assert!(a.find(Locator::Css("#analysis-form")).await.is_err());
    app.service().games().resign(bob.id, game).await.unwrap();
    wait_for_text(&a, "#live .status", "Game over").await;
    wait_for(&a, "#analysis-form button").await;
    a.close().await.unwrap();
}

/// A system that asks for dark pages gets the chart in the renderer's dark colours too (its
/// background, the dark palette's canvas), as the boards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dark_system_gets_a_dark_analysis_chart() {
    let app = quick_app(100).await;
    let (astrid, game) = scripted_game(&app).await;
    let dark = dark_browser(1100).await;
    sign_in(&dark, &app.login_link(&astrid).await).await;
    open_game(&dark, &app, game).await;
    click(&dark, "#analysis-form button").await;
    wait_for(
        &dark,
        "#analysis[data-status='done'] svg#analysis-chart > rect[fill='#17191e']",
    )
    .await;
    screenshot(&dark, "game-analysis-dark").await;
    dark.close().await.unwrap();
}
