use std::sync::{Arc, Mutex};
use std::time::Duration;
use taflbot_test_support::eventually;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode as AxStatus};
use axum::routing::post;
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot::notify::{EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verify};

use taflbot::store::params;

use crate::common::TestApp;

#[derive(Default)]
pub(crate) struct Receiver {
    /// (event id, body) of each accepted delivery.
    pub(crate) accepted: Vec<(i64, Value)>,
    pub(crate) refused: usize,
    pub(crate) bad_signatures: usize,
    /// Refuse this many deliveries first.
    pub(crate) fail_first: usize,
}

pub(crate) const SECRET: &str = "webhook-secret-1";

pub(crate) async fn start_receiver(state: Arc<Mutex<Receiver>>) -> String {
    crate::contract::contract().prepare_delivery_checks();
    let app = axum::Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, body: Bytes| {
            let state = state.clone();
            async move {
                // Judged against the document's `webhooks`; a mismatch is never accepted, so the
                // test waiting for it fails, with the mismatch in its output.
                if let Err(mismatch) = crate::contract::contract().check_delivery(&headers, &body) {
                    eprintln!("the delivery breaks the OpenAPI document: {mismatch}");
                    return AxStatus::BAD_REQUEST;
                }
                let ts: i64 = headers[TIMESTAMP_HEADER].to_str().unwrap().parse().unwrap();
                let sig = headers[SIGNATURE_HEADER].to_str().unwrap();
                let mut s = state.lock().unwrap();
                if !verify(SECRET, ts, &body, sig) {
                    s.bad_signatures += 1;
                    return AxStatus::UNAUTHORIZED;
                }
                if s.fail_first > 0 {
                    s.fail_first -= 1;
                    s.refused += 1;
                    return AxStatus::INTERNAL_SERVER_ERROR;
                }
                let id: i64 = headers[EVENT_ID_HEADER].to_str().unwrap().parse().unwrap();
                s.accepted
                    .push((id, serde_json::from_slice(&body).unwrap()));
                AxStatus::OK
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}/hook")
}

/// Waits for `done`, failing after 30 s (generous: the suites run in parallel on 2 cores).
async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    eventually(Duration::from_secs(30), what, || {
        let found = done().then_some(());
        async move { found }
    })
    .await;
}

#[tokio::test]
async fn webhooks_get_signed_events_and_failures_are_retried() {
    // The receiver is local: the operator allows it.
    let app = TestApp::start_with(|c| c.webhooks.allow_private = vec!["127.0.0.1".into()]).await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let state = Arc::new(Mutex::new(Receiver {
        fail_first: 2,
        ..Receiver::default()
    }));
    let url = start_receiver(state.clone()).await;
    let hook = app
        .call(
            Method::POST,
            "/webhooks",
            Some(&b.token),
            Some(json!({ "url": url, "secret": SECRET })),
            StatusCode::CREATED,
        )
        .await;
    assert!(
        hook.get("secret").is_none(),
        "the secret is never shown back"
    );
    let game = app
        .start_game(&a, &b, "tablut", json!({ "kind": "unlimited" }))
        .await;
    app.play_line(game, &a, &b, &["d1-a1"]).await;
    // challenge_created, challenge_accepted, game_started, move_played: the first two
    // deliveries are refused and retried after the backoff (fake clock).
    wait_until("two refused deliveries", || {
        state.lock().unwrap().refused == 2
    })
    .await;
    wait_until("two accepted deliveries", || {
        state.lock().unwrap().accepted.len() == 2
    })
    .await;
    app.clock.advance_ms(2_000);
    wait_until("four accepted deliveries", || {
        state.lock().unwrap().accepted.len() == 4
    })
    .await;
    let s = state.lock().unwrap();
    assert_eq!(s.bad_signatures, 0);
    let mut kinds: Vec<(i64, String)> = s
        .accepted
        .iter()
        .map(|(id, body)| {
            assert_eq!(body["id"], *id, "the header id is the body's stable id");
            (*id, body["kind"].as_str().unwrap().to_owned())
        })
        .collect();
    kinds.sort();
    let kinds: Vec<&str> = kinds.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "challenge_created",
            "challenge_accepted",
            "game_started",
            "move_played"
        ]
    );
}

/// The lines of an NDJSON event stream, read as they come.
pub(crate) struct EventLines {
    stream: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<Bytes>> + Send>>,
    buf: Vec<u8>,
}

impl EventLines {
    pub(crate) fn new(resp: reqwest::Response) -> EventLines {
        EventLines {
            stream: Box::pin(resp.bytes_stream()),
            buf: Vec::new(),
        }
    }

