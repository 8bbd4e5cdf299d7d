//! A server's lifecycle through the fake Discord: the bot removed from the server pauses its
//! games (clocks stand still, players told by DM and in an event) and resumes them in their
//! channels when it is added back; past the grace period they go on over HTTP and the
//! server's rows are deleted; an outage changes nothing; a deleted channel or thread, or a
//! thread locked by moderators, moves its games at once.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::domain::{EventId, GameId, PlayerId};
use taflbot::service::GameView;
use taflbot_e2e::fake_discord::{
    CommandOption as Opt, FakeDiscord, FakeError, FakeUser, Fault, Recorded, RouteKind, RouteMatch,
};
use taflbot_e2e::world::{WAIT, World};
use taflbot_test_support::eventually;

use super::discord_lifecycle::start;

const DAY_MS: i64 = 24 * 3_600_000;

/// A game of `alice` (attackers) and `bob` with one day per move in the test channel, after
/// alice's first move (bob to move); answers the game.
async fn game_with_a_clock(world: &World, alice: &FakeUser, bob: &FakeUser) -> i64 {
    let channel = world.fake.channel();
    let accepted = start(world, channel, alice, bob, "1d").await;
    let game = taflbot_e2e::world::game_id_in(&accepted.text());
    world
        .slash(alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;
    world.wait_for_outbox_drained().await;
    game
}

/// Waits for a direct message to `user` containing `needle`, sent after `mark`.
async fn direct_message(world: &World, mark: usize, user: &FakeUser, needle: &str) -> Recorded {
    let needle = needle.to_owned();
    world
        .fake
        .recorder()
        .wait_for_after(
            mark,
            &format!("a DM to {} saying {needle:?}", user.name),
            WAIT,
            |r| {
                matches!(r.kind, RouteKind::ChannelMessage { .. })
                    && r.accepted()
                    && r.text().contains(&needle)
                    && world
                        .fake
                        .direct_messages(user)
                        .iter()
                        .any(|m| m["content"].as_str().unwrap_or_default().contains(&needle))
            },
        )
        .await
        .unwrap()
}

/// The kinds of game `game`'s events, as HTTP clients and webhooks read them.
async fn event_kinds(world: &World, game: i64) -> Vec<&'static str> {
    world
        .app
        .service
        .events()
        .of_game(GameId(game), EventId(0), 500)
        .await
        .unwrap()
        .iter()
        .map(|e| e.kind())
        .collect()
}

/// Game `game` as the service shows it now.
async fn view(world: &World, game: i64) -> GameView {
    world
        .app
        .service
        .games()
        .game(None, GameId(game))
        .await
        .unwrap()
}

/// Waits until game `game` is placed in `context`.
async fn placed_in(world: &World, game: i64, context: &str) {
    eventually(
        WAIT,
        &format!("game {game} placed in {context}"),
        || async { (view(world, game).await.context.as_deref() == Some(context)).then_some(()) },
    )
    .await;
}

#[tokio::test]
async fn removed_from_a_server_its_clocks_stop_and_resume_when_the_bot_is_back() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = game_with_a_clock(&world, &alice, &bob).await;
    let deadline = view(&world, game)
        .await
        .deadline_at
        .expect("bob has a deadline");

    let mark = world.fake.recorder().mark();
    let removal = world.fake.remove_bot_from_guild().unwrap();
    // Both players are told, by direct message, whatever their /notify choice.
    for player in [&alice, &bob] {
        direct_message(
            &world,
            mark,
            player,
            &format!("removed from the Discord server where game #{game}"),
        )
        .await;
    }
    assert!(event_kinds(&world, game).await.contains(&"game_paused"));
    assert!(view(&world, game).await.paused_at.is_some(), "shown paused");

    // Two days pass: bob's day per move would be over, but his clock stands still.
    world.clock.advance_ms(2 * DAY_MS);
    let pass = world.app.service.scheduler().run_due().await.unwrap();
    assert_eq!(pass.timeouts, 0, "no game runs out of time while paused");
    assert_eq!(
        world.http_move(&bob, game, "c4-c2", 1).await,
        409,
        "a paused game takes no move"
    );

    let mark = world.fake.recorder().mark();
    world.fake.add_bot_back(removal).unwrap();
    let back = world
        .accepted_post_containing(mark, channel, "The bot is back")
        .await;
    assert!(back.text().contains(&bob.mention()), "{}", back.text());
    assert!(event_kinds(&world, game).await.contains(&"game_resumed"));
    assert_eq!(view(&world, game).await.paused_at, None);
    assert_eq!(
        view(&world, game).await.deadline_at,
        Some(deadline + 2 * DAY_MS),
        "the clock resumes where it stopped"
    );
    // The game goes on in the same channel.
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.accepted_post_containing(mark, channel, "c4-c2").await;
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn past_the_grace_period_the_games_go_on_over_http_and_the_servers_rows_are_gone() {
    let world = World::start_with(|c| c.discord.removed_server_grace_days = 1).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let guild = world.fake.guild_id();
    world
        .slash(
            &alice,
            world.fake.channel(),
            "settings",
            &[Opt::string("variant", "tablut")],
        )
        .await;
    let game = game_with_a_clock(&world, &alice, &bob).await;
    let discord = world.app.service.discord();
    assert!(discord.server_row_count(guild).await.unwrap() > 0);

    let mark = world.fake.recorder().mark();
    let _removal = world.fake.remove_bot_from_guild().unwrap();
    direct_message(
        &world,
        mark,
        &bob,
        &format!("removed from the Discord server where game #{game}"),
    )
    .await;

    // Within the day nothing is forgotten; past it, the server is.
    let grace = Duration::from_secs(24 * 3600);
    world.clock.advance_ms(DAY_MS / 2);
    assert_eq!(
        discord.forget_removed_servers(grace).await.unwrap().servers,
        0
    );
    world.clock.advance_ms(DAY_MS);
    let forgotten = discord.forget_removed_servers(grace).await.unwrap();
    assert_eq!((forgotten.servers, forgotten.games), (1, 1));
    for player in [&alice, &bob] {
        direct_message(&world, mark, player, "goes on over HTTP").await;
    }
    assert_eq!(discord.server_row_count(guild).await.unwrap(), 0);
    assert_eq!(
        view(&world, game).await.context.as_deref(),
        Some(format!("discord server {guild} (left)").as_str())
    );
    // Played over HTTP from now on; nothing is posted in the server.
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.wait_for_outbox_drained().await;
    assert!(
        world
            .channel_posts_after(mark, world.fake.channel())
            .is_empty()
    );
    // A second pass finds nothing left to do.
    assert_eq!(
        discord.forget_removed_servers(grace).await.unwrap().servers,
        0
    );
    world.stop().await;
}

