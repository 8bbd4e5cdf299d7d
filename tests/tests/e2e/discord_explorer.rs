//! `/explorer` through the fake Discord: the moves finished games played from a position
//! with their results, the engine's chance once it has searched there, a link to the web
//! explorer's page, and a move list that cannot be played refused privately at its first bad
//! move.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot::domain::PlayerId;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser};
use taflbot_e2e::world::World;
use taflbot_test_support::eventually;

async fn explore(world: &World, who: &FakeUser, channel: u64, moves: Option<&str>) -> String {
    let mut options = vec![Opt::string("variant", "brandubh")];
    options.extend(moves.map(|m| Opt::string("moves", m)));
    let answer = world.slash(who, channel, "explorer", &options).await;
    assert!(
        !answer.is_ephemeral(),
        "a table for the channel: {}",
        answer.text()
    );
    answer.text()
}

#[tokio::test]
async fn slash_explorer_shows_the_moves_played_their_results_and_the_engines_chance() {
    let world = World::start().await;
    let (a, b) = (world.fake.new_user("astrid"), world.fake.new_user("ragnar"));
    let channel = world.fake.channel();
    // One finished game: d1-c1 d3-c3, then the defenders resign.
    let game = world.brandubh_game(channel, &a, &b).await;
    assert_eq!(world.http_move(&a, game, "d1-c1", 0).await, 200);
    assert_eq!(world.http_move(&b, game, "d3-c3", 1).await, 200);
    let token = world
        .app
        .service
        .accounts()
        .issue_api_token(PlayerId(world.player_of(&b).await), "test")
        .await
        .unwrap()
        .token;
    let resigned = world
        .http
        .post(format!("{}/games/{game}/resign", world.api()))
        .bearer_auth(token)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert!(resigned.status().is_success(), "{resigned:?}");

    let start = explore(&world, &a, channel, None).await;
    assert!(start.contains("after the start"), "{start}");
    assert!(
        start.contains("1 game: attackers won 100%, defenders 0%, drawn 0%."),
        "{start}"
    );
    assert!(
        start.contains("/explorer/brandubh?moves="),
        "the web link: {start}"
    );

    // One move deeper: the reply, in the orientation asked, with the web page of the line.
    let after = explore(&world, &b, channel, Some("d1-c1")).await;
    assert!(after.contains("after 1. d1-c1"), "{after}");
    let row = after
        .lines()
        .find(|l| l.starts_with("d3-c3"))
        .unwrap_or_else(|| panic!("a row for d3-c3: {after}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[1..5], ["1", "100%", "0%", "0%"], "{after}");
    assert!(
        after.contains("/explorer/brandubh?moves=d1-c1"),
        "the web link: {after}"
    );

    // The engine's chance, once its background search is done.
    let seen = eventually(
        Duration::from_secs(60),
        "the engine's chance in /explorer",
        || async {
            let text = explore(&world, &a, channel, Some("d1-c1")).await;
            let row = text.lines().find(|l| l.starts_with("d3-c3"))?.to_owned();
            (text.contains("Engine: defenders' chance") && row.ends_with('%')).then_some(text)
        },
    )
    .await;
    assert!(seen.contains(", best "), "{seen}");

    // A move list that cannot be played: privately, naming the first bad move.
    let refused = world
        .slash(
            &a,
            channel,
            "explorer",
            &[
                Opt::string("variant", "brandubh"),
                Opt::string("moves", "d1-c1 d1-d2 @everyone"),
            ],
        )
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("Move 2 (d1-d2) cannot be played"),
        "{}",
        refused.text()
    );
    world.assert_clean();
    world.stop().await;
}
