//! The delivery layer (issue 31, "Discord at scale"): a revoked token stops every request and
//! moves no game, a hung or busy channel holds up no other, a post slower than the claim lease
//! goes out once from two instances, access refused for a while keeps a game in its place, and
//! closed direct messages turn a player's DMs off with one private note.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::app::RunningApp;
use taflbot::config::Config;
use taflbot::discord::DiscordState;
use taflbot::domain::{GameId, PlayerId};
use taflbot_e2e::bot::{shard_instance_config, start_instance};
use taflbot_e2e::fake_discord::{
    CommandOption as Opt, FakeDiscord, FakeUser, Fault, Hold, Recorded, RouteKind, RouteMatch,
};
use taflbot_e2e::world::{WAIT, World, game_id_in};

/// Retries in milliseconds, so a test sees several tries at once.
pub(crate) fn quick_retries(config: &mut Config) {
    config.discord.retry_base_ms = 20;
}

/// Where `game` is posted now (`discord:channel:<id>`, or the channel marked gone).
async fn context_of(world: &World, game: i64) -> Option<String> {
    world
        .app
        .service
        .games()
        .game(None, GameId(game))
        .await
        .unwrap()
        .context
}

fn place(channel: u64) -> Option<String> {
    Some(format!("discord:channel:{channel}"))
}

/// Requests authorized by the bot's token (not an interaction's) recorded from `from` on.
fn bot_requests(recorded: &[Recorded], from: usize) -> Vec<Recorded> {
    recorded
        .iter()
        .skip(from)
        .filter(|r| r.interaction_token().is_none())
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_revoked_token_stops_every_request_moves_no_game_and_health_says_failed() {
    let world = World::start_with(quick_retries).await;
    let [alice, bob, carol, dave] =
        ["alice", "bob", "carol", "dave"].map(|n| world.fake.new_user(n));
    let channel = world.fake.channel();
    let in_channel = world.brandubh_game(channel, &alice, &bob).await;
    let home = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(home);
    let in_thread = world.brandubh_game(home, &carol, &dave).await;
    let thread = world.fake.threads_of(home)[0].id;
    world.wait_for_outbox_drained().await;
    assert_eq!(context_of(&world, in_thread).await, place(thread));

    world.fake.revoke_token();
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, in_channel, "d1-b1", 0).await, 200);
    assert_eq!(world.http_move(&carol, in_thread, "d1-b1", 0).await, 200);
    let status = world.app.discord_status.clone();
    let failed = tokio::time::timeout(WAIT, status.wait_for(DiscordState::is_failed))
        .await
        .unwrap_or_else(|_| panic!("Discord never marked failed: {:?}", status.get()));
    let DiscordState::Failed { error } = failed else {
        panic!("not failed: {failed:?}");
    };
    assert!(error.contains("401"), "{error}");
    let (code, body) = world.health().await;
    assert_eq!(code, 503, "{body}");
    assert_eq!(body["discord"]["state"], "failed", "{body}");

    // More moves: their posts wait; nothing more is sent.
    let failed_at = world.fake.recorder().mark();
    assert_eq!(world.http_move(&bob, in_channel, "c4-c2", 1).await, 200);
    assert_eq!(world.http_move(&dave, in_thread, "c4-c2", 1).await, 200);
    assert_eq!(
        context_of(&world, in_channel).await,
        place(channel),
        "not moved"
    );
    assert_eq!(
        context_of(&world, in_thread).await,
        place(thread),
        "still in its thread"
    );
    let pending = world.app.service.discord().outbox_depth().await.unwrap();
    assert_eq!(
        pending, 4,
        "every post waits for a valid token, none given up"
    );
    let recorder = world.fake.recorder().clone();
    world.stop().await;

    let all = recorder.all();
    let refused = bot_requests(&all, mark);
    assert!(
        !refused.is_empty() && refused.len() <= 2,
        "one 401 per channel under way at most, then nothing: {refused:#?}"
    );
    assert!(refused.iter().all(|r| r.status == 401), "{refused:#?}");
    let later = bot_requests(&all, failed_at);
    assert!(
        later.is_empty(),
        "sent after the token was refused: {later:#?}"
    );
}

