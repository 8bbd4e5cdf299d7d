//! The bot against Discord's rate limits (issue 31): serenity's rate limiter is on against the
//! fake, as against Discord, so a hot channel stays within its bucket; a burst across many
//! channels waits for the global limit instead of meeting a 429; refusals count towards the
//! invalid-request limit.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot_e2e::fake_discord::rate_limits::{BucketLimit, RouteGroup};
use taflbot_e2e::fake_discord::{FakeDiscord, FakeUser, Fault, Recorded, RouteMatch};
use taflbot_e2e::world::{WAIT, World};

use super::discord_delivery::quick_retries;

/// `count` games, each in a channel of `channels` (by turns), between new players.
async fn games_in(world: &World, channels: &[u64], count: usize) -> Vec<(i64, [FakeUser; 2])> {
    let mut games = Vec::new();
    for i in 0..count {
        let players = [
            world.fake.new_user(&format!("attacker{i}")),
            world.fake.new_user(&format!("defender{i}")),
        ];
        let channel = channels[i % channels.len()];
        let game = world.brandubh_game(channel, &players[0], &players[1]).await;
        games.push((game, players));
    }
    world.wait_for_outbox_drained().await;
    games
}

/// Both players of every game move once over HTTP: two posts per game queued at once.
async fn both_players_move(world: &World, games: &[(i64, [FakeUser; 2])]) {
    for (game, [attacker, defender]) in games {
        assert_eq!(world.http_move(attacker, *game, "d1-b1", 0).await, 200);
        assert_eq!(world.http_move(defender, *game, "c4-c2", 1).await, 200);
    }
}

/// The posts to `channels` after `mark`, in the order they reached the fake.
fn posts_after(world: &World, mark: usize, channels: &[u64]) -> Vec<Recorded> {
    channels
        .iter()
        .flat_map(|channel| world.channel_posts_after(mark, *channel))
        .fold(Vec::new(), |mut all, post| {
            all.push(post);
            all.sort_by_key(|p| p.index);
            all
        })
}

/// At least `moves` posts (one per move), every one accepted at once (no 429), and spread
/// over two seconds at least by the waits before them.
fn assert_accepted_and_spread(posts: &[Recorded], moves: usize) {
    assert!(posts.len() >= moves, "a post per move: {posts:#?}");
    assert!(
        posts.iter().all(Recorded::accepted),
        "none refused: {:?}",
        posts.iter().map(|p| p.status).collect::<Vec<_>>()
    );
    let took = posts[posts.len() - 1].at - posts[0].at;
    assert!(took >= Duration::from_millis(1_900), "sent within {took:?}");
}

/// Two posts a second in a channel, so a test's load fills the bucket quickly.
const TWO_A_SECOND: BucketLimit = BucketLimit {
    requests: 2,
    per: Duration::from_secs(1),
};

/// Three games in one channel and both players of each moving: six posts for one channel.
async fn load_one_hot_channel(world: &World) -> (u64, usize) {
    let hot = world.fake.new_channel("hot");
    let games = games_in(world, &[hot], 3).await;
    world
        .fake
        .set_bucket_limit(RouteGroup::ChannelMessages, TWO_A_SECOND);
    let mark = world.fake.recorder().mark();
    both_players_move(world, &games).await;
    world.wait_for_outbox_drained().await;
    (hot, mark)
}

#[tokio::test]
async fn a_hot_channel_stays_within_its_bucket_and_every_post_is_delivered() {
    let world = World::start_with(quick_retries).await;
    let (hot, mark) = load_one_hot_channel(&world).await;

    // Two a second: the bucket's headers made serenity wait before the third and the fifth.
    assert_accepted_and_spread(&posts_after(&world, mark, &[hot]), 6);
    world.stop().await;
}

#[tokio::test]
async fn without_serenitys_rate_limiter_the_same_load_goes_past_the_bucket() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.connect_bots_without_rate_limiter();
    let world = World::start_against(fake, quick_retries).await;
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    world.fake.wait_for_commands(WAIT).await.unwrap();
    let (hot, mark) = load_one_hot_channel(&world).await;

    // Refused with 429 and tried again: still delivered, but the fake saw the overrun.
    let refused = posts_after(&world, mark, &[hot])
        .iter()
        .filter(|p| p.status == 429)
        .count();
    assert!(refused > 0, "the bucket refused some posts");
    let problems = world.fake.take_problems();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("went past its rate-limit bucket")),
        "{problems:#?}"
    );
    world.stop().await;
}

#[tokio::test]
async fn a_burst_across_many_channels_waits_for_the_global_limit_instead_of_a_429() {
    // Discord's 50 a second, scaled down so a few channels reach it.
    let world = World::start_with(|config| {
        quick_retries(config);
        config.discord.global_requests_per_second = 3;
    })
    .await;
    let channels: Vec<u64> = (0..4)
        .map(|i| world.fake.new_channel(&format!("room-{i}")))
        .collect();
    let games = games_in(&world, &channels, 4).await;
    world.fake.set_global_limit(3);
    let mark = world.fake.recorder().mark();
    both_players_move(&world, &games).await;
    world.wait_for_outbox_drained().await;

    // Eight posts at three a second: the burst was spread over two seconds at least.
    assert_accepted_and_spread(&posts_after(&world, mark, &channels), 8);
    world.stop().await;
}

#[tokio::test]
async fn refusals_count_towards_the_invalid_request_limit() {
    let world = World::start_with(quick_retries).await;
    let channel = world.fake.channel();
    let games = games_in(&world, &[channel], 1).await;
    let (game, [attacker, _]) = &games[0];
    let before = world.fake.invalid_requests();
    world.fake.fail_next(
        RouteMatch::ChannelMessagesIn(channel),
        &[Fault::Forbidden, Fault::MissingAccess],
    );
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(attacker, *game, "d1-b1", 0).await, 200);
    world.accepted_post_containing(mark, channel, "d1-b1").await;
    assert_eq!(
        world.fake.invalid_requests() - before,
        2,
        "the two 403s, and nothing else"
    );
    world.stop().await;
}
