//! Tournaments in a real browser: one created with the form, joined from two browsers (one a
//! phone; the organiser's page shows the join live), started by its organiser; round 1's game
//! appears on the other player's page live, and when it ends the standings and the winner
//! follow without a reload. The pages pass
//! axe-core and fit a 390 px phone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::{Client, Locator};
use taflbot::domain::TournamentId;
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{
    WebApp, assert_not_reloaded, attribute, browser, click, dark_browser, mark_page, screenshot,
    sign_in, wait_for, wait_for_script, wait_for_text,
};

/// Clicks the button `css` and waits for the page it leads to to show `then`. On a
/// tournament's page it waits for the live stream first: its opening redraws the page.
async fn press(client: &Client, css: &str, then: &str) {
    if client.find(Locator::Css("#tournament")).await.is_ok() {
        wait_for(client, "#tournament[data-live='open']").await;
    }
    click(client, css).await;
    wait_for(client, then).await;
}

/// Fails if the page is wider than the window (a phone would scroll sideways).
async fn assert_fits(client: &Client, what: &str) {
    let fits = client
        .execute(
            "return document.documentElement.scrollWidth <= window.innerWidth",
            vec![],
        )
        .await
        .expect("the page runs a script");
    assert_eq!(
        fits,
        serde_json::Value::Bool(true),
        "{what} is wider than the phone"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_is_created_joined_from_two_browsers_started_and_followed_live() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let a = browser(1100).await;
    let b = browser(390).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    sign_in(&b, &app.login_link(&bob).await).await;

    // Ada creates it: a refusal first (no name), in place, then the tournament.
    a.goto(&app.url("/tournaments")).await.unwrap();
    wait_for(&a, "#tournament-form").await;
    assert_accessible(&a, "/tournaments with the create form").await;
    a.execute(
        "document.querySelector('#tournament-form input[name=name]').removeAttribute('required')",
        vec![],
    )
    .await
    .unwrap();
    press(
        &a,
        "#tournament-form button[type='submit']",
        "#tournament-form",
    )
    .await;
    wait_for_text(&a, "#tournament-error", "name must be 1 to 80 characters").await;
    let name = wait_for(&a, "#tournament-form input[name='name']").await;
    name.send_keys("Winter cup").await.unwrap();
    press(&a, "#tournament-form button[type='submit']", "#tournament").await;
    let page = a.current_url().await.unwrap().to_string();
    let id: i64 = page.rsplit('/').next().unwrap().parse().unwrap();
    press(&a, "#join", "#leave").await;
    wait_for_text(&a, "#players", "Ada").await;
    wait_for(&a, "#tournament[data-live='open']").await;
    mark_page(&a).await;

    // Bob finds it on the list, on his phone, and joins.
    b.goto(&app.url("/tournaments")).await.unwrap();
    click(&b, "table[data-list='open'] a").await;
    press(&b, "#join", "#leave").await;
    wait_for_text(&b, "main h2", "Players (2)").await;
    // Ada's page shows him without a reload: a join is an event the page redraws on.
    wait_for_text(&a, "main h2", "Players (2)").await;
    assert_not_reloaded(&a, "Ada's").await;
    assert_fits(&b, "the tournament's page").await;
    wait_for(&b, "#tournament[data-live='open']").await;
    mark_page(&b).await;

    // Ada starts it; round 1's game shows on Bob's page without a reload.
    a.goto(&page).await.unwrap();
    press(&a, "#start", "#standings").await;
    // The round's live redraw may replace the link between finding and reading it.
    let href = attribute(&b, "section.round[data-round='1'] a.open-game", "href").await;
    assert_not_reloaded(&b, "Bob's").await;
    let t = app
        .service()
        .tournaments()
        .get(TournamentId(id))
        .await
        .unwrap();
    let game_id = t.rounds[0].games[0].game_id.unwrap();
    assert_eq!(href, format!("/games/{game_id}"));
    wait_for(&b, "#crosstable").await;
    assert_fits(&b, "the running tournament's page").await;
    screenshot(&b, "tournament-phone").await;

    // Bob resigns elsewhere: the standings and the winner follow on both pages.
    app.service().games().resign(bob.id, game_id).await.unwrap();
    wait_for_text(&b, "#winner", "Winner: Ada").await;
    wait_for(
        &b,
        &format!("#standings tr[data-player='{}'][data-points='1']", ada.id),
    )
    .await;
    wait_for_script(
        &a,
        "return document.querySelector('#winner') !== null",
        "the winner on Ada's page",
    )
    .await;
    assert_not_reloaded(&b, "Bob's").await;
    let score = b
        .find(Locator::Css("section.round[data-round='1'] .score"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(score == "1–0" || score == "0–1", "{score}");
    screenshot(&a, "tournament").await;
    assert_accessible(&b, "a finished tournament on a phone").await;
    assert_accessible(&a, "a finished tournament").await;
    // And in the dark theme, signed out, the list and the page.
    let dark = dark_browser(1100).await;
    dark.goto(&app.url("/tournaments")).await.unwrap();
    wait_for(&dark, "table[data-list='finished']").await;
    assert_accessible(&dark, "/tournaments, dark, signed out").await;
    dark.goto(&page).await.unwrap();
    wait_for(&dark, "#tournament[data-live='open'] #crosstable").await;
    assert_accessible(&dark, "a finished tournament, dark, signed out").await;
    dark.close().await.unwrap();
    a.close().await.unwrap();
    b.close().await.unwrap();
}
