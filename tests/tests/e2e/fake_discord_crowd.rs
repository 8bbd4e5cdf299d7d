//! The fake Discord as a crowd sees it, driven by a raw client: rate-limit buckets and their
//! headers, the global limit, the invalid-request ban, injected latency, and the gateway's
//! session starts and shard checks.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use taflbot_e2e::fake_discord::latency::{Delayed, Latency};
use taflbot_e2e::fake_discord::rate_limits::{BucketLimit, RouteGroup};
use taflbot_e2e::fake_discord::{FakeDiscord, Fault, RouteMatch};
use taflbot_e2e::world::WAIT;

use super::fake_discord_contract::{Received, connect, receive, send};

/// A REST request as a raw bot sends it; answers the status, the JSON body and the headers.
async fn request(
    fake: &FakeDiscord,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let mut request = reqwest::Client::new()
        .request(method, format!("{}/v10{path}", fake.api_base()))
        .header("Authorization", "Bot raw");
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("the fake answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body, headers)
}

async fn post_message(
    fake: &FakeDiscord,
    channel: u64,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let message = json!({ "content": "hi", "allowed_mentions": { "parse": [] } });
    let path = format!("/channels/{channel}/messages");
    request(fake, reqwest::Method::POST, &path, Some(message)).await
}

fn header(headers: &reqwest::header::HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_channel_bucket_counts_down_in_its_headers_then_refuses_with_429() {
    let fake = FakeDiscord::start().await.unwrap();
    let (first, second) = (fake.channel(), fake.new_channel("other"));
    for remaining in (0..5).rev() {
        let (status, _, headers) = post_message(&fake, first).await;
        assert_eq!(status, 200);
        assert_eq!(header(&headers, "x-ratelimit-limit"), "5");
        assert_eq!(
            header(&headers, "x-ratelimit-remaining"),
            remaining.to_string()
        );
        let reset_after: f64 = header(&headers, "x-ratelimit-reset-after").parse().unwrap();
        assert!(reset_after > 0.0 && reset_after <= 5.0, "{reset_after}");
        for name in [
            "x-ratelimit-reset",
            "x-ratelimit-bucket",
            "x-ratelimit-scope",
        ] {
            assert!(!header(&headers, name).is_empty(), "{name} on every answer");
        }
    }
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());

    let (status, body, headers) = post_message(&fake, first).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["global"], false, "{body}");
    assert!(body["retry_after"].as_f64().unwrap() > 0.0, "{body}");
    assert!(!header(&headers, "retry-after").is_empty());
    let problems = fake.take_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("went past its rate-limit bucket"),
        "{problems:#?}"
    );
    // Another channel is another bucket (its major parameter).
    let (status, _, headers) = post_message(&fake, second).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "x-ratelimit-remaining"), "4");
    assert_eq!(fake.invalid_requests(), 1, "the 429 counts");
}

#[tokio::test]
async fn the_global_limit_spares_interaction_answers() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.set_global_limit(2);
    fake.set_bucket_limit(
        RouteGroup::Other,
        BucketLimit {
            requests: 100,
            per: Duration::from_secs(1),
        },
    );
    for _ in 0..2 {
        let (status, _, _) = request(&fake, reqwest::Method::GET, "/users/@me", None).await;
        assert_eq!(status, 200);
    }
    let (status, body, headers) = request(&fake, reqwest::Method::GET, "/users/@me", None).await;
    assert_eq!((status, &body["global"]), (429, &json!(true)), "{body}");
    assert_eq!(header(&headers, "x-ratelimit-global"), "true");
    assert_eq!(header(&headers, "x-ratelimit-scope"), "global");
    let problems = fake.take_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("global rate limit"),
        "{problems:#?}"
    );
    // An interaction's follow-up is not under the global limit (its token is unknown to the
    // fake, so it is refused for that, not for the limit).
    let path = format!("/webhooks/{}/never-issued", fake.application_id());
    let message = json!({ "content": "hi", "allowed_mentions": { "parse": [] } });
    let (status, _, _) = request(&fake, reqwest::Method::POST, &path, Some(message)).await;
    assert_eq!(status, 401);
    fake.take_problems();
}

