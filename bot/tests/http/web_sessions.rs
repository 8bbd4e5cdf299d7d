//! The web client's sign-in without a browser: sign-in links (the API's `POST /login-links`,
//! checked against the OpenAPI document), the session cookie's flags, the CSRF token every
//! state-changing request needs, signing out. The browser suite is tests/tests/e2e/web_browser.rs.

use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::common::{Player, TestApp};

/// A client that shows redirects instead of following them, and keeps no cookies.
pub(super) fn browserless() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

pub(super) async fn login_link(app: &TestApp, player: &Player) -> String {
    login_link_with(app, &player.token).await
}

/// A sign-in link asked for with `token`.
pub(super) async fn login_link_with(app: &TestApp, token: &str) -> String {
    let link = app
        .call(
            Method::POST,
            "/login-links",
            Some(token),
            None,
            StatusCode::CREATED,
        )
        .await;
    link["url"].as_str().unwrap().to_owned()
}

/// The token at the end of a sign-in link.
pub(super) fn token_of(url: &str) -> &str {
    url.rsplit('/').next().unwrap()
}

/// Redeems a link's token as the page's form does; the answer, unfollowed.
pub(super) async fn redeem(app: &TestApp, token: &str) -> reqwest::Response {
    let (cookie, form_token) = sign_in_form(app).await;
    browserless()
        .post(format!("{}/login", app.base))
        .header(COOKIE, cookie)
        .form(&[("token", token), ("form_token", &form_token)])
        .send()
        .await
        .unwrap()
}

/// The signed-out page's form-token cookie (`name=value`) and its forms' hidden field, as a
/// browser holds them before it posts a sign-in or sign-up form.
pub(crate) async fn sign_in_form(app: &TestApp) -> (String, String) {
    let page = browserless()
        .get(format!("{}/", app.base))
        .send()
        .await
        .unwrap();
    let cookies: Vec<String> = page
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let html = page.text().await.unwrap();
    taflbot_test_support::signed_out_form(cookies.iter().map(String::as_str), &html)
}

/// Signs in by pasting `token` into the form on `/`, as a browser does; the answer, unfollowed.
pub(crate) async fn paste_token(app: &TestApp, token: &str) -> reqwest::Response {
    let (cookie, form_token) = sign_in_form(app).await;
    browserless()
        .post(format!("{}/login/token", app.base))
        .header(COOKIE, cookie)
        .form(&[("token", token), ("form_token", &form_token)])
        .send()
        .await
        .unwrap()
}

/// The session cookie's `name=value` from a sign-in answer.
pub(super) fn session_of(response: &reqwest::Response) -> String {
    let set = response.headers()[SET_COOKIE].to_str().unwrap();
    set.split(';').next().unwrap().to_owned()
}

/// Whether an answer sets the session cookie (a refused sign-in may set the sign-up form's).
pub(super) fn opens_a_session(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .any(|v| v.as_bytes().starts_with(b"taflbot_session="))
}

/// My games with `cookie`; the CSRF token of the page, when signed in.
pub(super) async fn csrf_of(app: &TestApp, cookie: &str) -> Option<String> {
    let page = browserless()
        .get(format!("{}/", app.base))
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    const META: &str = "<meta name=\"csrf\" content=\"";
    let start = page.find(META)? + META.len();
    Some(page[start..].split('"').next()?.to_owned())
}

pub(crate) async fn signed_in(app: &TestApp, player: &Player) -> (String, String) {
    let link = login_link(app, player).await;
    let answer = redeem(app, token_of(&link)).await;
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    let cookie = session_of(&answer);
    let csrf = csrf_of(app, &cookie).await.expect("signed in");
    (cookie, csrf)
}

#[tokio::test]
async fn a_sign_in_link_points_at_this_server_and_works_once() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let link = login_link(&app, &ada).await;
    assert!(
        link.starts_with(&format!("{}/login/tfl_link_", app.base)),
        "{link}"
    );
    // Opening the link only shows a button: a chat's preview cannot spend it.
    let page = browserless().get(&link).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let first = redeem(&app, token_of(&link)).await;
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    assert_eq!(first.headers()[LOCATION], "/");
    let again = redeem(&app, token_of(&link)).await;
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
    assert!(again.headers().get(SET_COOKIE).is_none());
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("used already or has expired")
    );
}

