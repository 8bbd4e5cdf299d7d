//! Gateway closes after which reconnecting cannot help (4010, 4011, 4014...) stop the shard or
//! the front end with the reason in `/health`, and never start an identify loop (each IDENTIFY
//! spends one of the day's 1,000 session starts); and `/health` shows each shard's state, a
//! shard Discord stopped talking to not `connected`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::config::Config;
use taflbot::discord::DiscordState;
use taflbot_e2e::fake_discord::FakeDiscord;
use taflbot_e2e::world::{WAIT, World};
use taflbot_test_support::eventually;

/// How long the test watches for a second IDENTIFY: serenity restarts a shard 5 s after the
/// last start, so a loop shows within this.
const LOOP_WINDOW: Duration = Duration::from_secs(8);

fn quick_retries(config: &mut Config) {
    config.discord.retry_base_ms = 20;
}

fn one_shard(config: &mut Config) {
    quick_retries(config);
    config.discord.shard_count = Some(1);
}

async fn wait_for_failure(world: &World) -> String {
    let status = world.app.discord_status.clone();
    let state = tokio::time::timeout(WAIT, status.wait_for(DiscordState::is_failed))
        .await
        .unwrap_or_else(|_| panic!("the Discord front end never gave up: {:?}", status.get()));
    match state {
        DiscordState::Failed { error } => error,
        other => panic!("not failed: {other:?}"),
    }
}

/// No IDENTIFY beyond `count` reaches the fake within `LOOP_WINDOW`.
async fn identifies_stay_at(fake: &FakeDiscord, count: u64) {
    let deadline = tokio::time::Instant::now() + LOOP_WINDOW;
    while tokio::time::Instant::now() < deadline {
        assert!(
            fake.identifies() <= count,
            "identified again after a fatal close: {} IDENTIFYs",
            fake.identifies()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The front end fails with `code` in its reason and `words` saying what to do, `/health`
/// shows the shard stopped with the reason, and the fake sees one IDENTIFY only.
async fn fatal_close_stops_for_good(world: World, code: u16, words: &str) {
    let error = wait_for_failure(&world).await;
    assert!(error.contains(&code.to_string()), "{error}");
    assert!(error.contains(words), "says what to do: {error}");
    let (status, body) = world.health().await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["status"], "failing", "{body}");
    let shard = &body["shards"][0];
    assert_eq!(shard["state"], "stopped", "{body}");
    assert!(
        shard["reason"]
            .as_str()
            .unwrap()
            .contains(&code.to_string()),
        "{body}"
    );
    identifies_stay_at(&world.fake, 1).await;
    // Stopping cannot hang on a shard serenity would have restarted.
    tokio::time::timeout(WAIT, world.stop())
        .await
        .expect("the bot stops");
}

#[tokio::test]
async fn sharding_required_4011_stops_the_shard_without_identifying_again() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.require_shards(2);
    let world = World::start_against(fake, one_shard).await;
    fatal_close_stops_for_good(world, 4011, "discord.shard_count").await;
}

#[tokio::test]
async fn invalid_shard_4010_stops_the_shard_without_identifying_again() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.reject_identify(4010);
    let world = World::start_against(fake, one_shard).await;
    fatal_close_stops_for_good(world, 4010, "discord.shard_count").await;
}

#[tokio::test]
async fn disallowed_intents_4014_stop_the_front_end_without_identifying_again() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.reject_identify(4014);
    let world = World::start_against(fake, quick_retries).await;
    fatal_close_stops_for_good(world, 4014, "developer portal").await;
}

#[tokio::test]
async fn health_shows_each_shard_and_a_silent_one_is_not_connected() {
    let fake = FakeDiscord::start().await.unwrap();
    // Short heartbeats: silence shows within a second or two.
    fake.set_heartbeat_interval(Duration::from_millis(300));
    let world = World::start_against(fake, quick_retries).await;
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    let connected = eventually(WAIT, "shard 0 connected in /health", || async {
        let (_, body) = world.health().await;
        (body["shards"][0]["state"] == "connected" && body["status"] == "ok").then_some(body)
    })
    .await;
    assert_eq!(connected["shards"][0]["id"], 0, "{connected}");
    assert!(
        connected["shards"][0]["last_event_ms_ago"].is_u64(),
        "{connected}"
    );

    world.fake.silence_shard(0);
    let silent = eventually(WAIT, "shard 0 not connected in /health", || async {
        let (_, body) = world.health().await;
        (body["shards"][0]["state"] != "connected").then_some(body)
    })
    .await;
    assert_eq!(silent["status"], "degraded", "{silent}");
    world.stop().await;
}
