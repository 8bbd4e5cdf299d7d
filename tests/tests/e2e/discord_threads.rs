//! A thread per game through the fake Discord: the thread's name and the channel's link line,
//! moves posted in the thread, an archived thread reopened, a deleted thread sending the game
//! back to its channel, and the players told by direct message when the channel is gone too.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::{Value, json};
use taflbot_e2e::fake_discord::permissions::ALL_PERMISSIONS;
use taflbot_e2e::fake_discord::threads::MANAGE_THREADS;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded, RouteKind};
use taflbot_e2e::world::{WAIT, World};

/// The users a message allows to be pinged.
fn pinged(recorded: &Recorded) -> Vec<String> {
    recorded
        .message_payload()
        .and_then(|m| m.get("allowed_mentions"))
        .and_then(|a| a.get("users"))
        .and_then(Value::as_array)
        .map(|users| {
            users
                .iter()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// A game between `alice` (attackers, first to move) and `bob` in a channel where threads
/// are allowed; answers the channel, the game and its thread.
async fn threaded_game(world: &World, alice: &FakeUser, bob: &FakeUser) -> (u64, i64, u64) {
    let channel = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(channel);
    let game = world.brandubh_game(channel, alice, bob).await;
    let threads = world.fake.threads_of(channel);
    assert_eq!(threads.len(), 1, "one thread for the game");
    (channel, game, threads[0].id)
}

#[tokio::test]
async fn a_game_gets_a_thread_named_after_its_players_and_is_played_there() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
    let mark = world.fake.recorder().mark();
    let (channel, game, thread) = threaded_game(&world, &alice, &bob).await;
    let threads = world.fake.threads_of(channel);
    assert_eq!(threads[0].name, "Astrid vs Ragnar · Brandubh");
    // The channel keeps one line: the accepted challenge, linking to the thread.
    let link = format!("<#{thread}>");
    let linked = world.fake.recorder().all().into_iter().any(|r| {
        matches!(r.kind, RouteKind::InteractionCallback { .. }) && r.text().contains(&link)
    });
    assert!(linked, "the accepted challenge links to the thread");
    // The start is posted in the thread and pings only the first to move.
    let start = world.accepted_post_containing(mark, thread, "begins").await;
    assert_eq!(
        pinged(&start),
        vec![alice.id.to_string()],
        "{}",
        start.text()
    );
    // A move made in the thread is answered there; one over HTTP is posted there.
    let moved = world
        .slash(&alice, thread, "move", &[Opt::string("move", "d1-b1")])
        .await;
    assert!(moved.text().contains("d1-b1"), "{}", moved.text());
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    let posted = world.accepted_post_containing(mark, thread, "c4-c2").await;
    assert_eq!(
        pinged(&posted),
        vec![alice.id.to_string()],
        "the next to move is pinged"
    );
    assert!(
        world.channel_posts_after(mark, channel).is_empty(),
        "nothing more in the channel itself"
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn an_archived_thread_is_reopened_and_still_used() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (_, game, thread) = threaded_game(&world, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    // Archived by inactivity: a message reopens it, as on Discord.
    world.fake.archive_thread(thread, false).unwrap();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.accepted_post_containing(mark, thread, "d1-b1").await;
    assert!(
        !world.fake.thread(thread).unwrap().archived,
        "a message reopens it"
    );
    // Archived and locked by a moderator: the bot reopens it before it posts.
    world.wait_for_outbox_drained().await;
    world.fake.archive_thread(thread, true).unwrap();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.accepted_post_containing(mark, thread, "c4-c2").await;
    let reopened = world.fake.recorder().all().into_iter().skip(mark).any(|r| {
        r.kind == RouteKind::ChannelEdit { channel_id: thread }
            && r.json.as_ref().and_then(|j| j.get("archived")) == Some(&json!(false))
    });
    assert!(reopened, "PATCH archived=false before posting");
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_deleted_thread_sends_the_game_back_to_its_channel() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (channel, game, thread) = threaded_game(&world, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    world.fake.delete_thread(thread).unwrap();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    let posted = world.accepted_post_containing(mark, channel, "d1-b1").await;
    assert_eq!(pinged(&posted), vec![bob.id.to_string()]);
    // The game lives in the channel again: commands there find it.
    let board = world.slash(&bob, channel, "board", &[]).await;
    assert!(
        board.text().contains(&format!("Game #{game}")),
        "{}",
        board.text()
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn when_the_channel_is_gone_too_the_players_are_told_by_direct_message() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (channel, game, thread) = threaded_game(&world, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    world.fake.delete_thread(thread).unwrap();
    world.fake.delete_channel(channel).unwrap();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    for player in [&alice, &bob] {
        let wanted = format!("game #{game}");
        world
            .fake
            .recorder()
            .wait_for(&format!("a DM to {}", player.name), WAIT, |r| {
                matches!(r.kind, RouteKind::ChannelMessage { .. })
                    && r.accepted()
                    && r.text().contains(&wanted)
                    && r.text().contains("gone")
                    && world
                        .fake
                        .direct_messages(player)
                        .iter()
                        .any(|m| m["content"].as_str().unwrap_or_default().contains(&wanted))
            })
            .await
            .unwrap();
    }
    // The game goes on over HTTP.
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn without_thread_permissions_the_game_stays_in_its_channel_and_accept_pings_the_first_mover()
{
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("plain");
    let mark = world.fake.recorder().mark();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    assert!(world.fake.threads_of(channel).is_empty());
    // The challenge message becomes the start (an edit pings nobody), so a new message pings
    // the first to move, and only them.
    let wanted = format!("you move first in game #{game}");
    let ping = world
        .fake
        .recorder()
        .wait_for_after(mark, "the first mover's ping", WAIT, move |r| {
            matches!(r.kind, RouteKind::Followup { .. })
                && r.accepted()
                && r.text().contains(&wanted)
        })
        .await
        .unwrap();
    assert_eq!(pinged(&ping), vec![alice.id.to_string()], "{}", ping.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_locked_thread_the_bot_may_not_reopen_sends_the_game_back_to_its_channel() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (channel, game, thread) = threaded_game(&world, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    // Everything but MANAGE_THREADS: the bot cannot reopen a locked thread.
    let bits = ALL_PERMISSIONS & !MANAGE_THREADS;
    world.fake.set_bot_permissions(channel, bits);
    world.fake.archive_thread(thread, true).unwrap();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.accepted_post_containing(mark, channel, "d1-b1").await;
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_server_at_its_active_thread_limit_keeps_the_game_in_its_channel() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(channel);
    world.fake.limit_active_threads(0);
    let mark = world.fake.recorder().mark();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    let refused = world
        .fake
        .recorder()
        .wait_for_after(mark, "the refused thread", WAIT, |r| {
            matches!(r.kind, RouteKind::ThreadCreate { .. })
        })
        .await
        .unwrap();
    assert_eq!(
        (refused.status, refused.error_code),
        (400, Some(160_006)),
        "Discord's maximum number of active threads"
    );
    assert!(world.fake.threads_of(channel).is_empty());
    // The game is played in its channel, as after any refused thread.
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world
        .accepted_post_after(mark, channel, "the move posted in the channel")
        .await;
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
