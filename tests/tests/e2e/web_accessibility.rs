//! Every page of the web client passes axe-core with no serious or critical violation, in the
//! light and the dark theme, signed in and out (see `taflbot_e2e::axe`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::Client;
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{WebApp, browser, dark_browser, sign_in, wait_for};

/// Opens `path`, waits for `ready` (a CSS selector), and checks the page.
async fn check(client: &Client, app: &WebApp, path: &str, ready: &str) {
    client.goto(&app.url(path)).await.expect("the page opens");
    wait_for(client, ready).await;
    assert_accessible(client, path).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_passes_axe_core_signed_in_and_out_light_and_dark() {
    // Mail on (to an address nothing listens on: no mail is sent here), so that the mail
    // settings page shows its form.
    let app = WebApp::start_with(|c| {
        c.mail.smtp_url = "smtp://127.0.0.1:9".into();
        c.mail.from = "taflbot <tafl@test.example>".into();
    })
    .await;
    let (ada, bob, game) = app.ada_and_bob_at_brandubh().await;
    app.play(&ada, game, "d1-c1").await;
    let finished = app.brandubh(&ada, &bob).await;
    app.play(&ada, finished, "d1-c1").await;
    app.service()
        .games()
        .resign(bob.id, finished)
        .await
        .unwrap();
    let game_page = format!("/games/{game}");
    let finished_page = format!("/games/{finished}");
    let player_page = format!("/players/{}", ada.handle);

    // Signed out: the sign-in page, a link's confirmation, a spectator's game, the variants.
    let visitor = browser(1100).await;
    check(&visitor, &app, "/", "form[action='/login/token']").await;
    let link = app.login_link(&bob).await;
    let link_path = link.trim_start_matches(&app.base).to_owned();
    check(&visitor, &app, &link_path, "#sign-in").await;
    check(&visitor, &app, &game_page, "[data-game][data-live='open']").await;
    check(&visitor, &app, "/variants", "main h1").await;
    check(&visitor, &app, "/variants/brandubh", "main h1").await;
    check(&visitor, &app, &player_page, "main h1").await;
    check(&visitor, &app, "/games/999999", "main").await;
    // The pages for finding games and players (web-newcomers).
    check(&visitor, &app, "/games", "#public-games[data-live='open']").await;
    check(&visitor, &app, "/leaderboards", "main h1").await;
    check(&visitor, &app, "/leaderboards/brandubh", "main h1").await;
    check(&visitor, &app, "/players?q=a", "main h1").await;
    visitor.close().await.unwrap();

    // Signed in, light and dark: every page of a player.
    for dark in [false, true] {
        let client = if dark {
            dark_browser(1100).await
        } else {
            browser(1100).await
        };
        sign_in(&client, &app.login_link(&ada).await).await;
        check(&client, &app, "/", "#my-games").await;
        check(&client, &app, "/me/sessions", "main h1").await;
        check(&client, &app, "/me/mail", "#mail-address-form").await;
        check(&client, &app, "/challenges/new", "main form").await;
        check(&client, &app, &game_page, "[data-game][data-live='open']").await;
        check(
            &client,
            &app,
            &finished_page,
            "[data-game][data-live='open']",
        )
        .await;
        check(&client, &app, &player_page, "main h1").await;
        check(&client, &app, "/variants/copenhagen", "main h1").await;
        client.close().await.unwrap();
    }
}
