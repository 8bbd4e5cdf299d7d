//! Webhook deliveries never wait for each other: a webhook whose endpoint never answers holds
//! at most `webhooks.max_in_flight_per_endpoint` deliveries in flight, and another player's
//! webhook is delivered beside it, promptly.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;
use taflbot_test_support::eventually;

use crate::common::TestApp;
use crate::events::{Receiver, SECRET, start_receiver};

/// An endpoint that accepts connections and never answers; counts how many it holds at once.
struct Silent {
    url: String,
    open: Arc<AtomicUsize>,
    most_open: Arc<AtomicUsize>,
}

async fn silent_endpoint() -> Silent {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let open = Arc::new(AtomicUsize::new(0));
    let most_open = Arc::new(AtomicUsize::new(0));
    let (o, m) = (open.clone(), most_open.clone());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let now = o.fetch_add(1, Ordering::SeqCst) + 1;
            m.fetch_max(now, Ordering::SeqCst);
            let o = o.clone();
            tokio::spawn(async move {
                // Read what comes, answer nothing, until the sender gives up.
                let mut buf = [0u8; 4096];
                loop {
                    match tokio::io::AsyncReadExt::read(&mut stream, &mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                }
                o.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    Silent {
        url,
        open,
        most_open,
    }
}

async fn add_webhook(app: &TestApp, token: &str, url: &str) {
    app.call(
        Method::POST,
        "/webhooks",
        Some(token),
        Some(json!({ "url": url, "secret": SECRET })),
        StatusCode::CREATED,
    )
    .await;
}

/// The kinds `state`'s receiver accepted, in id order.
fn kinds(state: &Mutex<Receiver>) -> Vec<String> {
    let mut got: Vec<(i64, String)> = state
        .lock()
        .unwrap()
        .accepted
        .iter()
        .map(|(id, body)| (*id, body["kind"].as_str().unwrap_or_default().to_owned()))
        .collect();
    got.sort();
    got.into_iter().map(|(_, kind)| kind).collect()
}

#[tokio::test]
async fn a_webhook_that_never_answers_does_not_delay_another_players() {
    let app = TestApp::start_with(|c| {
        c.webhooks.allow_private = vec!["127.0.0.1".into()];
        // Far longer than the test waits for the good webhook.
        c.webhooks.timeout_ms = 60_000;
        c.webhooks.max_in_flight_per_endpoint = 2;
    })
    .await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let good = Arc::new(Mutex::new(Receiver::default()));
    add_webhook(&app, &a.token, &start_receiver(good.clone()).await).await;
    let silent = silent_endpoint().await;
    add_webhook(&app, &b.token, &silent.url).await;

    // Each event goes to both: A's deliveries arrive, B's hang.
    let game = app
        .start_game(&a, &b, "brandubh", json!({ "kind": "unlimited" }))
        .await;
    eventually(Duration::from_secs(10), "A's game_started", || {
        let seen = kinds(&good).contains(&"game_started".to_owned());
        async move { seen.then_some(()) }
    })
    .await;
    assert!(
        silent.open.load(Ordering::SeqCst) >= 1,
        "B's deliveries are in flight, unanswered"
    );

    // With B's deliveries still hanging, A's next events come at once.
    app.play_line(game, &a, &b, &["d2-e2", "c4-c2"]).await;
    eventually(
        Duration::from_secs(4),
        "A's move_played deliveries while B's endpoint hangs",
        || {
            let moves = kinds(&good)
                .iter()
                .filter(|k| k.as_str() == "move_played")
                .count();
            async move { (moves == 2).then_some(()) }
        },
    )
    .await;
    // B's endpoint was sent no more at once than its share.
    let most = silent.most_open.load(Ordering::SeqCst);
    assert!(most <= 2, "{most} deliveries in flight to one endpoint");
}
