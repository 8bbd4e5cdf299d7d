//! Puzzles through the fake Discord: the daily puzzle a server turns on in `/settings`, posted
//! once a day in its channel (never twice, a restart in between), solved from its **Solve**
//! button in a private board with the picker's menus; `/puzzle` for the next one.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use serde_json::{Value, json};
use taflbot::domain::{GameId, PlayerId};
use taflbot::service::puzzles::daily::DAY_MS;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::{WAIT, World};
use taflbot_test_support::eventually;

async fn token_of(world: &World, user: &FakeUser) -> String {
    let player = world.player_of(user).await;
    world
        .app
        .service
        .accounts()
        .issue_api_token(PlayerId(player), "test")
        .await
        .unwrap()
        .token
}

async fn post(world: &World, token: &str, path: &str, body: Value) -> Value {
    reqwest::Client::new()
        .post(format!("{}{path}", world.api()))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Two players play the analysis example over HTTP (the escape left open, then missed), ask
/// for its analysis, and the miner files its puzzles.
async fn mine_the_example(world: &World) {
    let (a, b) = (world.fake.new_user("astrid"), world.fake.new_user("ragnar"));
    let (ta, tb) = (token_of(world, &a).await, token_of(world, &b).await);
    let b_id = world.player_of(&b).await;
    let challenge = post(
        world,
        &ta,
        "/challenges",
        json!({ "opponent_id": b_id, "rules": tafl_engine::ai::analysis::example::rules_string(),
                "side": "attackers" }),
    )
    .await;
    let path = format!("/challenges/{}/accept", challenge["challenge"]["id"]);
    let accepted = post(world, &tb, &path, json!({})).await;
    let game = accepted["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{challenge} then {accepted}"));
    for (ply, mv) in tafl_engine::ai::analysis::example::MOVES.iter().enumerate() {
        let token = if ply % 2 == 0 { &ta } else { &tb };
        let path = format!("/games/{game}/moves");
        post(world, token, &path, json!({ "move": mv, "ply": ply })).await;
    }
    post(world, &ta, &format!("/games/{game}/analysis"), json!({})).await;
    let service = world.app.service.clone();
    eventually(
        Duration::from_secs(60),
        "the example's puzzles mined",
        || {
            let service = service.clone();
            async move {
                let mined = service.puzzles().of_game(GameId(game)).await.ok()?;
                (mined.mined && !mined.puzzles.is_empty()).then_some(())
            }
        },
    )
    .await;
}

fn quick_analysis(c: &mut taflbot::config::Config) {
    c.games.analysis_ms_per_ply = 60;
    c.games.analysis_threads = 1;
}

/// `who` picks `value` in the select menu of `on`; returns the bot's answer.
async fn pick(world: &World, who: &FakeUser, on: &Recorded, value: &str) -> Recorded {
    let (menu, _) = on.select_menu().expect("a select menu");
    let message = on.message.as_ref().expect("the menu's message is stored");
    let sent = world.fake.select(who, message, &menu, &[value]).unwrap();
    world.reply(&sent).await
}

#[tokio::test]
async fn the_daily_puzzle_is_posted_once_a_day_and_solved_privately_from_its_button() {
    let world = World::start_with(quick_analysis).await;
    mine_the_example(&world).await;
    let admin = world.fake.new_user("admin");
    let channel = world.fake.channel();
    let saved = world
        .slash(
            &admin,
            channel,
            "settings",
            &[Opt::channel("daily_puzzle", channel)],
        )
        .await;
    assert!(
        saved
            .text()
            .contains(&format!("Daily puzzle: <#{channel}>")),
        "{}",
        saved.text()
    );

    let mark = world.fake.recorder().mark();
    let posted = world.app.service.puzzles().post_daily().await.unwrap();
    assert!(posted.is_some());
    let daily = world
        .accepted_post_containing(mark, channel, "Puzzle of the day")
        .await;
    assert_eq!(daily.png_attachments().count(), 1, "the board is attached");
    // Again the same day, and again after a restart: nothing more.
    assert_eq!(
        world.app.service.puzzles().post_daily().await.unwrap(),
        None
    );
    let world = world.restart().await;
    assert_eq!(
        world.app.service.puzzles().post_daily().await.unwrap(),
        None
    );
    world.wait_for_outbox_drained().await;
    let posts = world.channel_posts_after(mark, channel);
    assert_eq!(posts.len(), 1, "one daily post, not {}", posts.len());

    // A member solves it privately from the button.
    let solver = world.fake.new_user("solver");
    let solve = daily
        .button_starting_with("pz:open:")
        .expect("a Solve button");
    let sent = world
        .fake
        .click(&solver, daily.message.as_ref().unwrap(), &solve)
        .unwrap();
    let board = world.reply(&sent).await;
    assert!(board.is_ephemeral(), "only the solver sees the try");
    assert!(board.text().contains("to move"), "{}", board.text());
    let (_, pieces) = board.select_menu().expect("the pieces menu");
    let from = pieces.first().expect("a piece that can move").clone();
    let targets = pick(&world, &solver, &board, &from).await;
    let (_, squares) = targets.select_menu().expect("the destinations menu");
    let result = pick(&world, &solver, &targets, &squares[0]).await;
    assert!(
        result.text().contains("Solved") || result.text().contains("Not this time"),
        "{}",
        result.text()
    );
    assert!(result.text().contains("puzzle rating"), "{}", result.text());

    // The next day: the next post.
    world.clock.advance_ms(DAY_MS);
    let mark = world.fake.recorder().mark();
    assert!(
        world
            .app
            .service
            .puzzles()
            .post_daily()
            .await
            .unwrap()
            .is_some()
    );
    world
        .accepted_post_containing(mark, channel, "Puzzle of the day")
        .await;

    // Turned off: nothing the day after.
    world
        .slash(
            &admin,
            channel,
            "settings",
            &[Opt::boolean("no_daily_puzzle", true)],
        )
        .await;
    world.clock.advance_ms(DAY_MS);
    assert_eq!(
        world.app.service.puzzles().post_daily().await.unwrap(),
        None
    );
    world.stop().await;
}

