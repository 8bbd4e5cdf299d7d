//! Gateway session starts across instances and across the day: instances on one PostgreSQL
//! database take turns to identify in each `max_concurrency` bucket (Discord counts the
//! buckets per application, not per process), and a bot with no session starts left waits for
//! the day's window to reset instead of identifying.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::app::RunningApp;
use taflbot_e2e::bot::{shard_instance_config, start_instance};
use taflbot_e2e::fake_discord::FakeDiscord;
use taflbot_e2e::world::{WAIT, World};
use taflbot_test_support::eventually;

/// `GET /health` of `app`: its body.
async fn health(app: &RunningApp) -> serde_json::Value {
    let url = format!("{}/api/v1/health", app.base_url().unwrap());
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// The state of each shard `/health` lists, in shard order.
fn shard_states(health: &serde_json::Value) -> Vec<(u64, String)> {
    health["shards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_u64().unwrap(),
                s["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// An instance of a bot of four shards running `shards`, on the PostgreSQL database `url`.
async fn instance(
    fake: &FakeDiscord,
    url: &str,
    dir: &tempfile::TempDir,
    shards: &str,
) -> RunningApp {
    let mut config = shard_instance_config(fake, dir.path(), 4, shards);
    config.database.url = url.to_owned();
    start_instance(config).await
}

#[tokio::test]
async fn two_instances_on_one_postgresql_started_together_take_turns_to_identify() {
    let fake = FakeDiscord::start().await.unwrap();
    // One bucket: every shard of either instance waits 5 s after the last one's start.
    fake.set_session_start_limit(1_000, 1);
    // Heartbeats due every 2 s: a shard waiting its turn (up to about 12 s here) must keep
    // heartbeating, or serenity takes its connection for dead and identifies again.
    fake.set_heartbeat_interval(Duration::from_secs(2));
    let url = taflbot_e2e::pg_server::database_url();
    let dir = tempfile::tempdir().unwrap();
    // Started at the same moment, as in a rolling deploy or a restart of both.
    let (first, second) = tokio::join!(
        instance(&fake, &url, &dir, "0-1"),
        instance(&fake, &url, &dir, "2-3")
    );
    // Four starts, one per bucket window: about 4 × 5.75 s.
    fake.wait_for_sessions(4, WAIT * 2).await.unwrap();
    assert_eq!(
        fake.identifies_too_fast(),
        0,
        "an IDENTIFY came within 5 s of another in the one bucket (op 9)"
    );
    assert_eq!(
        fake.identifies(),
        4,
        "every shard identified once, none again after waiting its turn"
    );
    for (app, shards) in [(&first, [0, 1]), (&second, [2, 3])] {
        let expected: Vec<(u64, String)> = shards
            .iter()
            .map(|&id| (id, "connected".to_owned()))
            .collect();
        eventually(
            WAIT,
            "every shard of the instance connected in /health",
            || async {
                let states = shard_states(&health(app).await);
                (states == expected).then_some(())
            },
        )
        .await;
    }
    let problems = fake.problems();
    assert!(problems.is_empty(), "fake Discord problems: {problems:#?}");
    first.shutdown().await;
    second.shutdown().await;
}

#[tokio::test]
async fn with_no_session_starts_left_the_bot_waits_for_the_reset_and_says_so() {
    let fake = FakeDiscord::start().await.unwrap();
    // An IDENTIFY now would be past the day's limit (a problem: Discord resets the token).
    fake.use_up_session_starts(Duration::from_secs(4));
    let world = World::start_against(fake, |_| {}).await;
    let waiting = eventually(
        WAIT,
        "/health saying the session starts are used up",
        || async {
            let (_, body) = world.health().await;
            (body["discord"]["state"] == "session_starts_exhausted").then_some(body)
        },
    )
    .await;
    assert_eq!(waiting["status"], "degraded", "{waiting:#}");
    let reason = waiting["discord"]["error"].as_str().unwrap();
    assert!(reason.contains("0 more gateway session starts"), "{reason}");
    assert_eq!(
        world.fake.identifies(),
        0,
        "no IDENTIFY while none is allowed"
    );
    // Once the window resets, the bot identifies and is connected.
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    assert_eq!(world.fake.identifies(), 1);
    eventually(WAIT, "/health connected after the reset", || async {
        let (_, body) = world.health().await;
        (body["discord"]["state"] == "connected").then_some(())
    })
    .await;
    world.stop().await;
}
