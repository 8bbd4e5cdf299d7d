//! The web's vacation page (`/me/vacation`) driven as a browser would, without one: the
//! balance, going away from its form, coming back with its button, refusals in place and in
//! words, and forms without the session's CSRF token refused (nothing changes).

use reqwest::StatusCode;
use reqwest::header::COOKIE;

use crate::common::TestApp;
use crate::web_sessions::browserless;
use crate::web_tournaments::{get, post, session};

/// The server's default: 14 days a year (the other suites turn vacation off).
fn with_vacation(config: &mut taflbot::config::Config) {
    config.games.vacation_days_per_year = 14;
}

#[tokio::test]
async fn the_vacation_page_starts_and_ends_a_vacation_from_its_forms_with_the_csrf_token_checked() {
    let app = TestApp::start_with(with_vacation).await;
    let ada = app.register("Ada").await;
    let s = session(&app, &ada).await;

    let (status, page) = get(&app, Some(&s), "/me/vacation").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("id=\"vacation-form\""), "{page}");
    assert!(page.contains("0 of your 14 days used"), "{page}");

    // A form from elsewhere (no CSRF token): refused, nobody goes away.
    let forged = browserless()
        .post(format!("{}/me/vacation", app.base))
        .header(COOKIE, &s.cookie)
        .form(&[("days", "3")])
        .send()
        .await
        .unwrap_or_else(|e| panic!("no answer: {e}"));
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(app.get("/me/vacation", &ada.token).await["vacation"].is_null());

    // Days that are not a number, or more than are left: refused in place, in words.
    let (status, _, page) = post(&app, &s, "/me/vacation", &[("days", "three")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let error_at = page.find("id=\"vacation-error\"").expect(&page);
    assert!(
        page[error_at..].contains("give a whole number of days"),
        "{page}"
    );
    let (status, _, page) = post(&app, &s, "/me/vacation", &[("days", "20")]).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("14 vacation days left of 14"), "{page}");

    // Three days away.
    let (status, _, page) = post(&app, &s, "/me/vacation", &[("days", "3")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("id=\"vacation-notice\""), "{page}");
    assert!(page.contains("You are on vacation"), "{page}");
    assert!(page.contains("You are away until"), "{page}");
    assert!(page.contains("3 of your 14 days used"), "{page}");
    assert!(page.contains("id=\"vacation-end\""), "{page}");
    let away = app.get("/me/vacation", &ada.token).await;
    assert!(away["vacation"]["until"].is_i64(), "{away}");

    // Coming back without the token: refused, still away.
    let forged = browserless()
        .post(format!("{}/me/vacation/end", app.base))
        .header(COOKIE, &s.cookie)
        .form(&[("csrf", "not-the-token")])
        .send()
        .await
        .unwrap_or_else(|e| panic!("no answer: {e}"));
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(app.get("/me/vacation", &ada.token).await["vacation"].is_object());

    // Back with the button: the days not begun are given back.
    let (status, _, page) = post(&app, &s, "/me/vacation/end", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Welcome back"), "{page}");
    assert!(page.contains("id=\"vacation-form\""), "{page}");
    let back = app.get("/me/vacation", &ada.token).await;
    assert!(back["vacation"].is_null(), "{back}");
    // Once more: refused in place.
    let (status, _, page) = post(&app, &s, "/me/vacation/end", &[]).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let error_at = page.find("id=\"vacation-error\"").expect(&page);
    assert!(page[error_at..].contains("not on vacation"), "{page}");

    // Signed out, the page is not shown.
    let (status, page) = get(&app, None, "/me/vacation").await;
    assert_ne!(status, StatusCode::OK, "{page}");
}
