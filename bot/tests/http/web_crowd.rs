//! The web client's limits: every page a visitor without a session opens counts against the
//! per-address limit for requests without a token, and a signed-in visitor's pages against
//! their player's own limit; failed sign-ins are limited per address;
//! a sign-in form posted from another site is refused when the browser says so in `Origin`
//! alone.

use std::net::{IpAddr, Ipv4Addr};

use reqwest::StatusCode;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};

use crate::common::TestApp;
use crate::web_sessions::{browserless, opens_a_session, sign_in_form};

/// A client from `ip` that shows redirects instead of following them.
fn client_from(ip: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .local_address(IpAddr::V4(Ipv4Addr::from(ip)))
        .build()
        .unwrap()
}

async fn sign_in_with_token(
    client: &reqwest::Client,
    app: &TestApp,
    token: &str,
) -> reqwest::Response {
    let (cookie, form_token) = sign_in_form(app).await;
    client
        .post(format!("{}/login/token", app.base))
        .header(COOKIE, cookie)
        .form(&[("token", token), ("form_token", &form_token)])
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_sign_in_form_from_another_origin_is_refused() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    // A browser that sends Origin but not Sec-Fetch-Site.
    let foreign = browserless()
        .post(format!("{}/login/token", app.base))
        .header(ORIGIN, "https://evil.example")
        .form(&[("token", a.token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    assert!(foreign.headers().get(SET_COOKIE).is_none(), "signed in");
    // An opaque origin (a sandboxed frame elsewhere) is not this site either.
    let opaque = browserless()
        .post(format!("{}/login/token", app.base))
        .header(ORIGIN, "null")
        .form(&[("token", a.token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(opaque.status(), StatusCode::FORBIDDEN);
    let (cookie, form_token) = sign_in_form(&app).await;
    let own = browserless()
        .post(format!("{}/login/token", app.base))
        .header(ORIGIN, &app.base)
        .header(COOKIE, cookie)
        .form(&[("token", a.token.as_str()), ("form_token", &form_token)])
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), StatusCode::SEE_OTHER, "this site's own form");
    assert!(own.headers().get(SET_COOKIE).is_some());
}

#[tokio::test]
async fn failed_sign_ins_are_limited_per_address() {
    let app = TestApp::start_with(|c| {
        c.http.sign_in_failures_per_minute = 1.0;
        c.http.sign_in_failures_burst = 3;
    })
    .await;
    let a = app.register("A").await;
    let guesser = client_from([127, 0, 0, 2]);
    for _ in 0..3 {
        let r = sign_in_with_token(&guesser, &app, "a-guessed-token").await;
        assert_ne!(r.status(), StatusCode::SEE_OTHER);
        assert_ne!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    }
    // Its allowance used: refused before the next try is looked at, a right one too.
    for token in ["another-guess", a.token.as_str()] {
        let r = sign_in_with_token(&guesser, &app, token).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(r.headers().get("retry-after").is_some());
        assert!(!opens_a_session(&r), "a refused sign-in opened a session");
    }
    // Another address signs in.
    let r = sign_in_with_token(&client_from([127, 0, 0, 1]), &app, &a.token).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn every_page_a_visitor_without_a_session_opens_is_limited() {
    let app = TestApp::start_with(|c| {
        c.http.anonymous_per_second = 0.01;
        c.http.anonymous_burst = 2;
    })
    .await;
    for path in [
        "/variants",
        "/variants/brandubh/start.svg",
        "/variants/tablut",
    ] {
        // A fresh address for each page: the limit is per address.
        let client = client_from(match path {
            "/variants" => [127, 0, 0, 3],
            "/variants/tablut" => [127, 0, 0, 4],
            _ => [127, 0, 0, 5],
        });
        for _ in 0..2 {
            let r = client
                .get(format!("{}{path}", app.base))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), StatusCode::OK, "{path}");
        }
        let r = client
            .get(format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "{path}");
        assert!(r.headers().get("retry-after").is_some(), "{path}");
    }
    // The assets, the same bytes for everyone, are not pages.
    let client = client_from([127, 0, 0, 3]);
    let asset = client
        .get(format!("{}/assets/app.css", app.base))
        .send()
        .await
        .unwrap();
    assert_ne!(asset.status(), StatusCode::TOO_MANY_REQUESTS);
}

/// Loads `/` with `cookie`; its status and `Retry-After`, if any.
async fn my_games_page(app: &TestApp, cookie: &str) -> (StatusCode, Option<String>) {
    let r = browserless()
        .get(format!("{}/", app.base))
        .header(reqwest::header::COOKIE, cookie)
        .send()
        .await
        .unwrap();
    let retry = r
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .map(|v| v.to_str().unwrap().to_owned());
    (r.status(), retry)
}

#[tokio::test]
async fn signed_in_pages_are_limited_per_player_across_their_sessions() {
    let app = TestApp::start_with(|c| {
        c.http.rate_limit_per_second = 0.01;
        c.http.rate_limit_burst = 4;
    })
    .await;
    let ada = app.register("Ada").await;
    let bob = app.register("Bob").await;
    // Two sessions of Ada's (each sign-in loads one page of hers) and one of Bob's.
    let (laptop, _) = crate::web_sessions::signed_in(&app, &ada).await;
    let (phone, _) = crate::web_sessions::signed_in(&app, &ada).await;
    let (bobs, _) = crate::web_sessions::signed_in(&app, &bob).await;

    // Ada's pages, from one session: her allowance runs out.
    let mut refused = None;
    for attempt in 0..10 {
        let (status, retry) = my_games_page(&app, &laptop).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some((attempt, retry));
            break;
        }
        assert_eq!(status, StatusCode::OK);
    }
    let (attempt, retry) = refused.expect("Ada's pages are limited");
    assert!(attempt <= 4, "refused only after {attempt} pages");
    assert!(retry.is_some_and(|s| s.parse::<u64>().unwrap() >= 1));
    // Her other session shares the allowance.
    assert_eq!(
        my_games_page(&app, &phone).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );

    // Another player is not held up by Ada's pages.
    assert_eq!(my_games_page(&app, &bobs).await.0, StatusCode::OK);
}
