//! The Discord front end when Discord misbehaves: failed posts are retried and delivered once,
//! posts to a channel that is gone are given up while the game goes on, a failed reply is made
//! up for by a channel post, and a front end that cannot work says so instead of looking alive.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::discord::DiscordState;
use taflbot::domain::GameId;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeDiscord, Fault, RouteKind, RouteMatch};
use taflbot_e2e::world::{WAIT, World};

/// Retries in milliseconds, so a test sees several tries at once.
fn quick_retries(config: &mut Config) {
    config.discord.retry_base_ms = 20;
}

/// Messages Discord holds in `channel` whose text contains `needle`.
fn shown_in(world: &World, channel: u64, needle: &str) -> usize {
    world
        .fake
        .channel_messages(channel)
        .iter()
        .filter(|m| m["content"].as_str().unwrap_or_default().contains(needle))
        .count()
}

#[tokio::test]
async fn a_post_refused_with_500_then_429_goes_out_once_on_the_third_try() {
    let world = World::start_with(quick_retries).await;
    let (alice, bob, channel) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.channel(),
    );
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world.fake.fail_next(
        RouteMatch::ChannelMessagesIn(channel),
        &[
            Fault::ServerError,
            Fault::RateLimited {
                retry_after: Duration::from_millis(50),
            },
        ],
    );
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world
        .accepted_post_after(mark, channel, "the move accepted in the channel")
        .await;
    world.wait_for_outbox_drained().await;
    let statuses: Vec<u16> = world
        .channel_posts_after(mark, channel)
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, vec![500, 429, 200], "tried until Discord took it");
    assert_eq!(shown_in(&world, channel, "d1-b1"), 1, "one post people see");
    world.stop().await;
}

#[tokio::test]
async fn when_the_move_reply_fails_the_move_is_posted_once_in_the_channel() {
    let world = World::start_with(quick_retries).await;
    let (alice, bob, channel) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.channel(),
    );
    world.brandubh_game(channel, &alice, &bob).await;
    world
        .fake
        .fail_next(RouteMatch::InteractionCallbacks, &[Fault::ServerError]);
    let mark = world.fake.recorder().mark();
    let sent = world
        .fake
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .unwrap();
    // The reply fails; the user is told privately that the move is posted instead.
    let told = world.reply(&sent).await;
    assert!(told.is_ephemeral(), "{}", told.text());
    assert!(
        told.text().contains("posted in the channel"),
        "{}",
        told.text()
    );
    let posted = world
        .accepted_post_after(mark, channel, "the move posted in the channel")
        .await;
    assert!(posted.text().contains("d1-b1"), "{}", posted.text());
    world.wait_for_outbox_drained().await;
    assert_eq!(shown_in(&world, channel, "d1-b1"), 1, "shown exactly once");
    world.stop().await;
}

#[tokio::test]
async fn a_deleted_channel_sends_the_game_off_discord_its_players_told_by_dm_and_it_goes_on_over_http()
 {
    let world = World::start_with(quick_retries).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("doomed");
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    // Unseen: the bot learns it from the refused post (the CHANNEL_DELETE event's own path
    // is `discord_server_lifecycle.rs`).
    world.fake.delete_channel_unseen(channel).unwrap();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.wait_for_outbox_drained().await;
    let tries = world.channel_posts_after(mark, channel);
    assert_eq!(tries.len(), 1, "Unknown Channel is final: no more tries");
    assert!(
        tries
            .iter()
            .all(|r| r.status == 404 && r.error_code == Some(10003)),
        "Unknown Channel"
    );
    let gone = format!("game #{game} is gone");
    world
        .fake
        .recorder()
        .wait_for_count(mark, 2, "both players told by DM", WAIT, |r| {
            matches!(r.kind, RouteKind::ChannelMessage { .. })
                && r.accepted()
                && r.text().contains(&gone)
        })
        .await
        .unwrap();
    for player in [&alice, &bob] {
        let told = world.fake.direct_messages(player);
        assert!(
            told.iter().any(|m| m["content"]
                .as_str()
                .unwrap_or_default()
                .contains(&format!("game #{game} is gone"))),
            "{} is told by DM: {told:?}",
            player.name
        );
    }
    // The game goes on: Bob answers over HTTP, and nothing more is tried in the channel.
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    let view = world
        .app
        .service
        .games()
        .game(None, GameId(game))
        .await
        .unwrap();
    assert_eq!(view.ply, 2);
    world.wait_for_outbox_drained().await;
    assert_eq!(world.channel_posts_after(mark, channel).len(), 1);
    world.stop().await;
}

/// Waits until the Discord front end has given up; fails loudly after [`WAIT`].
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

#[tokio::test]
async fn a_failed_command_registration_is_tried_again_and_health_says_so_meanwhile() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.fail_command_registration(usize::MAX);
    let world = World::start_against(fake, quick_retries).await;
    let status = world.app.discord_status.clone();
    let state = tokio::time::timeout(
        WAIT,
        status.wait_for(|s| matches!(s, DiscordState::CommandsNotRegistered { .. })),
    )
    .await
    .unwrap_or_else(|_| panic!("no failed registration shown: {:?}", status.get()));
    let DiscordState::CommandsNotRegistered { error } = state else {
        panic!("{state:?}")
    };
    assert!(error.contains("registration failed"), "{error}");
    let (code, body) = world.health().await;
    assert_eq!(code, 200, "serving, not dark: {body}");
    assert_eq!(body["status"], "degraded", "{body}");
    assert_eq!(
        body["discord"]["state"], "commands_not_registered",
        "{body}"
    );
    let ready = world
        .http
        .get(format!("{}/health/ready", world.api()))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status().as_u16(), 503, "not ready without commands");

    // Discord takes the list again: the next try registers it, without a restart.
    world.fake.fail_command_registration(0);
    tokio::time::timeout(WAIT, status.wait_for(|s| *s == DiscordState::Connected))
        .await
        .unwrap_or_else(|_| panic!("never registered: {:?}", status.get()));
    assert!(!world.fake.registered_commands().is_empty());
    world.stop().await;
}

#[tokio::test]
async fn a_token_the_gateway_refuses_with_4004_is_reported_by_health() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.reject_identify(4004);
    let world = World::start_against(fake, quick_retries).await;
    let error = wait_for_failure(&world).await;
    assert!(error.contains("4004"), "{error}");
    let (status, body) = world.health().await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["status"], "failing", "{body}");
    world.stop().await;
}

#[tokio::test]
async fn a_token_discord_refuses_is_a_clear_error_at_start() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.fail_next(RouteMatch::Any, &[Fault::Unauthorized]);
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::default();
    fake.connect(&mut config);
    config.database.path = dir.path().join("taflbot.db");
    config.http.listen = "127.0.0.1:0".to_owned();
    let options = AppOptions {
        scheduler: false,
        ..AppOptions::default()
    };
    let Err(error) = RunningApp::start(config, options).await else {
        panic!("the app started with a token Discord refused");
    };
    let text = error.to_string();
    assert!(text.contains("refused the bot token"), "{text}");
    assert!(text.contains("discord.token"), "says what to do: {text}");
}
