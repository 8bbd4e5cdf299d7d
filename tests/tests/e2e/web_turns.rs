//! Knowing it is my turn in the browser: the count of games waiting for my move in every
//! page's title and icon, updated live, and a browser notification (opted in, tab hidden).
//! Headless Chromium has no notification centre: the test replaces `window.Notification`
//! in the page with a recorder, and tells the page it is hidden.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use taflbot_e2e::web::{
    WebApp, assert_not_reloaded, browser, mark_page, screenshot, sign_in, wait_for,
    wait_for_script, wait_for_title,
};

/// A `window.Notification` that grants permission and records each notification shown, and a
/// document that says it is hidden (as when another tab is in front).
const HIDDEN_TAB_WITH_NOTIFICATION_RECORDER: &str = r#"
window.shownNotifications = [];
window.Notification = class {
  static permission = 'default';
  static async requestPermission() { window.Notification.permission = 'granted'; return 'granted'; }
  constructor(title, options) { window.shownNotifications.push({ title, body: options?.body, tag: options?.tag }); }
};
Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_title_counts_my_turns_live_and_a_hidden_tab_notifies() {
    let app = WebApp::start().await;
    let (ada, bob, game) = app.ada_and_bob_at_brandubh().await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    // Ada (attackers) moves first: one game waits for her, on any page.
    a.goto(&app.url("/variants")).await.unwrap();
    wait_for_title(&a, "(1) Variants · taflbot").await;
    let icon = wait_for_script(
        &a,
        "const href = document.querySelector('link[rel=icon]').href; \
         return href.startsWith('data:image/svg+xml') && href",
        "the icon carries a badge",
    )
    .await;
    assert!(
        icon.as_str().unwrap().contains("%3E1%3C"),
        "the badge says 1: {icon}"
    );
    wait_for(&a, "html[data-turns-live='open']").await;
    mark_page(&a).await;

    // Ada moves (elsewhere): the count goes; Bob answers: it comes back, without a reload.
    app.play(&ada, game, "d1-c1").await;
    wait_for(&a, "html[data-turns='0']").await;
    let title = a.title().await.unwrap();
    assert_eq!(title, "Variants · taflbot", "no count when nothing waits");

    // Ada turns notifications on (the browser's permission asked once), then hides the tab.
    a.execute(HIDDEN_TAB_WITH_NOTIFICATION_RECORDER, vec![])
        .await
        .unwrap();
    let toggle = wait_for(&a, "#notify-toggle:not([hidden])").await;
    toggle.click().await.unwrap();
    wait_for(&a, "#notify-toggle[aria-pressed='true']").await;

    app.play(&bob, game, "d3-e3").await;
    wait_for_title(&a, "(1) Variants · taflbot").await;
    let shown = wait_for_script(
        &a,
        "return window.shownNotifications.length > 0 && window.shownNotifications",
        "a notification is shown",
    )
    .await;
    assert_eq!(shown[0]["title"], "Your move against Bob", "{shown}");
    assert_eq!(shown[0]["tag"], format!("taflbot-game-{game}"), "{shown}");
    assert_not_reloaded(&a, "Ada's").await;
    screenshot(&a, "turns").await;

    // A visible tab is not interrupted: the count changes, no notification.
    a.execute(
        "Object.defineProperty(document, 'hidden', { configurable: true, get: () => false })",
        vec![],
    )
    .await
    .unwrap();
    app.play(&ada, game, "c1-c2").await;
    wait_for(&a, "html[data-turns='0']").await;
    app.play(&bob, game, "e3-e2").await;
    wait_for(&a, "html[data-turns='1']").await;
    let count = a
        .execute("return window.shownNotifications.length", vec![])
        .await
        .unwrap();
    assert_eq!(count, 1, "no notification while the tab is in front");
    a.close().await.unwrap();
}