#[tokio::test]
async fn a_sign_in_link_expires_after_the_configured_minutes() {
    let app = TestApp::start_with(|c| c.games.login_link_minutes = 5).await;
    let ada = app.register("Ada").await;
    let link = login_link(&app, &ada).await;
    app.clock.advance_ms(5 * 60_000);
    assert_eq!(
        redeem(&app, token_of(&link)).await.status(),
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_sign_in_link_needs_a_token() {
    let app = TestApp::start().await;
    let answer: Value = app
        .call(
            Method::POST,
            "/login-links",
            None,
            None,
            StatusCode::UNAUTHORIZED,
        )
        .await;
    assert_eq!(answer["error"]["code"], "missing_token");
}

#[tokio::test]
async fn the_session_cookie_is_http_only_lax_and_secure_behind_https() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let answer = redeem(&app, token_of(&login_link(&app, &ada).await)).await;
    let set = answer.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(set.starts_with("taflbot_session=tfl_session_"), "{set}");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(set.contains(flag), "{flag} missing: {set}");
    }
    assert!(
        !set.contains("Secure"),
        "plain http must not mark it Secure: {set}"
    );

    let app = TestApp::start_with(|c| c.http.public_url = "https://tafl.example.org".into()).await;
    let ada = app.register("Ada").await;
    let link = login_link(&app, &ada).await;
    assert!(
        link.starts_with("https://tafl.example.org/login/"),
        "{link}"
    );
    let answer = redeem(&app, token_of(&link)).await;
    let set = answer.headers()[SET_COOKIE].to_str().unwrap();
    assert!(set.contains("; Secure"), "{set}");
}

#[tokio::test]
async fn a_post_without_the_sessions_csrf_token_is_refused() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let _ = b;
    let (cookie, csrf) = signed_in(&app, &a).await;
    let post = |headers: Vec<(&'static str, String)>, form: Vec<(&'static str, &'static str)>| {
        let mut request = browserless()
            .post(format!("{}/games/{game}/move", app.base))
            .header(COOKIE, &cookie)
            .form(&form);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        request.send()
    };
    let without = post(vec![], vec![("move", "d1-c1")]).await.unwrap();
    assert_eq!(without.status(), StatusCode::FORBIDDEN);
    let wrong = post(
        vec![("x-csrf-token", "0".repeat(64))],
        vec![("move", "d1-c1")],
    )
    .await
    .unwrap();
    assert_eq!(wrong.status(), StatusCode::FORBIDDEN);
    assert!(wrong.text().await.unwrap().contains("security token"));
    // Nothing was played.
    assert_eq!(app.get(&format!("/games/{game}"), &a.token).await["ply"], 0);
    let with = post(
        vec![("x-csrf-token", csrf.clone())],
        vec![("move", "d1-c1")],
    )
    .await
    .unwrap();
    assert_eq!(with.status(), StatusCode::OK);
    assert_eq!(app.get(&format!("/games/{game}"), &a.token).await["ply"], 1);
    // Forms: resigning without the field is refused too.
    let resign = browserless()
        .post(format!("{}/games/{game}/resign", app.base))
        .header(COOKIE, &cookie)
        .form(&[("csrf", "nope")])
        .send()
        .await
        .unwrap();
    assert_eq!(resign.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        app.get(&format!("/games/{game}"), &a.token).await["status"],
        "active"
    );
}

#[tokio::test]
async fn signing_out_ends_the_session() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let (cookie, csrf) = signed_in(&app, &ada).await;
    let without_csrf = browserless()
        .post(format!("{}/logout", app.base))
        .header(COOKIE, &cookie)
        .form(&[("next", "/")])
        .send()
        .await
        .unwrap();
    assert_eq!(without_csrf.status(), StatusCode::FORBIDDEN);
    let out = browserless()
        .post(format!("{}/logout", app.base))
        .header(COOKIE, &cookie)
        .form(&[("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), StatusCode::SEE_OTHER);
    let cleared = out.headers()[SET_COOKIE].to_str().unwrap();
    assert!(
        cleared.starts_with("taflbot_session=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    // The old cookie no longer signs anyone in.
    assert_eq!(csrf_of(&app, &cookie).await, None);
}

#[tokio::test]
async fn a_pasted_api_token_signs_in_and_a_wrong_one_does_not() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let sign_in = |token: String| {
        let app = &app;
        async move { Ok::<_, ()>(paste_token(app, &token).await) }
    };
    let ok = sign_in(ada.token.clone()).await.unwrap();
    assert_eq!(ok.status(), StatusCode::SEE_OTHER);
    assert!(csrf_of(&app, &session_of(&ok)).await.is_some());
    let bad = sign_in("tfl_nope".into()).await.unwrap();
    assert_eq!(bad.status(), StatusCode::FORBIDDEN);
    assert!(!opens_a_session(&bad), "a refused sign-in opened a session");
}

#[tokio::test]
async fn revoking_a_token_ends_the_browser_sessions_it_opened_or_asked_a_link_for() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let pasted = paste_token(&app, &ada.token).await;
    assert_eq!(pasted.status(), StatusCode::SEE_OTHER);
    let by_token = session_of(&pasted);
    // A sign-in link the (stolen) token asked for: its session is the token's too.
    let (by_link_of_token, _) = signed_in(&app, &ada).await;
    assert!(csrf_of(&app, &by_token).await.is_some());

    // Ada revokes the token (with another one of hers, as a player whose token was stolen would).
    let other = app
        .call(
            reqwest::Method::POST,
            "/tokens",
            Some(&ada.token),
            Some(serde_json::json!({ "name": "laptop" })),
            StatusCode::CREATED,
        )
        .await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let tokens = app.get("/tokens", &other).await;
    let stolen = tokens
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] != "laptop")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    // A link asked for with the token that stays, before the other is revoked.
    let kept_link = login_link_with(&app, &other).await;
    let by_link_of_other = session_of(&redeem(&app, token_of(&kept_link)).await);
    app.call(
        reqwest::Method::DELETE,
        &format!("/tokens/{stolen}"),
        Some(&other),
        None,
        StatusCode::NO_CONTENT,
    )
    .await;

    assert_eq!(
        csrf_of(&app, &by_token).await,
        None,
        "the session the revoked token opened is over"
    );
    assert_eq!(
        csrf_of(&app, &by_link_of_token).await,
        None,
        "the session of a sign-in link the revoked token asked for is over"
    );
    assert!(
        csrf_of(&app, &by_link_of_other).await.is_some(),
        "a session of a link another token asked for is not the revoked token's"
    );
}

