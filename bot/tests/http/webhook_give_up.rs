//! A webhook whose endpoint is gone for good: the breaker's waits are not attempts, so its
//! deliveries would stay pending for long. Once it has failed for `webhooks.give_up_after_secs`
//! it is given up: its pending deliveries are marked failed, new events queue none, and its
//! listing tells its owner.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot::store::params;
use taflbot_test_support::eventually;

use crate::common::{Player, TestApp};
use crate::events::{Receiver, SECRET, start_receiver};

const DAY_MS: i64 = 24 * 3_600_000;

async fn the_webhook(app: &TestApp, owner: &Player) -> Value {
    app.get("/webhooks", &owner.token).await[0].clone()
}

/// The deliveries' statuses, by status: (pending, failed).
async fn deliveries(app: &TestApp) -> (i64, i64) {
    app.service()
        .store()
        .read(|c| {
            c.query_one(
                "SELECT COUNT(CASE WHEN status = 'pending' THEN 1 END), \
                 COUNT(CASE WHEN status = 'failed' THEN 1 END) FROM deliveries",
                params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
        })
        .await
        .unwrap()
}

/// A challenges B, whose webhook's endpoint refuses its first `fail_first` deliveries.
async fn challenged_with_a_webhook(
    app: &TestApp,
    fail_first: usize,
) -> (Player, Player, Arc<Mutex<Receiver>>) {
    let a = app.register("A").await;
    let b = app.register("B").await;
    let state = Arc::new(Mutex::new(Receiver {
        fail_first,
        ..Receiver::default()
    }));
    let url = start_receiver(state.clone()).await;
    app.call(
        Method::POST,
        "/webhooks",
        Some(&b.token),
        Some(json!({ "url": url, "secret": SECRET })),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(the_webhook(app, &b).await["status"], "delivering");
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({ "opponent_id": b.id })),
        StatusCode::CREATED,
    )
    .await;
    (a, b, state)
}

#[tokio::test]
async fn a_webhook_failing_for_days_is_given_up_and_its_owner_told() {
    let app = TestApp::start_with(|c| {
        c.webhooks.give_up_after_secs = 3 * 24 * 3600;
        c.webhooks.max_attempts = 1_000;
        c.webhooks.initial_backoff_ms = 100;
        c.webhooks.max_backoff_ms = 100;
        c.webhooks.allow_private = vec!["127.0.0.1".into()];
    })
    .await;
    let (a, b, state) = challenged_with_a_webhook(&app, usize::MAX).await;
    let challenge = json!({ "opponent_id": b.id });

    let first_failure = app.service().now_ms();
    let hook = eventually(Duration::from_secs(30), "the webhook failing", || async {
        let hook = the_webhook(&app, &b).await;
        (hook["status"] == "failing").then_some(hook)
    })
    .await;
    assert_eq!(hook["failing_since"], first_failure);
    assert_eq!(hook["gave_up_at"], Value::Null);

    // Two days on it still fails, and is still tried.
    app.clock.advance_ms(2 * DAY_MS);
    let refused = state.lock().unwrap().refused;
    eventually(Duration::from_secs(30), "another failed try", || {
        let more = state.lock().unwrap().refused > refused;
        async move { more.then_some(()) }
    })
    .await;
    assert_eq!(the_webhook(&app, &b).await["status"], "failing");
    let (pending, _) = deliveries(&app).await;
    assert!(pending >= 1, "still pending");

    // Past three days of failing, its next failure gives it up.
    app.clock.advance_ms(DAY_MS + 1_000);
    let hook = eventually(Duration::from_secs(30), "the webhook given up", || async {
        let hook = the_webhook(&app, &b).await;
        (hook["status"] == "gave_up").then_some(hook)
    })
    .await;
    assert!(hook["gave_up_at"].as_i64().unwrap() >= first_failure + 3 * DAY_MS);
    assert_eq!(hook["failing_since"], first_failure);
    let given_up = deliveries(&app).await;
    assert_eq!(given_up, (0, pending), "its deliveries failed");

    // A new event queues nothing for it.
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(challenge),
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(deliveries(&app).await, given_up);
}

#[tokio::test]
async fn a_webhook_that_answers_again_is_failing_no_more() {
    let app = TestApp::start_with(|c| {
        c.webhooks.initial_backoff_ms = 100;
        c.webhooks.max_backoff_ms = 100;
        c.webhooks.allow_private = vec!["127.0.0.1".into()];
    })
    .await;
    let (_a, b, state) = challenged_with_a_webhook(&app, 1).await;
    eventually(Duration::from_secs(30), "the webhook failing", || async {
        (the_webhook(&app, &b).await["status"] == "failing").then_some(())
    })
    .await;
    app.clock.advance_ms(1_000);
    eventually(
        Duration::from_secs(30),
        "the webhook delivering again",
        || async {
            let hook = the_webhook(&app, &b).await;
            (hook["status"] == "delivering" && hook["failing_since"].is_null()).then_some(())
        },
    )
    .await;
    assert_eq!(state.lock().unwrap().accepted.len(), 1);
}
