//! `/conditional` through the fake Discord: a player waiting for their opponent queues a line
//! ("if they play X, I play Y"), privately (the opponent never sees it nor that the command was
//! used); the opponent's move is answered at once, in the channel, as any move is; an illegal
//! line is refused privately, naming the line and the move; list, remove and clear answer
//! privately too.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::GameId;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::World;

/// `/conditional <sub>` by `who` in `channel`.
async fn conditional(
    world: &World,
    who: &FakeUser,
    channel: u64,
    sub: &str,
    options: Vec<Opt>,
) -> Recorded {
    world
        .slash(who, channel, "conditional", &[Opt::sub(sub, options)])
        .await
}

#[tokio::test]
async fn a_queued_line_is_private_and_answers_the_opponents_move_at_once() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("tafl");
    // Alice attacks and moves; Bob is to move.
    let game = world.brandubh_game(channel, &alice, &bob).await;
    assert_eq!(world.http_move(&alice, game, "d1-b1", 0).await, 200);
    world.wait_for_outbox_drained().await;

    // Queueing on her own move is refused: Bob's turn first, then it is hers.
    let refused = conditional(
        &world,
        &bob,
        channel,
        "add",
        vec![Opt::string("line", "a4-a2 e4-e2")],
    )
    .await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().to_lowercase().contains("it is your move"),
        "{}",
        refused.text()
    );

    // An illegal line: refused privately, naming the line and the move.
    let illegal = conditional(
        &world,
        &alice,
        channel,
        "add",
        vec![Opt::string("line", "c4-c2 a4-a1")],
    )
    .await;
    assert!(illegal.is_ephemeral());
    assert!(
        illegal.text().to_lowercase().contains("line 1, move 2"),
        "{}",
        illegal.text()
    );

    let mark = world.fake.recorder().mark();
    let queued = conditional(
        &world,
        &alice,
        channel,
        "add",
        vec![Opt::string("line", "c4-c2 a4-a2, c2-c1 d2-c2")],
    )
    .await;
    assert!(queued.is_ephemeral(), "only Alice sees her lines");
    let text = queued.text();
    assert!(
        text.contains("1. if `c4-c2`, then `a4-a2`; if `c2-c1`, then `d2-c2`"),
        "{text}"
    );
    let second = conditional(
        &world,
        &alice,
        channel,
        "add",
        vec![Opt::string("line", "e4-e2 g4-g2")],
    )
    .await;
    assert!(second.text().contains("2. if `e4-e2`"), "{}", second.text());
    let listed = conditional(&world, &alice, channel, "list", vec![]).await;
    assert!(listed.is_ephemeral());
    assert!(listed.text().contains("1. if `c4-c2`"), "{}", listed.text());
    assert!(listed.text().contains("2. if `e4-e2`"), "{}", listed.text());
    let removed = conditional(
        &world,
        &alice,
        channel,
        "remove",
        vec![Opt::integer("number", 2)],
    )
    .await;
    assert!(!removed.text().contains("e4-e2"), "{}", removed.text());
    // Bob sees nothing of them: no post in the channel, none of her lines in his list.
    world.wait_for_outbox_drained().await;
    assert!(
        world.channel_posts_after(mark, channel).is_empty(),
        "queueing posts nothing in the channel"
    );
    let bobs = world
        .app
        .service
        .games()
        .conditional_moves(
            taflbot::domain::PlayerId(world.player_of(&bob).await),
            GameId(game),
        )
        .await
        .unwrap();
    assert!(bobs.lines.is_empty());

    // Bob plays the line's move: Alice's answer is played at once, posted in the channel.
    let mark = world.fake.recorder().mark();
    let moved = world
        .slash(&bob, channel, "move", &[Opt::string("move", "c4-c2")])
        .await;
    assert!(moved.text().contains("c4-c2"), "{}", moved.text());
    world.accepted_post_containing(mark, channel, "a4-a2").await;
    let view = world
        .app
        .service
        .games()
        .game(None, GameId(game))
        .await
        .unwrap();
    assert_eq!(view.ply, 3, "Alice's answer is played in the same commit");
    // The rest of her line waits for Bob's next move; clearing drops it.
    let left = conditional(&world, &alice, channel, "list", vec![]).await;
    assert!(
        left.text().contains("if `c2-c1`, then `d2-c2`"),
        "{}",
        left.text()
    );
    let cleared = conditional(&world, &alice, channel, "clear", vec![]).await;
    assert!(cleared.is_ephemeral());
    assert!(
        cleared.text().contains("no lines queued"),
        "{}",
        cleared.text()
    );
    world.wait_for_outbox_drained().await;
    world.assert_clean();
    world.stop().await;
}