#[tokio::test]
async fn slash_puzzle_offers_a_puzzle_near_the_players_rating_privately() {
    let world = World::start_with(quick_analysis).await;
    let player = world.fake.new_user("solver");
    let channel = world.fake.channel();
    let none = world.slash(&player, channel, "puzzle", &[]).await;
    assert!(none.is_ephemeral());
    assert!(
        none.text().to_lowercase().contains("no puzzle left"),
        "{}",
        none.text()
    );

    mine_the_example(&world).await;
    let board = world.slash(&player, channel, "puzzle", &[]).await;
    assert!(board.is_ephemeral());
    assert!(board.text().contains("Puzzle #"), "{}", board.text());
    assert_eq!(board.png_attachments().count(), 1);
    assert!(board.select_menu().is_some(), "the pieces menu");
    let _ = WAIT;
    world.stop().await;
}

/// The puzzle a daily post offers: its **Solve** button names it.
fn daily_puzzle_of(post: &Recorded) -> String {
    post.button_starting_with("pz:open:")
        .unwrap_or_else(|| panic!("no Solve button in {}", post.text()))
}

#[tokio::test]
async fn the_daily_timer_posts_once_a_day_in_each_server_and_the_next_puzzle_the_next_day() {
    // The timer looks every second; the day is the service clock's, moved by the test.
    let world = World::start_with(|c| {
        quick_analysis(c);
        c.games.daily_puzzle_check_secs = 1;
    })
    .await;
    mine_the_example(&world).await;
    let admin = world.fake.new_user("admin");
    let north = world.fake.channel();
    let mark = world.fake.recorder().mark();
    world
        .slash(
            &admin,
            north,
            "settings",
            &[Opt::channel("daily_puzzle", north)],
        )
        .await;
    // Nobody calls post_daily: the timer posts it.
    let first = world
        .accepted_post_containing(mark, north, "Puzzle of the day")
        .await;

    // A second server turns it on the same day: the timer's next look posts there, the same
    // puzzle, and nothing more in the first server, already served today.
    let south_server = world
        .fake
        .new_guild(taflbot_e2e::fake_discord::permissions::DEFAULT_EVERYONE_PERMISSIONS);
    let south = world.fake.new_channel_in(south_server, "puzzles");
    world
        .slash(
            &admin,
            south,
            "settings",
            &[Opt::channel("daily_puzzle", south)],
        )
        .await;
    let south_first = world
        .accepted_post_containing(mark, south, "Puzzle of the day")
        .await;
    assert_eq!(daily_puzzle_of(&south_first), daily_puzzle_of(&first));
    world.wait_for_outbox_drained().await;
    assert_eq!(
        world.channel_posts_after(mark, north).len(),
        1,
        "once a day in the first server"
    );

    // The next day: the next puzzle, in both servers, once each.
    let next_day = world.fake.recorder().mark();
    world.clock.advance_ms(DAY_MS);
    let north_next = world
        .accepted_post_containing(next_day, north, "Puzzle of the day")
        .await;
    assert_ne!(
        daily_puzzle_of(&north_next),
        daily_puzzle_of(&first),
        "a new puzzle the next day"
    );
    let south_next = world
        .accepted_post_containing(next_day, south, "Puzzle of the day")
        .await;
    assert_eq!(daily_puzzle_of(&south_next), daily_puzzle_of(&north_next));
    world.wait_for_outbox_drained().await;
    assert_eq!(world.channel_posts_after(next_day, north).len(), 1);
    assert_eq!(world.channel_posts_after(next_day, south).len(), 1);
    world.stop().await;
}
