//! A player's list of their browser sessions, over the API and on the web page: how each was
//! opened, its browser, when it was last seen; ending one, or all but this browser's.

use std::time::Duration;

use reqwest::header::{COOKIE, LOCATION, USER_AGENT};
use reqwest::{Method, StatusCode};
use serde_json::Value;
use taflbot_test_support::eventually;

use crate::common::{Player, TestApp};
use crate::web_sessions::{browserless, csrf_of, login_link, session_of, sign_in_form, token_of};

/// Signs `player` in with a sign-in link from a browser that calls itself `agent`; the cookie.
async fn signed_in_as(app: &TestApp, player: &Player, agent: &str) -> String {
    let link = login_link(app, player).await;
    let (cookie, form_token) = sign_in_form(app).await;
    let answer = browserless()
        .post(format!("{}/login", app.base))
        .header(USER_AGENT, agent)
        .header(COOKIE, cookie)
        .form(&[("token", token_of(&link)), ("form_token", &form_token)])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    session_of(&answer)
}

/// Signs `player` in by pasting their token, from a browser that calls itself `agent`.
async fn pasted_in_as(app: &TestApp, player: &Player, agent: &str) -> String {
    let (cookie, form_token) = sign_in_form(app).await;
    let answer = browserless()
        .post(format!("{}/login/token", app.base))
        .header(USER_AGENT, agent)
        .header(COOKIE, cookie)
        .form(&[
            ("token", player.token.as_str()),
            ("form_token", &form_token),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::SEE_OTHER);
    session_of(&answer)
}

async fn sessions(app: &TestApp, player: &Player) -> Vec<Value> {
    app.get("/me/sessions", &player.token)
        .await
        .as_array()
        .unwrap()
        .clone()
}

fn with_agent<'a>(list: &'a [Value], agent: &str) -> &'a Value {
    list.iter()
        .find(|s| s["user_agent"] == agent)
        .unwrap_or_else(|| panic!("no session of {agent} in {list:?}"))
}

#[tokio::test]
async fn a_player_lists_their_sessions_and_ends_one_then_all() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let bob = app.register("Bob").await;
    let by_link = signed_in_as(&app, &ada, "Firefox on the laptop").await;
    let by_token = pasted_in_as(&app, &ada, "Chromium on the phone").await;
    let bobs = signed_in_as(&app, &bob, "Bob's browser").await;

    let list = sessions(&app, &ada).await;
    assert_eq!(list.len(), 2, "{list:?}");
    let laptop = with_agent(&list, "Firefox on the laptop");
    let phone = with_agent(&list, "Chromium on the phone");
    assert_eq!(laptop["opened_by"], "sign_in_link");
    assert_eq!(phone["opened_by"], "api_token");
    for s in [laptop, phone] {
        assert_eq!(s["current"], false, "a token's request has no session");
        assert!(s["created_at"].as_i64().unwrap() > 0);
        assert!(s["expires_at"].as_i64() > s["created_at"].as_i64());
        assert!(s.get("csrf_token").is_none() && s.get("session_hash").is_none());
    }

    // Another player's session is not found by Ada, and an unknown one neither.
    let bobs_id = sessions(&app, &bob).await[0]["id"].as_i64().unwrap();
    for id in [bobs_id, 9_999] {
        let refused = app
            .call(
                Method::DELETE,
                &format!("/me/sessions/{id}"),
                Some(&ada.token),
                None,
                StatusCode::NOT_FOUND,
            )
            .await;
        assert_eq!(refused["error"]["code"], "not_found", "{refused}");
    }
    assert!(csrf_of(&app, &bobs).await.is_some());

    let laptop_id = laptop["id"].as_i64().unwrap();
    app.call(
        Method::DELETE,
        &format!("/me/sessions/{laptop_id}"),
        Some(&ada.token),
        None,
        StatusCode::NO_CONTENT,
    )
    .await;
    assert_eq!(
        csrf_of(&app, &by_link).await,
        None,
        "the laptop is signed out"
    );
    assert!(csrf_of(&app, &by_token).await.is_some(), "the phone is not");
    assert_eq!(sessions(&app, &ada).await.len(), 1);

    let ended = app
        .call(
            Method::DELETE,
            "/me/sessions",
            Some(&ada.token),
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(ended["ended"], 1);
    assert_eq!(csrf_of(&app, &by_token).await, None);
    assert!(sessions(&app, &ada).await.is_empty());
    assert!(csrf_of(&app, &bobs).await.is_some(), "Bob's session is his");
}

#[tokio::test]
async fn a_session_notes_when_it_was_last_seen() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let cookie = signed_in_as(&app, &ada, "Firefox").await;
    assert_eq!(sessions(&app, &ada).await[0]["last_seen_at"], Value::Null);
    app.clock.advance_ms(5_000);
    assert!(csrf_of(&app, &cookie).await.is_some());
    let seen = eventually(
        Duration::from_secs(10),
        "the session's last sight is recorded",
        || async { sessions(&app, &ada).await[0]["last_seen_at"].as_i64() },
    )
    .await;
    assert_eq!(seen, app.service().now_ms());
}

#[tokio::test]
async fn the_sessions_page_marks_this_session_and_signs_out_another_or_all_others() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let here = signed_in_as(&app, &ada, "This browser").await;
    let phone = signed_in_as(&app, &ada, "The phone").await;
    let tablet = signed_in_as(&app, &ada, "The tablet").await;
    let csrf = csrf_of(&app, &here).await.unwrap();

    let page = sessions_page(&app, &here).await;
    assert!(page.contains("this session"), "{page}");
    for agent in ["This browser", "The phone", "The tablet"] {
        assert!(page.contains(agent), "{agent} missing: {page}");
    }
    let list = sessions(&app, &ada).await;
    let phone_id = with_agent(&list, "The phone")["id"].as_i64().unwrap();

    // Without the CSRF token nothing ends.
    let forged = post_form(
        &app,
        &here,
        &format!("/me/sessions/{phone_id}/end"),
        "wrong",
    )
    .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(csrf_of(&app, &phone).await.is_some());

    let ended = post_form(&app, &here, &format!("/me/sessions/{phone_id}/end"), &csrf).await;
    assert_eq!(ended.status(), StatusCode::SEE_OTHER);
    assert_eq!(ended.headers()[LOCATION], "/me/sessions");
    assert_eq!(csrf_of(&app, &phone).await, None);
    assert!(!sessions_page(&app, &here).await.contains("The phone"));

    let others = post_form(&app, &here, "/me/sessions/end-others", &csrf).await;
    assert_eq!(others.status(), StatusCode::SEE_OTHER);
    assert_eq!(csrf_of(&app, &tablet).await, None);
    assert!(csrf_of(&app, &here).await.is_some(), "this browser stays");
    let list = sessions(&app, &ada).await;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["user_agent"], "This browser");

    // Signed out, the page asks for a sign-in.
    let anonymous = browserless()
        .get(format!("{}/me/sessions", app.base))
        .send()
        .await
        .unwrap();
    assert_ne!(anonymous.status(), StatusCode::OK);
}

async fn sessions_page(app: &TestApp, cookie: &str) -> String {
    let answer = browserless()
        .get(format!("{}/me/sessions", app.base))
        .header(COOKIE, cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    answer.text().await.unwrap()
}

async fn post_form(app: &TestApp, cookie: &str, path: &str, csrf: &str) -> reqwest::Response {
    browserless()
        .post(format!("{}{path}", app.base))
        .header(COOKIE, cookie)
        .form(&[("csrf", csrf)])
        .send()
        .await
        .unwrap()
}