#[tokio::test]
async fn a_hung_channel_and_a_busy_one_hold_up_no_other_channel() {
    let world = World::start_with(|config| {
        quick_retries(config);
        config.discord.request_timeout_ms = 8_000;
    })
    .await;
    let [alice, bob, carol, dave, erin, finn] =
        ["alice", "bob", "carol", "dave", "erin", "finn"].map(|n| world.fake.new_user(n));
    let (hung, busy, quiet) = (
        world.fake.new_channel("hung"),
        world.fake.new_channel("busy"),
        world.fake.channel(),
    );
    let stuck = world.brandubh_game(hung, &alice, &bob).await;
    let hot = world.brandubh_game(busy, &carol, &dave).await;
    let calm = world.brandubh_game(quiet, &erin, &finn).await;
    world.wait_for_outbox_drained().await;

    world.fake.hold_channel(hung, Some(Hold::Never));
    world
        .fake
        .hold_channel(busy, Some(Hold::Late(Duration::from_secs(3))));
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, stuck, "d1-b1", 0).await, 200);
    assert_eq!(world.http_move(&carol, hot, "d1-b1", 0).await, 200);
    assert_eq!(world.http_move(&dave, hot, "c4-c2", 1).await, 200);
    world
        .fake
        .recorder()
        .wait_for_after(mark, "the hung channel's post sent", WAIT, |r| {
            r.kind == RouteKind::ChannelMessage { channel_id: hung }
        })
        .await
        .unwrap();

    // Well within the request timeout: only delivering channels apart lets it through.
    assert_eq!(world.http_move(&erin, calm, "d1-b1", 0).await, 200);
    let prompt = Duration::from_secs(4);
    world
        .fake
        .recorder()
        .wait_for_after(mark, "the quiet channel's post, promptly", prompt, |r| {
            r.kind == RouteKind::ChannelMessage { channel_id: quiet }
                && r.accepted()
                && r.text().contains("d1-b1")
        })
        .await
        .unwrap();

    // The busy channel's posts go out in their order; the hung one's post, once the
    // connection is given up and the channel answers again.
    world.fake.hold_channel(hung, None);
    let first = world.accepted_post_containing(mark, busy, "d1-b1").await;
    let second = world.accepted_post_containing(mark, busy, "c4-c2").await;
    assert!(first.index < second.index, "in order");
    world.accepted_post_containing(mark, hung, "d1-b1").await;
    world.fake.hold_channel(busy, None);
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_channel_refusing_access_for_a_while_keeps_its_games() {
    let world = World::start_with(quick_retries).await;
    let [alice, bob, carol, dave] =
        ["alice", "bob", "carol", "dave"].map(|n| world.fake.new_user(n));
    let channel = world.fake.channel();
    let in_channel = world.brandubh_game(channel, &alice, &bob).await;
    let home = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(home);
    let in_thread = world.brandubh_game(home, &carol, &dave).await;
    let thread = world.fake.threads_of(home)[0].id;
    world.wait_for_outbox_drained().await;

    // An admin reworks permissions: Missing Access a few times, then access again.
    let refusals = [
        Fault::MissingAccess,
        Fault::MissingAccess,
        Fault::MissingAccess,
    ];
    world
        .fake
        .fail_next(RouteMatch::ChannelMessagesIn(channel), &refusals);
    world
        .fake
        .fail_next(RouteMatch::ChannelMessagesIn(thread), &refusals);
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(&alice, in_channel, "d1-b1", 0).await, 200);
    assert_eq!(world.http_move(&carol, in_thread, "d1-b1", 0).await, 200);
    world.accepted_post_containing(mark, channel, "d1-b1").await;
    world.accepted_post_containing(mark, thread, "d1-b1").await;
    for place_id in [channel, thread] {
        let statuses: Vec<u16> = world
            .channel_posts_after(mark, place_id)
            .iter()
            .map(|r| r.status)
            .collect();
        assert_eq!(statuses, vec![403, 403, 403, 200], "in {place_id}");
    }
    assert_eq!(context_of(&world, in_channel).await, place(channel));
    assert_eq!(context_of(&world, in_thread).await, place(thread));
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn closed_direct_messages_turn_the_players_dms_off_and_they_are_told_once() {
    let world = World::start_with(quick_retries).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    world
        .slash(&bob, channel, "notify", &[Opt::string("dm", "on")])
        .await;
    world.fake.close_dms(&bob);
    let game = world.brandubh_game(channel, &alice, &bob).await;
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.wait_for_outbox_drained().await;
    let bob_player = PlayerId(world.player_of(&bob).await);
    let accounts = world.app.service.accounts();
    assert!(!accounts.turn_dms(bob_player).await.unwrap(), "DMs off");

    // Bob's next command: its answer, then the note, privately, pinging nobody.
    let mark = world.fake.recorder().mark();
    let sent = world.fake.slash(&bob, channel, "games", &[]).unwrap();
    let token = sent.token.clone();
    let note = world
        .fake
        .recorder()
        .wait_for_after(mark, "the closed-DMs note", WAIT, move |r| {
            r.accepted()
                && r.answers(&token)
                && r.text().contains("says your direct messages are closed")
        })
        .await
        .unwrap();
    assert!(note.is_ephemeral(), "{}", note.text());
    assert!(note.text().contains("/notify dm:on"), "{}", note.text());
    assert!(
        !world
            .app
            .service
            .discord()
            .take_dms_closed_note(bob.id)
            .await
            .unwrap(),
        "told once"
    );
    let again = world.slash(&bob, channel, "games", &[]).await;
    assert!(
        !again
            .text()
            .contains("says your direct messages are closed")
    );

    // Bob's later turns cost no refused request.
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.wait_for_outbox_drained().await;
    let notes = world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| r.text().contains("says your direct messages are closed"))
        .count();
    assert_eq!(notes, 1, "one note");
    let refused = world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| r.error_code == Some(50007))
        .count();
    assert_eq!(refused, 1, "one refused DM in all");
    world.stop().await;
}

