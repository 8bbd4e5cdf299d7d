//! What operators see: readiness, Prometheus metrics, request ids.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;

#[tokio::test]
async fn ready_checks_the_store_the_scheduler_and_discord() {
    let app = TestApp::start().await;
    let ready = app
        .call(Method::GET, "/health/ready", None, None, StatusCode::OK)
        .await;
    assert_eq!(ready["ready"], true, "{ready}");
    assert_eq!(ready["checks"]["database"]["ok"], true, "{ready}");
    assert_eq!(
        ready["checks"]["discord"]["status"],
        json!({ "state": "off" })
    );
    assert!(ready["checks"]["scheduler"]["ok"] == true, "{ready}");
}

/// The value of the first metric line that starts with `series` (name and labels).
fn sample(metrics: &str, series: &str) -> Option<f64> {
    metrics
        .lines()
        .find(|line| line.starts_with(series))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

#[tokio::test]
async fn metrics_count_requests_moves_and_games_and_show_the_outboxes() {
    let app = TestApp::start().await;
    let scrape = || async {
        app.client
            .get(format!("{}/metrics", app.base))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    };
    let moves = "taflbot_moves_total{by=\"player\"}";
    let before = sample(&scrape().await, moves).unwrap_or(0.0);
    let (a, b) = (app.register("A").await, app.register("B").await);
    let game = app
        .start_game(&a, &b, "brandubh", json!({ "kind": "unlimited" }))
        .await;
    app.play_line(game, &a, &b, &["d1-b1", "c4-c2"]).await;

    let text = scrape().await;
    // Other tests in this process count too: compare with what was there before.
    assert!(
        sample(&text, moves).unwrap_or(0.0) >= before + 2.0,
        "{text}"
    );
    assert!(sample(&text, "taflbot_games_started_total").unwrap_or(0.0) >= 1.0);
    let posted = "taflbot_http_requests_total{route=\"/api/v1/games/{id}/moves\",method=\"POST\",status=\"200\"}";
    assert!(sample(&text, posted).unwrap_or(0.0) >= 2.0, "{text}");
    assert!(
        text.contains(
            "taflbot_http_request_duration_seconds_bucket{route=\"/api/v1/games/{id}/moves\""
        ),
        "latency histogram by route"
    );
    assert!(
        sample(&text, "taflbot_outbox_pending{outbox=\"discord\"}").is_some(),
        "{text}"
    );
    assert!(
        sample(&text, "taflbot_outbox_pending{outbox=\"webhooks\"}").is_some(),
        "{text}"
    );
}

#[tokio::test]
async fn every_answer_carries_a_request_id_and_keeps_the_clients_own() {
    let app = TestApp::start().await;
    let answer = app.send(Method::GET, "/health", None, None).await;
    let id = answer.headers().get("x-request-id").cloned();
    assert!(id.is_some_and(|id| !id.is_empty()), "a request id");
    let answer = app
        .client
        .get(app.url("/health"))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.headers()["x-request-id"], "trace-me-42");
}