/// A Copenhagen game well under way: 60 moves, each side's first legal move.
pub(super) async fn game_of_sixty_moves(app: &TestApp) -> (Player, Player, i64) {
    let (a, b, game) = app.game_between_a_and_b("copenhagen").await;
    for ply in 0..60u64 {
        let who = if ply % 2 == 0 { &a } else { &b };
        let legal = app
            .get(&format!("/games/{game}/legal-moves"), &who.token)
            .await;
        let Some(mv) = legal["moves"][0].as_str().map(str::to_owned) else {
            break;
        };
        app.post(
            &format!("/games/{game}/moves"),
            &who.token,
            serde_json::json!({ "move": mv, "ply": ply }),
        )
        .await;
    }
    (a, b, game)
}

#[tokio::test]
async fn a_game_page_with_its_styles_and_scripts_stays_under_100_kb() {
    let app = TestApp::start().await;
    let (a, _, game) = game_of_sixty_moves(&app).await;
    let (cookie, _) = signed_in(&app, &a).await;
    let html = browserless()
        .get(format!("{}/games/{game}", app.base))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let assets = taflbot::server::web::game_page_asset_bytes();
    let total = html.len() + assets;
    // The figure docs/web.md quotes.
    println!(
        "game page (Copenhagen 11x11, 60 moves): {} bytes HTML + {assets} bytes CSS and JS = {total}",
        html.len()
    );
    assert!(total < 100_000, "{total} bytes");
}

#[tokio::test]
async fn pages_refuse_frames_and_caches_and_load_only_their_own_files() {
    let app = TestApp::start().await;
    let page = browserless()
        .get(format!("{}/", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let h = page.headers();
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    assert_eq!(h["x-frame-options"], "DENY");
    assert_eq!(h["cache-control"], "no-store");
    assert_eq!(h["referrer-policy"], "same-origin");
    // The assets may be kept a while.
    let css = browserless()
        .get(format!("{}/assets/app.css", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(css.headers()["cache-control"], "public, max-age=3600");
}

#[tokio::test]
async fn a_private_game_is_not_found_on_the_web_but_by_its_players() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let c = app.register("C").await;
    let challenge = app
        .challenge(
            &a,
            serde_json::json!({ "opponent_id": b.id, "variant": "brandubh", "private": true }),
        )
        .await;
    let game = app
        .post(
            &format!("/challenges/{challenge}/accept"),
            &b.token,
            serde_json::json!({}),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let page = |cookie: Option<String>, path: String| {
        let mut request = browserless().get(format!("{}{path}", app.base));
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send()
    };
    for path in [
        format!("/games/{game}"),
        format!("/games/{game}/board"),
        format!("/games/{game}/live"),
    ] {
        assert_eq!(
            page(None, path.clone()).await.unwrap().status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
        let (other, _) = signed_in(&app, &c).await;
        assert_eq!(
            page(Some(other), path.clone()).await.unwrap().status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let (player, _) = signed_in(&app, &a).await;
    let shown = page(Some(player), format!("/games/{game}")).await.unwrap();
    assert_eq!(shown.status(), StatusCode::OK);
    assert!(shown.text().await.unwrap().contains("private"));
}

#[tokio::test]
async fn another_sites_form_cannot_sign_a_visitor_in() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let answer = browserless()
        .post(format!("{}/login/token", app.base))
        .header("sec-fetch-site", "cross-site")
        .form(&[("token", ada.token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::FORBIDDEN);
    assert!(answer.headers().get(SET_COOKIE).is_none());
}
