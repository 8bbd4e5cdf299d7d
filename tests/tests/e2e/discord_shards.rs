//! Discord shards split between instances (`discord.shard_count`, `discord.shards`): each
//! instance identifies its own shards, and a server's interactions reach the one instance that
//! runs the server's shard, as Discord routes them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::app::RunningApp;
use taflbot_e2e::bot::{shard_instance_config, start_instance};
use taflbot_e2e::fake_discord::FakeDiscord;
use taflbot_e2e::world::{WAIT, World};

/// An app against `fake` running `shards` of `count`, on a database of its own in `dir`.
async fn instance(
    fake: &FakeDiscord,
    dir: &tempfile::TempDir,
    count: u16,
    shards: &str,
) -> RunningApp {
    start_instance(shard_instance_config(fake, dir.path(), count, shards)).await
}

/// Waits for both shards of two to identify, then has /help answered.
async fn both_shards_identify_and_help_is_answered(fake: &FakeDiscord) {
    fake.wait_for_sessions(2, WAIT).await.unwrap();
    let mut identified = fake.identified_shards();
    identified.sort_unstable();
    assert_eq!(identified, vec![[0, 2], [1, 2]]);
    let alice = fake.new_user("alice");
    let help = fake.slash(&alice, fake.channel(), "help", &[]).unwrap();
    let reply = fake.reply_to(&help, WAIT).await.unwrap();
    assert!(reply.text().contains("/challenge"), "{}", reply.text());
}

fn assert_clean(fake: &FakeDiscord) {
    let problems = fake.problems();
    assert!(problems.is_empty(), "fake Discord problems: {problems:#?}");
}

#[tokio::test]
async fn two_instances_each_run_their_shard_and_a_servers_command_reaches_one() {
    let fake = FakeDiscord::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let first = instance(&fake, &dir, 2, "0").await;
    let second = instance(&fake, &dir, 2, "1").await;
    both_shards_identify_and_help_is_answered(&fake).await;
    // Sent to the guild's shard alone: only the instance running it ever saw the command.
    let routed: Vec<u64> = fake
        .routed()
        .into_iter()
        .filter(|(event, _)| event == "INTERACTION_CREATE")
        .map(|(_, shard)| shard)
        .collect();
    assert_eq!(routed, vec![fake.guild_shard(2)]);
    assert_clean(&fake);
    first.shutdown().await;
    second.shutdown().await;
}

#[tokio::test]
async fn an_instance_without_a_range_runs_every_shard() {
    let fake = FakeDiscord::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let app = instance(&fake, &dir, 2, "").await;
    both_shards_identify_and_help_is_answered(&fake).await;
    assert_clean(&fake);
    app.shutdown().await;
}

#[tokio::test]
async fn without_a_shard_count_the_bot_runs_discords_recommendation() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.recommend_shards(2);
    // Fewer than two would be closed with 4011, as Discord does for a bot in too many servers.
    fake.require_shards(2);
    let world = World::start_against(fake, |_| {}).await;
    both_shards_identify_and_help_is_answered(&world.fake).await;
    assert_eq!(world.fake.identifies(), 2, "no IDENTIFY refused");
    assert_eq!(
        world.fake.identifies_too_fast(),
        0,
        "one IDENTIFY per max_concurrency bucket per 5 s"
    );
    world.stop().await;
}

#[tokio::test]
async fn server_events_after_ready_reach_the_shard_that_owns_the_server() {
    let fake = FakeDiscord::start().await.unwrap();
    // A count that puts the guild off shard 0, and an instance running only the guild's shard:
    // an event sent to shard 0 would find no session there.
    let count = (2..=8u16)
        .find(|&n| fake.guild_shard(u64::from(n)) != 0)
        .expect("a count that puts the guild off shard 0");
    let shard = fake.guild_shard(u64::from(count));
    let dir = tempfile::tempdir().unwrap();
    let app = instance(&fake, &dir, count, &shard.to_string()).await;
    fake.wait_for_sessions(1, WAIT).await.unwrap();
    fake.remove_bot_from_guild().unwrap();
    let routed: Vec<u64> = fake
        .routed()
        .into_iter()
        .filter(|(event, _)| event == "GUILD_DELETE")
        .map(|(_, shard)| shard)
        .collect();
    assert_eq!(routed, vec![shard]);
    assert_clean(&fake);
    app.shutdown().await;
}