/// An instance of the bot on the PostgreSQL database `url`, running `shards` of two, with a
/// claim lease of one second.
async fn instance(
    fake: &FakeDiscord,
    url: &str,
    dir: &tempfile::TempDir,
    shards: &str,
) -> RunningApp {
    let mut config = shard_instance_config(fake, dir.path(), 2, shards);
    config.database.url = url.to_owned();
    config.discord.retry_base_ms = 20;
    config.games.claim_lease_secs = 1;
    start_instance(config).await
}

/// `alice` challenges `bob` in `channel` and `bob` accepts: the game's id.
async fn game_between(fake: &FakeDiscord, channel: u64, alice: &FakeUser, bob: &FakeUser) -> i64 {
    let options = [
        Opt::user("opponent", bob),
        Opt::string("variant", "brandubh"),
        Opt::string("side", "attackers"),
    ];
    let sent = fake.slash(alice, channel, "challenge", &options).unwrap();
    let challenge = fake.reply_to(&sent, WAIT).await.unwrap();
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let click = fake
        .click(bob, challenge.message.as_ref().unwrap(), &accept)
        .unwrap();
    game_id_in(&fake.reply_to(&click, WAIT).await.unwrap().text())
}

/// `user` plays `mv` at `ply` in `game` over `app`'s HTTP API.
async fn http_move(app: &RunningApp, user: &FakeUser, game: i64, mv: &str, ply: u32) {
    let accounts = app.service.accounts();
    let player = accounts
        .player_for_discord_user(user.id, &user.name, &user.name)
        .await
        .unwrap()
        .id;
    let token = accounts
        .issue_api_token(player, "test")
        .await
        .unwrap()
        .token;
    let status = reqwest::Client::new()
        .post(format!(
            "{}/api/v1/games/{game}/moves",
            app.base_url().unwrap()
        ))
        .bearer_auth(token)
        .json(&serde_json::json!({ "move": mv, "ply": ply }))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status.as_u16(), 200, "{mv}");
}

/// Waits until the outbox (shared by both instances) has nothing left to deliver.
async fn drained(app: &RunningApp) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while app.service.discord().outbox_depth().await.unwrap() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the outbox never drained"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn on_postgresql_a_post_slower_than_the_claim_lease_goes_out_once_from_two_instances() {
    let fake = FakeDiscord::start().await.unwrap();
    let url = taflbot_e2e::pg_server::database_url();
    let dir = tempfile::tempdir().unwrap();
    let first = instance(&fake, &url, &dir, "0").await;
    let second = instance(&fake, &url, &dir, "1").await;
    fake.wait_for_sessions(2, WAIT).await.unwrap();
    fake.wait_for_commands(WAIT).await.unwrap();
    let [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map(|n| fake.new_user(n));
    let slow = fake.channel();
    let quiet = fake.new_channel("quiet");
    let slow_game = game_between(&fake, slow, &alice, &bob).await;
    let quiet_game = game_between(&fake, quiet, &carol, &dave).await;
    drained(&first).await;

    // The first instance claims the post (its own commit wakes its outbox) and Discord
    // answers it three claim leases later.
    fake.hold_channel(slow, Some(Hold::Late(Duration::from_secs(3))));
    let mark = fake.recorder().mark();
    http_move(&first, &alice, slow_game, "d1-b1", 0).await;
    // Past the lease, the second instance looks at the outbox (its own commit wakes it).
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    http_move(&second, &carol, quiet_game, "d1-b1", 0).await;
    let recorder = fake.recorder();
    for (channel, what) in [(quiet, "the quiet post"), (slow, "the slow post")] {
        recorder
            .wait_for_after(mark, what, WAIT, |r| {
                r.kind
                    == RouteKind::ChannelMessage {
                        channel_id: channel,
                    }
                    && r.accepted()
                    && r.text().contains("d1-b1")
            })
            .await
            .unwrap();
    }
    assert_eq!(
        fake.held_arrivals(slow),
        1,
        "posted once:\n{}",
        recorder.dump()
    );
    fake.hold_channel(slow, None);
    assert!(fake.problems().is_empty(), "{:#?}", fake.problems());
    first.shutdown().await;
    second.shutdown().await;
}
