//! `/tournament` through the fake Discord: one tournament joined from two servers and over
//! HTTP (as the web does), its news posted once in each server's channel, each game posted in
//! a thread of each of its players' servers (two servers, two threads, one game), a move made
//! in either thread shown in the other, the standings answered, refusals private and in words.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::permissions::DEFAULT_EVERYONE_PERMISSIONS;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded, RouteKind};
use taflbot_e2e::world::World;

/// `/tournament <sub> tournament:<id>` by `who` in `channel`.
async fn tournament_command(
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
            "tournament",
            &[Opt::sub(sub, vec![Opt::integer("tournament", id)])],
        )
        .await
}

/// The posts the fake accepted in `channel` whose text holds `needle`.
fn accepted_posts_with(world: &World, channel: u64, needle: &str) -> Vec<Recorded> {
    world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
                && r.accepted()
                && r.text().contains(needle)
        })
        .collect()
}

/// `who` plays `mv` with `/move` in `here`: the answer shows it, the other server's thread
/// `there` gets it from the outbox, and `here` gets no second post of it.
async fn move_shown_in_both(world: &World, who: &FakeUser, mv: &str, here: u64, there: u64) {
    let mark = world.fake.recorder().mark();
    let moved = world
        .slash(who, here, "move", &[Opt::string("move", mv)])
        .await;
    assert!(moved.text().contains(mv), "{}", moved.text());
    world.accepted_post_containing(mark, there, mv).await;
    world.wait_for_outbox_drained().await;
    let again: Vec<String> = world
        .channel_posts_after(mark, here)
        .iter()
        .map(Recorded::text)
        .collect();
    assert!(
        again.is_empty(),
        "the answer shows the move where it was made, no second post there: {again:?}"
    );
}

#[tokio::test]
async fn a_tournament_joined_from_two_servers_and_the_web_plays_each_game_in_a_thread_of_each_players_server()
 {
    let world = World::start().await;
    let (astrid, ragnar) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
    // Astrid plays from the test server, Ragnar from another.
    let north = world.fake.new_channel("tafl-north");
    world.fake.allow_threads(north);
    let south_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
    let south = world.fake.new_channel_in(south_server, "tafl-south");
    world.fake.allow_threads(south);

    let created = world
        .slash(
            &astrid,
            north,
            "tournament",
            &[Opt::sub(
                "create",
                vec![
                    Opt::string("name", "Yule **cup** @everyone"),
                    Opt::string("format", "round robin"),
                ],
            )],
        )
        .await;
    assert!(!created.is_ephemeral(), "{}", created.text());
    let text = created.text();
    assert!(
        !text.contains("**cup**"),
        "the name is shown literally: {text}"
    );
    let id: i64 = text
        .split("Tournament #")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tournament id in {text}"));

    // Astrid joins in the north, Ragnar in the south, a third player over HTTP.
    let joined = tournament_command(&world, &astrid, north, "join", id).await;
    assert!(joined.text().contains("joined"), "{}", joined.text());
    let joined = tournament_command(&world, &ragnar, south, "join", id).await;
    assert!(joined.text().contains("2 of 64"), "{}", joined.text());
    let again = tournament_command(&world, &ragnar, south, "join", id).await;
    assert!(again.is_ephemeral(), "a refusal is private");
    assert!(again.text().contains("already joined"), "{}", again.text());
    let web = world
        .app
        .service
        .accounts()
        .register("Wilma", None)
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let answer = http
        .post(format!("{}/tournaments/{id}/join", world.api()))
        .bearer_auth(&web.token)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);

    // Only the organiser starts it.
    let refused = tournament_command(&world, &ragnar, south, "start", id).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("nly the organiser"),
        "{}",
        refused.text()
    );
    let mark = world.fake.recorder().mark();
    let started = tournament_command(&world, &astrid, north, "start", id).await;
    assert!(started.text().contains("has started"), "{}", started.text());

    // Seeded by sign-up: round 1 is Ragnar (attackers) against Astrid, Wilma has the bye.
    // Each server's channel gets the round's news once, with its pairing.
    for channel in [north, south] {
        let news = world
            .accepted_post_containing(mark, channel, "round 1 has started")
            .await;
        assert!(news.text().contains("Wilma: a bye"), "{}", news.text());
    }
    // One game, a thread for it in each server, its start posted in both.
    let deadline = tokio::time::Instant::now() + taflbot_e2e::world::WAIT;
    while world.fake.threads_of(north).is_empty() || world.fake.threads_of(south).is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread in each server\nrecorded:\n{}",
            world.fake.recorder().dump()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let north_thread = world.fake.threads_of(north)[0].id;
    let south_thread = world.fake.threads_of(south)[0].id;
    assert_ne!(north_thread, south_thread);
    assert_eq!(
        world.fake.threads_of(north)[0].name,
        "Ragnar vs Astrid · Brandubh"
    );
    world
        .accepted_post_containing(mark, north_thread, "begins")
        .await;
    world
        .accepted_post_containing(mark, south_thread, "begins")
        .await;
    world.wait_for_outbox_drained().await;
    assert_eq!(
        accepted_posts_with(&world, north, "round 1 has started").len(),
        1,
        "the news once per channel"
    );

    // Ragnar moves in his server's thread: answered there, posted in Astrid's; she answers in
    // hers, posted in his.
    move_shown_in_both(&world, &ragnar, "d1-b1", south_thread, north_thread).await;
    move_shown_in_both(&world, &astrid, "c4-c2", north_thread, south_thread).await;

    // The standings, from either server.
    let standings = tournament_command(&world, &ragnar, south, "standings", id).await;
    let text = standings.text();
    assert!(text.contains("standings (round 1)"), "{text}");
    assert!(text.contains("Wilma"), "{text}");
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
