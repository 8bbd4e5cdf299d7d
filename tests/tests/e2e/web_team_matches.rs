//! A team match's page in a real browser: it follows the match live. A player who joins shows
//! on the organiser's page without a reload, the organiser starts the match with its button,
//! and each board's result, the team points and the winner appear as the games end, without a
//! reload. The page passes axe-core.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use taflbot::domain::TeamSide;
use taflbot::service::matches::{NewTeam, NewTeamMatch};
use taflbot::service::{ClockSpec, RulesChoice};
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{
    WebApp, assert_not_reloaded, browser, click, mark_page, sign_in, wait_for, wait_for_text,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_matchs_page_shows_joins_and_each_boards_result_without_a_reload() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let m = app
        .service()
        .matches()
        .create(
            ada.id,
            NewTeamMatch {
                name: "North v South".into(),
                rules: RulesChoice::Variant("brandubh".into()),
                clock: ClockSpec::days_per_move(1),
                rated: None,
                boards: Some(1),
                teams: [
                    NewTeam {
                        name: "North".into(),
                        players: vec![ada.handle.clone()],
                    },
                    NewTeam {
                        name: "South".into(),
                        players: Vec::new(),
                    },
                ],
            },
        )
        .await
        .unwrap();
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    a.goto(&app.url(&format!("/matches/{}", m.id)))
        .await
        .unwrap();
    wait_for(&a, "#team-match[data-live='open'] #start").await;
    mark_page(&a).await;

    // Bob joins South (over the service, as HTTP or Discord would): Ada's page shows him.
    app.service()
        .matches()
        .join(bob.id, m.id, TeamSide::Away)
        .await
        .unwrap();
    wait_for_text(&a, "tr[data-team='away']", "Bob").await;
    assert_not_reloaded(&a, "Ada's").await;

    // Ada starts it from the page: the board and its two games.
    click(&a, "#start").await;
    wait_for(&a, "#boards li[data-board='1']").await;
    wait_for(&a, "#team-match[data-live='open']").await;
    mark_page(&a).await;
    let m = app.service().matches().get(m.id).await.unwrap();
    let [first, second] = [m.boards[0].games[0].game_id, m.boards[0].games[1].game_id];

    // Bob resigns the first game elsewhere: its result and North's point appear.
    app.service().games().resign(bob.id, first).await.unwrap();
    wait_for_text(&a, &format!("li[data-game='{first}'] .score"), "1–0").await;
    wait_for(&a, "tr[data-team='home'][data-points='1']").await;
    assert_not_reloaded(&a, "Ada's").await;
    // And the second: the match is over, North wins 2–0.
    app.service().games().resign(bob.id, second).await.unwrap();
    wait_for_text(&a, "#winner", "Winner: North").await;
    wait_for(&a, "tr[data-team='home'][data-points='2']").await;
    wait_for(&a, "#match-state[data-status='finished']").await;
    assert_not_reloaded(&a, "Ada's").await;
    assert_accessible(&a, "a finished team match").await;
    a.close().await.unwrap();
}
