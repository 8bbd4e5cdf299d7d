//! The sign-in forms (a pasted API token, a sign-in link's button) carry the form token the
//! sign-up form has: a form posted without it, or with another browser's, signs nobody in,
//! and a sign-in link refused so is not spent.

use reqwest::StatusCode;
use reqwest::header::COOKIE;

use crate::common::TestApp;
use crate::web_sessions::{
    browserless, login_link, opens_a_session, paste_token, redeem, sign_in_form, token_of,
};

#[tokio::test]
async fn a_sign_in_form_without_its_form_token_signs_nobody_in() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let post = |path: &'static str, fields: Vec<(&'static str, String)>, cookie: Option<String>| {
        let mut request = browserless().post(format!("{}{path}", app.base));
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        request.form(&fields).send()
    };
    // No form token at all (what another site's form, Origin left out, would send).
    let bare = post("/login/token", vec![("token", ada.token.clone())], None)
        .await
        .unwrap();
    assert_eq!(bare.status(), StatusCode::FORBIDDEN);
    assert!(!opens_a_session(&bare));
    // A field that is not the cookie's.
    let (cookie, _) = sign_in_form(&app).await;
    let forged = post(
        "/login/token",
        vec![
            ("token", ada.token.clone()),
            ("form_token", "0123456789abcdef0123456789abcdef".into()),
        ],
        Some(cookie),
    )
    .await
    .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(!opens_a_session(&forged));
    // A sign-in link's form without it: refused, and the link is not spent.
    let link = login_link(&app, &ada).await;
    let refused = post("/login", vec![("token", token_of(&link).to_owned())], None)
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(!opens_a_session(&refused));
    assert_eq!(
        redeem(&app, token_of(&link)).await.status(),
        StatusCode::SEE_OTHER
    );
    // The forms as the pages send them sign in.
    assert_eq!(
        paste_token(&app, &ada.token).await.status(),
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn a_sign_in_links_page_gives_its_form_the_token() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let link = login_link(&app, &ada).await;
    let page = browserless().get(&link).send().await.unwrap();
    assert!(
        page.headers()
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .any(|v| v.as_bytes().starts_with(b"taflbot_form=")),
        "the link's page sets the form-token cookie"
    );
    let html = page.text().await.unwrap();
    assert!(html.contains("name=\"form_token\""), "{html}");
}
