//! The rest of a game's life through the fake Discord: board, history, games list, draws,
//! resignation, deadline reminders, timeouts and expired challenges.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded, RouteKind};
use taflbot_e2e::world::{WAIT, World};

const HOUR_MS: i64 = 3_600_000;

/// `alice` (attackers) and `bob` start a brandubh game with `clock` in `channel`; returns the
/// accept reply.
pub(crate) async fn start(
    world: &World,
    channel: u64,
    alice: &FakeUser,
    bob: &FakeUser,
    clock: &str,
) -> Recorded {
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
    world.fake.reply_to(&click, WAIT).await.unwrap()
}

async fn channel_post(
    world: &World,
    from: usize,
    channel: u64,
    what: &str,
    needle: &str,
) -> Recorded {
    let needle = needle.to_owned();
    world
        .fake
        .recorder()
        .wait_for_after(from, what, WAIT, move |r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
                && r.text().contains(&needle)
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn board_history_games_draws_and_resignation() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    start(&world, channel, &alice, &bob, "unlimited").await;
    world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;

    let board = world.slash(&bob, channel, "board", &[]).await;
    assert!(!board.is_ephemeral());
    assert_eq!(board.png_attachments().count(), 1, "the board image");
    assert!(
        board
            .text()
            .contains(&format!("{} (defenders) to move", bob.mention())),
        "{}",
        board.text()
    );

    let history = world.slash(&bob, channel, "record", &[]).await;
    assert!(history.text().contains("1. d1-b1"), "{}", history.text());
    let game_id: i64 = history
        .text()
        .split("Game #")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    let attached = history
        .attachments
        .iter()
        .find(|a| a.filename.ends_with(".otg"));
    match world
        .app
        .service
        .games()
        .export_otg(taflbot::domain::GameId(game_id))
        .await
    {
        // The record the service writes is the file attached.
        Ok(record) => assert_eq!(
            attached.expect("the .otg record").bytes,
            record.into_bytes()
        ),
        // Without a record writer, the reply says so instead of failing.
        Err(e) => {
            assert!(attached.is_none());
            assert!(
                history.text().contains("not available"),
                "{e}: {}",
                history.text()
            );
        }
    }

    let games = world.slash(&bob, channel, "games", &[]).await;
    assert!(games.is_ephemeral());
    assert!(games.text().contains("**your turn**"), "{}", games.text());
    assert!(
        games.text().contains(&format!("<#{channel}>")),
        "says where: {}",
        games.text()
    );

    let offer = world
        .slash(&bob, channel, "draw", &[Opt::sub("offer", vec![])])
        .await;
    assert!(offer.text().contains("offers a draw"), "{}", offer.text());
    let declined = world
        .slash(&alice, channel, "draw", &[Opt::sub("decline", vec![])])
        .await;
    assert!(declined.text().contains("declined"), "{}", declined.text());
    // Nothing to accept any more: a private refusal.
    let nothing = world
        .slash(&alice, channel, "draw", &[Opt::sub("accept", vec![])])
        .await;
    assert!(nothing.is_ephemeral(), "{}", nothing.text());

    let resigned = world.slash(&bob, channel, "resign", &[]).await;
    assert!(resigned.text().contains("Game over"), "{}", resigned.text());
    assert!(
        resigned.text().contains("resignation"),
        "{}",
        resigned.text()
    );
    assert!(
        resigned
            .text()
            .contains(&format!("Attackers ({})", alice.mention())),
        "{}",
        resigned.text()
    );

    let rules = world
        .slash(
            &alice,
            channel,
            "rules",
            &[Opt::string("variant", "brandubh")],
        )
        .await;
    assert!(rules.text().contains("Brandubh"), "{}", rules.text());
    assert_eq!(rules.png_attachments().count(), 1, "the start position");

    // A resignation elsewhere (over HTTP) is not announced twice: the command showed it.
    let mark = world.fake.recorder().mark();
    // Once the outbox is empty, no post can come any more.
    world.wait_for_outbox_drained().await;
    assert!(
        world.fake.recorder().all().iter().skip(mark).all(|r| r.kind
            != RouteKind::ChannelMessage {
                channel_id: channel
            }),
        "no duplicate announcement:\n{}",
        world.fake.recorder().dump()
    );

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn reminders_and_timeouts_are_announced_in_the_channel() {
    let world = World::start_with(|c| c.games.reminders_before_secs = vec![2 * 3600]).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    start(&world, channel, &alice, &bob, "1d").await;
    world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;

    let mark = world.fake.recorder().mark();
    world.clock.advance_ms(23 * HOUR_MS);
    world.app.service.scheduler().run_due().await.unwrap();
    let reminder = channel_post(
        &world,
        mark,
        channel,
        "a deadline reminder",
        "it is your move",
    )
    .await;
    assert!(
        reminder.text().contains(&bob.mention()),
        "{}",
        reminder.text()
    );

    // Bob never made his first move: the game is aborted, nobody wins.
    world.clock.advance_ms(2 * HOUR_MS);
    world.app.service.scheduler().run_due().await.unwrap();
    let ended = channel_post(&world, mark, channel, "the abort", "aborted").await;
    assert!(
        ended
            .text()
            .contains("did not make their first move in time"),
        "{}",
        ended.text()
    );
    assert!(!ended.text().contains("win"), "{}", ended.text());

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn an_expired_challenge_is_announced_and_its_button_refused() {
    let world = World::start_with(|c| c.games.challenge_expiry_secs = 3600).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let challenge = world
        .slash(&alice, channel, "challenge", &[Opt::user("opponent", &bob)])
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();

    let mark = world.fake.recorder().mark();
    world.clock.advance_ms(2 * HOUR_MS);
    world.app.service.scheduler().run_due().await.unwrap();
    let expired = channel_post(&world, mark, channel, "the expiry", "expired").await;
    assert!(
        expired.text().contains(&alice.mention()),
        "{}",
        expired.text()
    );

    let click = world
        .fake
        .click(&bob, challenge.message.as_ref().unwrap(), &accept)
        .unwrap();
    let refused = world.fake.reply_to(&click, WAIT).await.unwrap();
    assert!(refused.is_ephemeral(), "{}", refused.text());

    world.assert_clean();
    world.stop().await;
}
