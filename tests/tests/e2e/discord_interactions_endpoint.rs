//! Interactions received over HTTP (Discord's Interactions Endpoint URL) instead of the gateway:
//! signatures checked, PING answered, commands and buttons answered through the same framework,
//! and any instance answering any server's interactions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::json;
use taflbot::app::RunningApp;
use taflbot::config::Config;
use taflbot_e2e::bot::{shard_instance_config, start_instance};
use taflbot_e2e::fake_discord::{
    CommandOption as Opt, FakeDiscord, Signing, interactions_endpoint,
};
use taflbot_e2e::world::{WAIT, World};

fn with_public_key(config: &mut Config) {
    config.discord.interactions_public_key = interactions_endpoint::public_key_hex();
}

fn endpoint_of(app: &RunningApp) -> String {
    format!(
        "{}/discord/interactions",
        app.base_url().expect("the HTTP server runs")
    )
}

#[tokio::test]
async fn the_endpoint_passes_discords_check_and_refuses_unsigned_requests() {
    let world = World::start_with(with_public_key).await;
    let url = endpoint_of(&world.app);
    // Discord's own check: a signed PING answered PONG, a forged one refused.
    world.fake.send_interactions_to(Some(&url)).await.unwrap();
    let ping = json!({ "id": "1", "application_id": "1", "type": 1, "token": "t", "version": 1 });
    for signing in [Signing::Invalid, Signing::Missing] {
        let answer = world
            .fake
            .post_to_endpoint(&url, &ping, signing)
            .await
            .unwrap();
        assert_eq!(answer.status, 401, "{signing:?}: {answer:?}");
    }
    // A command sent with a bad signature is not run.
    let help = json!({ "id": "2", "application_id": "1", "type": 2, "token": "t", "version": 1,
                       "data": { "id": "3", "name": "help", "type": 1 } });
    let answer = world
        .fake
        .post_to_endpoint(&url, &help, Signing::Invalid)
        .await
        .unwrap();
    assert_eq!(answer.status, 401, "{answer:?}");
    world.stop().await;
}

#[tokio::test]
async fn without_a_public_key_there_is_no_endpoint() {
    let world = World::start().await;
    let url = endpoint_of(&world.app);
    let refused = world.fake.send_interactions_to(Some(&url)).await;
    assert!(
        refused.is_err(),
        "an endpoint without a key passed: {refused:?}"
    );
    world.stop().await;
}

#[tokio::test]
async fn commands_and_buttons_received_over_http_play_a_game() {
    let world = World::start_with(with_public_key).await;
    world
        .fake
        .send_interactions_to(Some(&endpoint_of(&world.app)))
        .await
        .unwrap();
    let channel = world.fake.channel();
    let alice = world.fake.new_user("alice");
    let bob = world.fake.new_user("bob");
    let help = world.slash(&alice, channel, "help", &[]).await;
    assert!(help.text().contains("/challenge"), "{}", help.text());
    // The challenge is a command, its Accept a button: both arrive over HTTP.
    world.brandubh_game(channel, &alice, &bob).await;
    let moved = world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;
    assert!(moved.text().contains("d1-b1"), "{}", moved.text());
    world.stop().await;
}

/// An app running `shards` of two, taking interactions over HTTP.
async fn instance(fake: &FakeDiscord, dir: &tempfile::TempDir, shards: &str) -> RunningApp {
    let mut config = shard_instance_config(fake, dir.path(), 2, shards);
    with_public_key(&mut config);
    start_instance(config).await
}

#[tokio::test]
async fn an_instance_answers_a_server_whose_shard_another_instance_runs() {
    let fake = FakeDiscord::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let first = instance(&fake, &dir, "0").await;
    let second = instance(&fake, &dir, "1").await;
    fake.wait_for_sessions(2, WAIT).await.unwrap();
    fake.wait_for_commands(WAIT).await.unwrap();
    // The instance that does not run the server's shard takes its interactions.
    let other = if fake.guild_shard(2) == 0 {
        &second
    } else {
        &first
    };
    fake.send_interactions_to(Some(&endpoint_of(other)))
        .await
        .unwrap();
    let alice = fake.new_user("alice");
    let help = fake.slash(&alice, fake.channel(), "help", &[]).unwrap();
    let reply = fake.reply_to(&help, WAIT).await.unwrap();
    assert!(reply.text().contains("/challenge"), "{}", reply.text());
    // Not through the gateway: the shard's own instance never saw it.
    assert!(
        !fake
            .routed()
            .iter()
            .any(|(event, _)| event == "INTERACTION_CREATE"),
        "{:?}",
        fake.routed()
    );
    let problems = fake.problems();
    assert!(problems.is_empty(), "fake Discord problems: {problems:#?}");
    first.shutdown().await;
    second.shutdown().await;
}
