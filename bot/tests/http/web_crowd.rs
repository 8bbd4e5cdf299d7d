//! The web client's limits: every page a visitor without a session opens counts against the
//! per-address limit for requests without a token; failed sign-ins are limited per address;
//! a sign-in form posted from another site is refused when the browser says so in `Origin`
//! alone.

use std::net::{IpAddr, Ipv4Addr};

use reqwest::StatusCode;
use reqwest::header::{ORIGIN, SET_COOKIE};

use crate::common::TestApp;
use crate::web_sessions::browserless;

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
    client
        .post(format!("{}/login/token", app.base))
        .form(&[("token", token)])
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
    let own = browserless()
        .post(format!("{}/login/token", app.base))
        .header(ORIGIN, &app.base)
        .form(&[("token", a.token.as_str())])
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
        assert!(r.headers().get(SET_COOKIE).is_none());
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
