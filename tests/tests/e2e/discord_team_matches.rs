//! `/match` through the fake Discord: a team match of one server against another, created in
//! one, joined by a member of each from their own server, started by its organiser; its news
//! posted once in each team's channel, each of its two games in a thread of each server, the
//! match ended and scored when its last game ends; names shown literally, refusals private.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::permissions::DEFAULT_EVERYONE_PERMISSIONS;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::{WAIT, World};

/// `/match <sub> match:<id>` by `who` in `channel`.
async fn match_command(
    world: &World,
    who: &FakeUser,
    channel: u64,
    sub: &str,
    id: i64,
) -> Recorded {
    world
        .slash(
            who,
            channel,
            "match",
            &[Opt::sub(sub, vec![Opt::integer("match", id)])],
        )
        .await
}

/// `/match create` by `who` in `channel` (its server the home team): the match's id and the
/// answer, which is public.
async fn create_match(
    world: &World,
    who: &FakeUser,
    channel: u64,
    name: &str,
    boards: i64,
) -> (i64, String) {
    let created = world
        .slash(
            who,
            channel,
            "match",
            &[Opt::sub(
                "create",
                vec![Opt::string("name", name), Opt::integer("boards", boards)],
            )],
        )
        .await;
    let text = created.text();
    assert!(!created.is_ephemeral(), "{text}");
    let id = text
        .split("Match #")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no match id in {text}"));
    (id, text)
}

/// The threads of `channel` once there are `count`; fails loudly after [`WAIT`].
async fn threads(world: &World, channel: u64, count: usize) -> Vec<(u64, String)> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let threads = world.fake.threads_of(channel);
        if threads.len() >= count {
            return threads.into_iter().map(|t| (t.id, t.name)).collect();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} threads of {count} in {channel}\nrecorded:\n{}",
            threads.len(),
            world.fake.recorder().dump()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_team_match_between_two_servers_is_played_in_a_thread_of_each_and_scored() {
    let world = World::start().await;
    let (astrid, ragnar) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
    let north = world.fake.new_channel("tafl-north");
    world.fake.allow_threads(north);
    let south_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
    let south = world.fake.new_channel_in(south_server, "tafl-south");
    world.fake.allow_threads(south);

    let (id, text) = create_match(&world, &astrid, north, "North **v** South @everyone", 1).await;
    assert!(
        !text.contains("**v**"),
        "the name is shown literally: {text}"
    );
    assert!(!text.contains("@everyone"), "nobody is pinged: {text}");

    // Astrid joins the home team here, Ragnar makes his server the away team.
    let joined = match_command(&world, &astrid, north, "join", id).await;
    assert!(joined.text().contains("board 1 of 1"), "{}", joined.text());
    let joined = match_command(&world, &ragnar, south, "join", id).await;
    assert!(joined.text().contains("board 1 of 1"), "{}", joined.text());
    let again = match_command(&world, &ragnar, south, "join", id).await;
    assert!(again.is_ephemeral(), "a refusal is private");
    assert!(again.text().contains("already plays"), "{}", again.text());

    // Only the organiser starts it.
    let refused = match_command(&world, &ragnar, south, "start", id).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("nly the organiser"),
        "{}",
        refused.text()
    );
    let mark = world.fake.recorder().mark();
    let started = match_command(&world, &astrid, north, "start", id).await;
    assert!(started.text().contains("has started"), "{}", started.text());
    for channel in [north, south] {
        let news = world
            .accepted_post_containing(mark, channel, "has started")
            .await;
        assert!(news.text().contains("Board 1"), "{}", news.text());
    }
    // Two games (one with each side), each in a thread of each server.
    let north_threads = threads(&world, north, 2).await;
    let south_threads = threads(&world, south, 2).await;
    let mut names: Vec<&str> = south_threads.iter().map(|(_, n)| n.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        ["Astrid vs Ragnar · Brandubh", "Ragnar vs Astrid · Brandubh"]
    );
    for (thread, _) in north_threads.iter().chain(&south_threads) {
        world
            .accepted_post_containing(mark, *thread, "begins")
            .await;
    }

    // Ragnar resigns both games from his server's threads: North 2 – 0.
    let mark = world.fake.recorder().mark();
    for (thread, _) in &south_threads {
        let resigned = world.slash(&ragnar, *thread, "resign", &[]).await;
        assert!(
            resigned.text().to_lowercase().contains("resign"),
            "{}",
            resigned.text()
        );
    }
    for channel in [north, south] {
        let news = world
            .accepted_post_containing(mark, channel, "is over")
            .await;
        assert!(news.text().contains("2 – 0"), "{}", news.text());
        assert!(news.text().contains("wins"), "{}", news.text());
    }
    let status = match_command(&world, &ragnar, south, "status", id).await;
    assert!(status.text().contains("final"), "{}", status.text());
    assert!(status.text().contains("Winner"), "{}", status.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn before_the_start_a_member_leaves_a_team_match_and_its_organiser_calls_it_off() {
    let world = World::start().await;
    let (astrid, ragnar, sigrid) = (
        world.fake.new_user("Astrid"),
        world.fake.new_user("Ragnar"),
        world.fake.new_user("Sigrid"),
    );
    let north = world.fake.new_channel("tafl-north");
    let south_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
    let south = world.fake.new_channel_in(south_server, "tafl-south");
    let other_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
    let other = world.fake.new_channel_in(other_server, "tafl-elsewhere");
    let (id, _) = create_match(&world, &astrid, north, "Spring match", 2).await;
    match_command(&world, &astrid, north, "join", id).await;
    // Ragnar's server takes the away team; when he leaves, nobody of it is left and the
    // team is open again, so a third server may take it.
    match_command(&world, &ragnar, south, "join", id).await;
    let left = match_command(&world, &ragnar, south, "leave", id).await;
    assert!(!left.is_ephemeral(), "{}", left.text());
    assert!(left.text().contains("left"), "{}", left.text());
    let again = match_command(&world, &ragnar, south, "leave", id).await;
    assert!(again.is_ephemeral(), "a refusal is private");
    assert!(again.text().contains("not playing"), "{}", again.text());
    let joined = match_command(&world, &sigrid, other, "join", id).await;
    assert!(joined.text().contains("board 1 of 2"), "{}", joined.text());
    let status = match_command(&world, &astrid, north, "status", id).await;
    assert!(
        !status.text().contains("open to another server"),
        "{}",
        status.text()
    );

    // Only the organiser calls it off; then its players hear of it in their channels.
    let refused = match_command(&world, &sigrid, other, "cancel", id).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("nly the organiser"),
        "{}",
        refused.text()
    );
    let mark = world.fake.recorder().mark();
    let cancelled = match_command(&world, &astrid, north, "cancel", id).await;
    assert!(
        cancelled.text().contains("called off"),
        "{}",
        cancelled.text()
    );
    world
        .accepted_post_containing(mark, other, "was called off by its organiser")
        .await;
    let late = match_command(&world, &sigrid, other, "join", id).await;
    assert!(late.is_ephemeral());
    assert!(late.text().contains("called off"), "{}", late.text());
    let status = match_command(&world, &sigrid, other, "status", id).await;
    assert!(status.text().contains("called off"), "{}", status.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
