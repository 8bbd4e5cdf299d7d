//! Signing up in the browser without a browser: the form on `/` creates the player, opens a
//! session and shows the API token once; it needs its form token (CSRF before a session), is
//! refused from another site, shares the registrations' allowance per address, and a refusal
//! comes back on the form with the visitor's words in place.

use reqwest::StatusCode;
use reqwest::header::{COOKIE, SET_COOKIE};

use crate::common::TestApp;
use crate::web_sessions::{browserless, csrf_of, sign_in_form};

async fn sign_up(
    app: &TestApp,
    cookie: &str,
    token: &str,
    name: &str,
    handle: &str,
) -> reqwest::Response {
    browserless()
        .post(format!("{}/signup", app.base))
        .header(COOKIE, cookie)
        .form(&[("form_token", token), ("name", name), ("handle", handle)])
        .send()
        .await
        .unwrap()
}

/// The session cookie among a sign-up answer's cookies.
fn session_cookie(answer: &reqwest::Response) -> Option<String> {
    answer
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("taflbot_session="))
        .map(|v| v.split(';').next().unwrap().to_owned())
}

#[tokio::test]
async fn signing_up_creates_the_player_signs_in_and_shows_the_token_once() {
    let app = TestApp::start().await;
    let (cookie, token) = sign_in_form(&app).await;
    let answer = sign_up(&app, &cookie, &token, "Ada Lovelace", "").await;
    assert_eq!(answer.status(), StatusCode::OK);
    let session = session_cookie(&answer).expect("a session is opened");
    let page = answer.text().await.unwrap();
    assert!(page.contains("@ada_lovelace"), "{page}");
    let start = page.find("id=\"api-token\">").expect("the token is shown") + 15;
    let api_token = page[start..].split('<').next().unwrap();
    // The token is the player's: the API knows it.
    let me = app
        .call(
            reqwest::Method::GET,
            "/me",
            Some(api_token),
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(me["handle"], "ada_lovelace", "{me}");
    // The browser is signed in; the page never shows the token again.
    assert!(csrf_of(&app, &session).await.is_some());
    let home = browserless()
        .get(format!("{}/", app.base))
        .header(COOKIE, &session)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!home.contains(api_token));
}

#[tokio::test]
async fn a_refused_sign_up_is_shown_on_the_form_with_what_was_typed() {
    let app = TestApp::start().await;
    app.register("Ada").await;
    let (cookie, token) = sign_in_form(&app).await;
    let taken = sign_up(&app, &cookie, &token, "Ada Two", "ada").await;
    assert_eq!(taken.status(), StatusCode::CONFLICT);
    assert!(session_cookie(&taken).is_none());
    let page = taken.text().await.unwrap();
    assert!(page.contains("id=\"sign-up-error\""), "{page}");
    assert!(page.contains("taken"), "{page}");
    assert!(page.contains("value=\"Ada Two\""), "{page}");
    assert!(!page.contains("Something went wrong"), "{page}");

    let bad_handle = sign_up(&app, &cookie, &token, "Bob", "1bob").await;
    assert_eq!(bad_handle.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = bad_handle.text().await.unwrap();
    assert!(page.contains("id=\"sign-up-error\""), "{page}");
    assert!(page.contains("letter"), "{page}");

    let no_name = sign_up(&app, &cookie, &token, "  ", "").await;
    assert_eq!(no_name.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        no_name
            .text()
            .await
            .unwrap()
            .contains("id=\"sign-up-error\"")
    );
}

#[tokio::test]
async fn a_sign_up_needs_its_form_token_and_this_site() {
    let app = TestApp::start().await;
    let (cookie, token) = sign_in_form(&app).await;
    // Without the cookie (another site cannot send or read it), or with another token.
    let no_cookie = sign_up(&app, "", &token, "Eve", "").await;
    assert_eq!(no_cookie.status(), StatusCode::FORBIDDEN);
    let wrong = sign_up(&app, &cookie, "0123456789abcdef0123456789abcdef", "Eve", "").await;
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN);
    let cross_site = browserless()
        .post(format!("{}/signup", app.base))
        .header(COOKIE, &cookie)
        .header("sec-fetch-site", "cross-site")
        .form(&[("form_token", token.as_str()), ("name", "Eve")])
        .send()
        .await
        .unwrap();
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN);
    // No player was made.
    let eve = app
        .call(
            reqwest::Method::GET,
            "/players/eve",
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert_eq!(eve["error"]["code"], "not_found", "{eve}");
}

#[tokio::test]
async fn sign_ups_share_the_registrations_allowance_per_address() {
    let app = TestApp::start_with(|c| {
        c.http.registration_per_minute = 1.0;
        c.http.registration_burst = 2;
    })
    .await;
    let (cookie, token) = sign_in_form(&app).await;
    for name in ["Ann", "Bea"] {
        let ok = sign_up(&app, &cookie, &token, name, "").await;
        assert_eq!(ok.status(), StatusCode::OK, "{name}");
    }
    let third = sign_up(&app, &cookie, &token, "Cid", "").await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(third.headers().get("retry-after").is_some());
    let page = third.text().await.unwrap();
    assert!(page.contains("too many sign-ups"), "{page}");
    assert!(page.contains("value=\"Cid\""), "{page}");
}