#[tokio::test]
async fn past_the_invalid_request_limit_every_request_is_refused_as_a_ban() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.set_invalid_request_limit(2);
    fake.fail_next(RouteMatch::Any, &[Fault::Unauthorized; 3]);
    for _ in 0..3 {
        let (status, _, _) = request(&fake, reqwest::Method::GET, "/users/@me", None).await;
        assert_eq!(status, 401);
    }
    assert_eq!(fake.invalid_requests(), 3);
    assert!(fake.problems().is_empty(), "refusals alone are no problem");
    let (status, body, _) = request(&fake, reqwest::Method::GET, "/users/@me", None).await;
    assert_eq!(status, 429, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("blocked"),
        "{body}"
    );
    let problems = fake.take_problems();
    assert!(
        problems.len() == 1 && problems[0].contains("bans"),
        "{problems:#?}"
    );
}

#[tokio::test]
async fn injected_latency_delays_the_answers_of_its_routes() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.set_latency(Delayed::Route(RouteGroup::Other), Latency::ms(300, 50));
    let started = Instant::now();
    let (status, _, _) = request(&fake, reqwest::Method::GET, "/users/@me", None).await;
    assert_eq!(status, 200);
    assert!(
        started.elapsed() >= Duration::from_millis(250),
        "{:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let (status, _, _) = post_message(&fake, fake.channel()).await;
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_millis(250),
        "other routes are not delayed"
    );
}

/// Identifies a raw client as shard `[shard, count]`; answers the first frame or the close.
async fn identify_as(fake: &FakeDiscord, shard: [u64; 2]) -> Received {
    let mut socket = connect(fake).await;
    let identify = json!({ "op": 2, "d": {
        "token": "Bot raw", "intents": 1, "properties": {}, "shard": shard,
    } });
    send(&mut socket, identify).await;
    receive(&mut socket).await
}

async fn gateway_bot(fake: &FakeDiscord) -> Value {
    let (status, body, _) = request(fake, reqwest::Method::GET, "/gateway/bot", None).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn gateway_bot_recommends_shards_and_counts_every_identify() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.recommend_shards(2);
    fake.require_shards(2);
    fake.set_session_start_limit(10, 1);
    let before = gateway_bot(&fake).await;
    assert_eq!(before["shards"], 2, "{before}");
    assert_eq!(before["url"], fake.gateway_url(), "{before}");
    assert_eq!(
        before["session_start_limit"],
        json!({ "total": 10, "remaining": 10, "reset_after": before["session_start_limit"]["reset_after"], "max_concurrency": 1 })
    );

    // Too few shards for the guilds: 4011, and the identify counted all the same.
    match identify_as(&fake, [0, 1]).await {
        Received::Closed(code) => assert_eq!(code, Some(4011)),
        other => panic!("expected a close with 4011, got {other:?}"),
    }
    match identify_as(&fake, [1, 2]).await {
        Received::Frame(ready) => assert_eq!(ready["t"], "READY", "{ready}"),
        other => panic!("expected READY, got {other:?}"),
    }
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
    // A shard outside its count: 4010, a problem of the bot.
    match identify_as(&fake, [2, 2]).await {
        Received::Closed(code) => assert_eq!(code, Some(4010)),
        other => panic!("expected a close with 4010, got {other:?}"),
    }
    assert_eq!(fake.take_problems().len(), 1);
    assert_eq!(fake.identifies(), 3);
    let after = gateway_bot(&fake).await;
    assert_eq!(after["session_start_limit"]["remaining"], 7, "{after}");
    fake.wait_for_sessions(1, WAIT).await.unwrap();
}