    /// The next lines up to and including the `want`-th event (keep-alives included);
    /// fails after 5 s.
    pub(crate) async fn events(&mut self, want: usize) -> Vec<Value> {
        let mut lines = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let events = |lines: &Vec<Value>| lines.iter().filter(|l| l.get("id").is_some()).count();
        while events(&lines) < want {
            while events(&lines) < want
                && let Some(pos) = self.buf.iter().position(|&b| b == b'\n')
            {
                let line: Vec<u8> = self.buf.drain(..=pos).collect();
                lines.push(serde_json::from_slice(&line).unwrap());
            }
            if events(&lines) == want {
                break;
            }
            let chunk = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .expect("stream timed out")
                .expect("stream ended")
                .unwrap();
            self.buf.extend_from_slice(&chunk);
        }
        lines
    }
}

async fn read_lines(resp: reqwest::Response, want: usize) -> Vec<Value> {
    EventLines::new(resp).events(want).await
}

#[tokio::test]
async fn the_event_stream_replays_from_an_id_then_goes_live() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("tablut").await;
    app.play_line(game, &a, &b, &["d1-a1", "d5-d1"]).await;

    let resp = app
        .send(Method::GET, "/stream/events", Some(&a.token), None)
        .await;
    assert_eq!(resp.headers()["content-type"], "application/x-ndjson");
    let first = read_lines(resp, 5).await;
    let ids: Vec<i64> = first.iter().filter_map(|l| l["id"].as_i64()).collect();
    assert_eq!(ids.len(), 5);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let third = ids[2];

    // Resume after the third: the fourth and fifth, then a live one.
    let resp = app
        .send(
            Method::GET,
            &format!("/stream/events?since={third}"),
            Some(&a.token),
            None,
        )
        .await;
    let mut stream = EventLines::new(resp);
    let replayed = stream.events(2).await;
    let got: Vec<i64> = replayed.iter().filter_map(|l| l["id"].as_i64()).collect();
    assert_eq!(&got[..], &ids[3..5]);
    // The stream has caught up; a move now arrives live.
    app.call(
        Method::POST,
        &format!("/games/{game}/moves"),
        Some(&a.token),
        Some(json!({ "move": "a1-b1", "ply": 2 })),
        StatusCode::OK,
    )
    .await;
    let live = stream.events(1).await;
    let event = live.iter().rfind(|l| l["id"].is_i64()).unwrap();
    assert!(event["id"].as_i64().unwrap() > ids[4]);
    assert_eq!(event["kind"], "move_played");

    // Another player's stream holds none of these games' events.
    let c = app.register("C").await;
    let resp = app
        .send(Method::GET, "/stream/events", Some(&c.token), None)
        .await;
    let mut stream = resp.bytes_stream();
    let chunk = tokio::time::timeout(Duration::from_secs(3), stream.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let line: Value = serde_json::from_slice(&chunk[..chunk.len() - 1]).unwrap();
    assert_eq!(line["keepalive"], true);
}

#[tokio::test]
async fn a_delivery_is_given_up_after_max_attempts() {
    let app = TestApp::start_with(|c| {
        c.webhooks.max_attempts = 2;
        c.webhooks.initial_backoff_ms = 100;
        c.webhooks.allow_private = vec!["127.0.0.1".into()];
    })
    .await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let state = Arc::new(Mutex::new(Receiver {
        fail_first: usize::MAX,
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
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({ "opponent_id": b.id })),
        StatusCode::CREATED,
    )
    .await;
    let delivery = || async {
        app.service()
            .store()
            .read(|c| {
                c.query_one(
                    "SELECT status, attempts, last_error FROM deliveries",
                    params![],
                    |r| {
                        Ok((
                            r.get::<String>(0)?,
                            r.get::<i64>(1)?,
                            r.get::<Option<String>>(2)?,
                        ))
                    },
                )
            })
            .await
            .unwrap()
    };
    let settled = |wanted: fn(&(String, i64, Option<String>)) -> bool, what: &'static str| async move {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let row = delivery().await;
            if wanted(&row) {
                break row;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{what} not seen within 30 s: {row:?}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    wait_until("the first refused delivery", || {
        state.lock().unwrap().refused == 1
    })
    .await;
    // The failure is written after the receiver answered: only then does the retry's time
    // count from this clock.
    settled(|row| row.1 == 1, "the first failure recorded").await;
    app.clock.advance_ms(100);
    wait_until("two refused deliveries", || {
        state.lock().unwrap().refused == 2
    })
    .await;
    // The second failure gives the delivery up: it is never due again, however long we wait.
    let (status, attempts, error) =
        settled(|row| row.0 != "pending", "the delivery given up").await;
    assert_eq!((status.as_str(), attempts), ("failed", 2));
    let error = error.unwrap_or_default();
    assert!(error.contains("500"), "{error}");
    app.clock.advance_ms(3_600_000);
    assert!(
        app.service()
            .webhooks()
            .due_deliveries(10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(state.lock().unwrap().refused, 2);
}
