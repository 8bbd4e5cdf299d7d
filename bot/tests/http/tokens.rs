//! A player's API tokens: listed without the secret, named, created, revoked at once.

use std::time::Duration;
use taflbot_test_support::eventually;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, T0, TestApp};

async fn create(app: &TestApp, owner: &Player, name: &str) -> Value {
    app.call(
        Method::POST,
        "/tokens",
        Some(&owner.token),
        Some(json!({ "name": name })),
        StatusCode::CREATED,
    )
    .await
}

/// Waits until the token named `name` shows `last_used_at == at`; fails after 5 s.
async fn wait_for_last_used(app: &TestApp, owner: &Player, name: &str, at: i64) {
    let what = format!("last_used_at of {name} to become {at}");
    eventually(Duration::from_secs(5), &what, || async {
        let list = app.get("/tokens", &owner.token).await;
        let token = list
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .cloned()
            .unwrap();
        (token["last_used_at"] == at).then_some(())
    })
    .await;
}

#[tokio::test]
async fn tokens_are_listed_without_the_secret_created_once_and_revoked_at_once() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;

    let created = create(&app, &a, "  laptop ").await;
    assert_eq!(created["name"], "laptop");
    assert_eq!(created["created_at"], T0);
    let laptop = Player {
        id: a.id,
        token: created["token"].as_str().unwrap().to_owned(),
    };
    assert_eq!(app.get("/me", &laptop.token).await["id"], a.id);

    let list = app.get("/tokens", &a.token).await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["registration", "laptop"]);
    let text = list.to_string();
    assert!(!text.contains(&a.token) && !text.contains(&laptop.token));
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("token").is_none())
    );

    // Only the owner may revoke; unknown ids are 404 alike.
    let id = created["id"].as_i64().unwrap();
    for (who, path) in [(&b, format!("/tokens/{id}")), (&a, "/tokens/9999".into())] {
        let e = app
            .call(
                Method::DELETE,
                &path,
                Some(&who.token),
                None,
                StatusCode::NOT_FOUND,
            )
            .await;
        assert_eq!(e["error"]["code"], "not_found");
    }
    // Revoked with another of A's tokens: the laptop's (cached) token fails on its next request.
    app.call(
        Method::DELETE,
        &format!("/tokens/{id}"),
        Some(&a.token),
        None,
        StatusCode::NO_CONTENT,
    )
    .await;
    let e = app
        .call(
            Method::GET,
            "/me",
            Some(&laptop.token),
            None,
            StatusCode::UNAUTHORIZED,
        )
        .await;
    assert_eq!(e["error"]["code"], "invalid_token");
    assert_eq!(
        app.get("/tokens", &a.token).await.as_array().unwrap().len(),
        1
    );

    // A token may revoke itself.
    let own = app.get("/tokens", &b.token).await[0]["id"]
        .as_i64()
        .unwrap();
    app.call(
        Method::DELETE,
        &format!("/tokens/{own}"),
        Some(&b.token),
        None,
        StatusCode::NO_CONTENT,
    )
    .await;
    app.call(
        Method::GET,
        "/me",
        Some(&b.token),
        None,
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

#[tokio::test]
async fn last_used_is_recorded_at_most_once_a_minute() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    // The first request records the registration token's use.
    wait_for_last_used(&app, &a, "registration", T0).await;

    app.clock.advance_ms(30_000);
    app.get("/me", &a.token).await;
    // Less than a minute later the stored time stays. (This read could race a write that
    // should not happen; the once-a-minute decision itself is made under the cache's lock.)
    wait_for_last_used(&app, &a, "registration", T0).await;

    app.clock.advance_ms(30_000);
    app.get("/me", &a.token).await;
    wait_for_last_used(&app, &a, "registration", T0 + 60_000).await;
}

#[tokio::test]
async fn token_names_are_checked_and_a_player_holds_at_most_20() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    for bad in [
        json!(""),
        json!("   "),
        json!("x".repeat(65)),
        json!("tab\there"),
    ] {
        let e = app
            .call(
                Method::POST,
                "/tokens",
                Some(&a.token),
                Some(json!({ "name": bad })),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        assert_eq!(e["error"]["code"], "invalid", "{bad}");
    }
    create(&app, &a, &"é".repeat(64)).await;
    // The registration token and the one above make 2.
    for i in 2..20 {
        create(&app, &a, &format!("t{i}")).await;
    }
    let e = app
        .call(
            Method::POST,
            "/tokens",
            Some(&a.token),
            Some(json!({ "name": "one too many" })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(
        e["error"]["message"].as_str().unwrap().contains("20"),
        "{e}"
    );
}