#[tokio::test]
async fn a_server_outage_changes_nothing() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = game_with_a_clock(&world, &alice, &bob).await;
    world.fake.guild_outage().unwrap();
    // A command after the outage's event: the bot has read the outage by then.
    world.slash(&bob, channel, "board", &[]).await;
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.accepted_post_containing(mark, channel, "c4-c2").await;
    assert!(!event_kinds(&world, game).await.contains(&"game_paused"));
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_deleted_channel_sends_its_games_off_discord_at_once() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("doomed");
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    let mark = world.fake.recorder().mark();
    world.fake.delete_channel(channel).unwrap();
    // No post has failed yet: the event alone moves the game and tells its players.
    for player in [&alice, &bob] {
        direct_message(
            &world,
            mark,
            player,
            &format!("channel of game #{game} is gone"),
        )
        .await;
    }
    let gone = format!("discord channel {channel} (gone)");
    placed_in(&world, game, &gone).await;
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.wait_for_outbox_drained().await;
    assert!(world.channel_posts_after(mark, channel).is_empty());
    world.stop().await;
}

/// A game between `alice` and `bob` in a thread of a new channel: the channel, game, thread.
async fn threaded_game(world: &World, alice: &FakeUser, bob: &FakeUser) -> (u64, i64, u64) {
    let channel = world.fake.new_channel("tafl-threads");
    world.fake.allow_threads(channel);
    let game = world.brandubh_game(channel, alice, bob).await;
    let thread = world.fake.threads_of(channel)[0].id;
    world.wait_for_outbox_drained().await;
    (channel, game, thread)
}

/// A game's thread closed by `close` (deleted, or locked by moderators, each with its gateway
/// event): the game is back in its channel before anything is posted, and is posted there.
async fn closing_the_thread_sends_its_game_back(
    close: impl FnOnce(&FakeDiscord, u64) -> Result<(), FakeError>,
) {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (channel, game, thread) = threaded_game(&world, &alice, &bob).await;
    close(&world.fake, thread).unwrap();
    placed_in(&world, game, &format!("discord:channel:{channel}")).await;
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.accepted_post_containing(mark, channel, "d1-b1").await;
    assert!(
        world.channel_posts_after(mark, thread).is_empty(),
        "nothing is tried in the closed thread"
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_deleted_thread_sends_its_game_back_to_the_channel_at_once() {
    closing_the_thread_sends_its_game_back(FakeDiscord::delete_thread_and_tell).await;
}

#[tokio::test]
async fn a_thread_locked_by_moderators_sends_its_game_back_to_the_channel() {
    closing_the_thread_sends_its_game_back(FakeDiscord::lock_thread_and_tell).await;
}

#[tokio::test]
async fn refusals_while_the_bot_is_out_of_the_server_leave_its_paused_games_in_their_channel() {
    let world = World::start_with(|c| {
        c.discord.retry_base_ms = 20;
        c.discord.refused_access_retry_secs = 0;
    })
    .await;
    let (alice, bob, carl) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carl"),
    );
    let channel = world.fake.channel();
    let kept = game_with_a_clock(&world, &alice, &bob).await;
    let ended = world.brandubh_game(channel, &alice, &carl).await;
    world.wait_for_outbox_drained().await;
    let mark = world.fake.recorder().mark();
    let removal = world.fake.remove_bot_from_guild().unwrap();
    direct_message(&world, mark, &bob, &format!("server where game #{kept}")).await;
    // A game ended while the bot is out: its post is refused as Discord refuses a bot that is
    // not in the server (50001), which alone would send the channel's games off Discord.
    world.fake.fail_next(
        RouteMatch::ChannelMessagesIn(channel),
        &[
            Fault::MissingAccess,
            Fault::MissingAccess,
            Fault::MissingAccess,
        ],
    );
    let carl_id = PlayerId(world.player_of(&carl).await);
    world
        .app
        .service
        .games()
        .resign(carl_id, GameId(ended))
        .await
        .unwrap();
    world.wait_for_outbox_drained().await;
    let here = format!("discord:channel:{channel}");
    assert_eq!(
        view(&world, kept).await.context.as_deref(),
        Some(here.as_str())
    );
    let mark = world.fake.recorder().mark();
    world.fake.add_bot_back(removal).unwrap();
    let back = world
        .accepted_post_containing(mark, channel, "The bot is back")
        .await;
    assert!(back.text().contains(&format!("#{kept}")), "{}", back.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
