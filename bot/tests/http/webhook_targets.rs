//! Webhooks cannot be pointed into the server's own network, at registration or at delivery.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use taflbot::store::params;

use crate::common::{Player, TestApp};
use crate::events::{Receiver, SECRET, start_receiver};

async fn add_webhook(app: &TestApp, who: &Player, url: &str, status: StatusCode) -> Value {
    app.call(
        Method::POST,
        "/webhooks",
        Some(&who.token),
        Some(json!({ "url": url, "secret": SECRET })),
        status,
    )
    .await
}

#[tokio::test]
async fn webhooks_into_the_servers_network_or_over_http_are_refused() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    for (url, says) in [
        ("http://127.0.0.1/", "127.0.0.1, a loopback address"),
        (
            "https://10.1.2.3/",
            "10.1.2.3, a private (RFC 1918) address",
        ),
        ("https://[::1]/", "::1, a loopback address"),
        (
            "https://[::ffff:192.168.0.1]/",
            "a private (RFC 1918) address",
        ),
        ("https://169.254.169.254/", "a link-local address"),
        ("https://100.64.0.1/", "CGNAT"),
        ("https://localhost/", "webhook host localhost resolves to"),
        ("http://example.com/", "webhook url must be https"),
    ] {
        let e = add_webhook(&app, &a, url, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(e["error"]["code"], "invalid", "{url}: {e}");
        let message = e["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{url}: {message}");
    }
    assert_eq!(app.get("/webhooks", &a.token).await, json!([]));
}

#[tokio::test]
async fn webhooks_the_operator_lists_are_accepted() {
    let app = TestApp::start_with(|c| {
        c.webhooks.allow_private = vec![
            "127.0.0.1".into(),
            "10.0.0.0/8".into(),
            "::1".into(),
            "localhost".into(),
        ]
    })
    .await;
    let a = app.register("A").await;
    for url in [
        "http://127.0.0.1/",
        "https://10.1.2.3/",
        "https://[::1]/",
        "https://localhost/",
        "http://localhost:8080/hook",
    ] {
        add_webhook(&app, &a, url, StatusCode::CREATED).await;
    }
    // Still not: another private network, and plain http elsewhere.
    add_webhook(
        &app,
        &a,
        "https://192.168.1.1/",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    add_webhook(
        &app,
        &a,
        "http://example.com/",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
}

#[tokio::test]
async fn a_delivery_to_a_target_no_longer_allowed_is_not_sent() {
    let mut app =
        TestApp::start_with(|c| c.webhooks.allow_private = vec!["127.0.0.1".into()]).await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let state = Arc::new(Mutex::new(Receiver::default()));
    let url = start_receiver(state.clone()).await;
    add_webhook(&app, &b, &url, StatusCode::CREATED).await;
    // The operator takes the exception back: the delivery is checked again and refused.
    app.config.webhooks.allow_private.clear();
    let app = app.restart().await;
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({ "opponent_id": b.id })),
        StatusCode::CREATED,
    )
    .await;
    let mut error = None;
    for _ in 0..500 {
        error = app
            .service()
            .store()
            .read(|c| {
                Ok::<_, taflbot::store::StoreError>(
                    c.query_one(
                        "SELECT last_error FROM deliveries WHERE attempts > 0",
                        params![],
                        |r| r.get::<String>(0),
                    )
                    .ok(),
                )
            })
            .await
            .unwrap();
        if error.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let error = error.expect("the delivery was attempted");
    assert!(error.starts_with("refused: "), "{error}");
    assert!(error.contains("127.0.0.1, a loopback address"), "{error}");
    assert!(state.lock().unwrap().accepted.is_empty());
}
