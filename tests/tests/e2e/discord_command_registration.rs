//! Command registration as a deploy step: `taflbot discord register [--guild ID]` registers
//! the list and exits; `serve` registers only when `discord.register_commands` says so (by
//! default the instance running shard 0), and leaves Discord's list alone otherwise.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serenity::all::GuildId;
use taflbot::config::Config;
use taflbot::discord::DiscordState;
use taflbot_e2e::bot::{shard_instance_config, start_instance};
use taflbot_e2e::fake_discord::{FakeDiscord, RouteKind};
use taflbot_e2e::world::{WAIT, World};

/// The paths of every command registration (PUT) the fake received.
fn registrations(fake: &FakeDiscord) -> Vec<String> {
    fake.recorder()
        .all()
        .into_iter()
        .filter(|r| r.kind == RouteKind::CommandRegistration && r.method == "PUT")
        .map(|r| r.path)
        .collect()
}

#[tokio::test]
async fn discord_register_registers_the_list_globally_or_in_one_server_and_returns() {
    let fake = FakeDiscord::start().await.unwrap();
    let mut config = Config::default();
    fake.connect(&mut config);

    let count = taflbot::discord::register_commands(&config.discord, None)
        .await
        .unwrap();
    assert!(count > 5, "{count}");
    assert_eq!(fake.registered_commands().len(), count);
    let guild = fake.guild_id();
    let in_guild = taflbot::discord::register_commands(&config.discord, Some(GuildId::new(guild)))
        .await
        .unwrap();
    assert_eq!(in_guild, count);
    let paths = registrations(&fake);
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(!paths[0].contains("/guilds/"), "{paths:?}");
    assert!(
        paths[1].contains(&format!("/guilds/{guild}/commands")),
        "{paths:?}"
    );
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
}

fn no_registration(config: &mut Config) {
    config.discord.register_commands = Some(false);
}

#[tokio::test]
async fn serve_leaves_discords_commands_alone_when_told_to() {
    let fake = FakeDiscord::start().await.unwrap();
    let world = World::start_against(fake, no_registration).await;
    let status = world.app.discord_status.clone();
    tokio::time::timeout(WAIT, status.wait_for(|s| *s == DiscordState::Connected))
        .await
        .unwrap_or_else(|_| panic!("never connected: {:?}", status.get()));
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    assert_eq!(registrations(&world.fake), Vec::<String>::new());
    world.stop().await;
}

#[tokio::test]
async fn by_default_only_the_instance_running_shard_zero_registers() {
    let fake = FakeDiscord::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let second = start_instance(shard_instance_config(&fake, dir.path(), 2, "1")).await;
    fake.wait_for_sessions(1, WAIT).await.unwrap();
    let status = second.discord_status.clone();
    tokio::time::timeout(WAIT, status.wait_for(|s| *s == DiscordState::Connected))
        .await
        .unwrap_or_else(|_| panic!("never connected: {:?}", status.get()));
    assert_eq!(registrations(&fake), Vec::<String>::new(), "shard 1 only");
    let first = start_instance(shard_instance_config(&fake, dir.path(), 2, "0")).await;
    fake.wait_for_commands(WAIT).await.unwrap();
    fake.wait_for_sessions(2, WAIT).await.unwrap();
    assert_eq!(registrations(&fake).len(), 1);
    first.shutdown().await;
    second.shutdown().await;
}
