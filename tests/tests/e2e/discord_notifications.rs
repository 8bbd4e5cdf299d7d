//! Turn notifications through the fake Discord: opt-in direct messages, deadline reminders at
//! 24 h and 2 h, inactivity reminders on games without a clock, closed DMs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::{WAIT, World};

const HOUR_MS: i64 = 3_600_000;

/// `alice` (attackers) challenges `bob` to brandubh with `clock` in `channel`; `bob` accepts.
async fn start(world: &World, channel: u64, alice: &FakeUser, bob: &FakeUser, clock: &str) -> i64 {
    let options = [
        Opt::user("opponent", bob),
        Opt::string("variant", "brandubh"),
        Opt::string("side", "attackers"),
        Opt::string("clock", clock),
    ];
    let challenge = world.slash(alice, channel, "challenge", &options).await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let click = world
        .fake
        .click(bob, challenge.message.as_ref().unwrap(), &accept)
        .unwrap();
    let accepted = world.fake.reply_to(&click, WAIT).await.unwrap();
    taflbot_e2e::world::game_id_in(&accepted.text())
}

/// Waits for the `count`th accepted direct message to `user` containing `needle`.
async fn dm_to(world: &World, user: &FakeUser, needle: &str, count: usize) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let texts: Vec<String> = world
            .fake
            .direct_messages(user)
            .iter()
            .filter_map(|m| m["content"].as_str().map(str::to_owned))
            .filter(|t| t.contains(needle))
            .collect();
        if texts.len() >= count {
            return texts;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {count} DM(s) to {} with {needle:?}; got {texts:?}\n{}",
            user.name,
            world.fake.recorder().dump()
        );
        world.assert_clean();
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn direct_messages_are_opt_in_and_remind_at_24_and_2_hours() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let on = world
        .slash(&bob, channel, "notify", &[Opt::string("dm", "on")])
        .await;
    assert!(on.is_ephemeral(), "{}", on.text());
    let game = start(&world, channel, &alice, &bob, "3d").await;
    // Alice moves first: she did not opt in, so no DM; Bob's turn then DMs him.
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    dm_to(&world, &bob, "It is your move", 1).await;
    assert!(
        world.fake.direct_messages(&alice).is_empty(),
        "alice never asked"
    );
    // 3 days per move: at 2 days in, 24 hours are left; at 2 days 23 hours, 1 hour.
    world.clock.advance_ms(48 * HOUR_MS + 1000);
    let mark = world.fake.recorder().mark();
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        1
    );
    world
        .accepted_post_containing(mark, channel, "deadline")
        .await;
    dm_to(&world, &bob, "Reminder", 1).await;
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        0,
        "once"
    );
    world.clock.advance_ms(22 * HOUR_MS);
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        1
    );
    dm_to(&world, &bob, "Reminder", 2).await;
    // Bob turns them off: his next turn is only pinged in the channel.
    world
        .slash(&bob, channel, "notify", &[Opt::string("dm", "off")])
        .await;
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    assert_eq!(world.http_move(&alice, game, "b1-b2", 2).await, 200);
    world.wait_for_outbox_drained().await;
    assert_eq!(
        dm_to(&world, &bob, "It is your move", 1).await.len(),
        1,
        "no DM after opting out"
    );
    world.stop().await;
}

#[tokio::test]
async fn a_game_without_a_clock_reminds_the_player_to_move_after_days_of_silence() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = start(&world, channel, &alice, &bob, "unlimited").await;
    world.wait_for_outbox_drained().await;
    world.clock.advance_ms(71 * HOUR_MS);
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        0
    );
    world.clock.advance_ms(2 * HOUR_MS);
    let mark = world.fake.recorder().mark();
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        1
    );
    let reminder = world
        .accepted_post_containing(mark, channel, "waiting for your move")
        .await;
    assert!(
        reminder.text().contains(&alice.mention()),
        "{}",
        reminder.text()
    );
    assert!(
        reminder.text().contains(&format!("#{game}")),
        "{}",
        reminder.text()
    );
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        0,
        "once per period"
    );
    world.clock.advance_ms(72 * HOUR_MS);
    assert_eq!(
        world
            .app
            .service
            .scheduler()
            .run_due()
            .await
            .unwrap()
            .reminders,
        1,
        "and again"
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_player_with_closed_direct_messages_is_given_up_on_at_once_and_the_game_goes_on() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    world
        .slash(&bob, channel, "notify", &[Opt::string("dm", "on")])
        .await;
    world.fake.close_dms(&bob);
    let game = start(&world, channel, &alice, &bob, "3d").await;
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.wait_for_outbox_drained().await;
    let refused: Vec<Recorded> = world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| r.error_code == Some(50007))
        .collect();
    assert_eq!(refused.len(), 1, "one try: closed DMs stay closed");
    assert_eq!(world.http_move(&bob, game, "c4-c2", 1).await, 200);
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
