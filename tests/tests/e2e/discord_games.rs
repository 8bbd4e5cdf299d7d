//! Whole games through the fake Discord: challenge, accept, moves to a win; refusals; the
//! board after every move.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::World;

/// A brandubh game the attackers win by capturing the king on the fifth move.
const KING_CAPTURE: [&str; 5] = ["d1-b1", "c4-c2", "b4-b5", "d4-b4", "b1-b3"];

async fn play(world: &World, who: &FakeUser, channel: u64, mv: &str) -> Recorded {
    let sent = world
        .fake
        .slash(who, channel, "move", &[Opt::string("move", mv)])
        .unwrap();
    world.reply(&sent).await
}

/// `challenger` challenges `opponent` to brandubh as attackers; `opponent` accepts.
async fn start_brandubh(
    world: &World,
    channel: u64,
    challenger: &FakeUser,
    opponent: &FakeUser,
) -> Recorded {
    let sent = world
        .fake
        .slash(
            challenger,
            channel,
            "challenge",
            &[
                Opt::user("opponent", opponent),
                Opt::string("variant", "brandubh"),
                Opt::string("side", "attackers"),
                Opt::string("clock", "3d"),
            ],
        )
        .unwrap();
    let challenge = world.reply(&sent).await;
    assert!(
        !challenge.is_ephemeral(),
        "a challenge is public: {}",
        challenge.text()
    );
    assert!(
        challenge.content().contains(&opponent.mention()),
        "the challenge mentions the opponent: {}",
        challenge.content()
    );
    let buttons = challenge.button_ids();
    assert_eq!(buttons.len(), 3, "Accept, Decline and Cancel: {buttons:?}");
    let accept = buttons
        .iter()
        .find(|b| b.starts_with("challenge:accept:"))
        .expect("an Accept button")
        .clone();
    let message = challenge.message.clone().expect("the challenge message");
    let click = world.fake.click(opponent, &message, &accept).unwrap();
    let accepted = world.reply(&click).await;
    assert_eq!(
        accepted.callback_type(),
        Some(7),
        "accepting updates the challenge message"
    );
    assert!(accepted.text().contains("accepted"), "{}", accepted.text());
    assert!(
        !accepted
            .button_ids()
            .iter()
            .any(|id| id.starts_with("challenge:")),
        "the challenge's buttons are gone once accepted: {:?}",
        accepted.button_ids()
    );
    accepted
}

#[tokio::test]
async fn a_challenge_is_accepted_and_played_to_a_win_with_a_board_after_every_move() {
    let world = World::start().await;
    let (alice, bob, carol) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carol"),
    );
    let channel = world.fake.channel();

    // Only the challenged player may answer.
    let sent = world
        .fake
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &bob),
                Opt::string("variant", "brandubh"),
                Opt::string("side", "attackers"),
            ],
        )
        .unwrap();
    let challenge = world.reply(&sent).await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let intruder = world
        .fake
        .click(&carol, challenge.message.as_ref().unwrap(), &accept)
        .unwrap();
    let refused = world.reply(&intruder).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains(&format!("Only {}", bob.mention())),
        "{}",
        refused.text()
    );
    let decline = challenge
        .button_starting_with("challenge:decline:")
        .unwrap();
    let declined = world
        .reply(
            &world
                .fake
                .click(&bob, challenge.message.as_ref().unwrap(), &decline)
                .unwrap(),
        )
        .await;
    assert!(declined.text().contains("declined"), "{}", declined.text());

    let accepted = start_brandubh(&world, channel, &alice, &bob).await;
    assert!(
        accepted.text().contains(&alice.mention()),
        "alice (attackers) moves first: {}",
        accepted.text()
    );

    let mut last = None;
    for (i, mv) in KING_CAPTURE.iter().enumerate() {
        let (mover, waiting) = if i % 2 == 0 {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        if i == 1 {
            // Not your turn: private, and the game does not move.
            let early = play(&world, &alice, channel, "a4-a3").await;
            assert!(early.is_ephemeral(), "{}", early.text());
            assert!(
                early.text().to_lowercase().contains("not your turn"),
                "{}",
                early.text()
            );
            // An illegal move by the player to move: private, names the problem.
            let illegal = play(&world, &bob, channel, "c4-c9").await;
            assert!(illegal.is_ephemeral(), "{}", illegal.text());
            assert!(
                illegal.text().to_lowercase().contains("c9"),
                "names the bad square: {}",
                illegal.text()
            );
        }
        let posted = play(&world, mover, channel, mv).await;
        assert_eq!(
            posted.callback_type(),
            Some(4),
            "a move is answered at once: {}",
            posted.text()
        );
        assert!(!posted.is_ephemeral());
        assert!(
            posted.text().contains(mv),
            "the post names the move {mv}: {}",
            posted.text()
        );
        assert_eq!(
            posted.png_attachments().count(),
            1,
            "the board PNG comes with move {mv}"
        );
        if i + 1 < KING_CAPTURE.len() {
            assert!(
                posted.text().contains(&format!("{} (", waiting.mention())),
                "whose turn, with a mention: {}",
                posted.text()
            );
        }
        last = Some(posted);
    }
    let last = last.unwrap();
    assert!(last.text().contains("Game over"), "{}", last.text());
    assert!(last.text().contains("Attackers"), "{}", last.text());
    assert!(last.text().contains("king was captured"), "{}", last.text());

    // The game is over: no game here any more.
    let after = play(&world, &bob, channel, "a4-a3").await;
    assert!(after.is_ephemeral());
    assert!(
        after.text().contains("no game in this channel"),
        "{}",
        after.text()
    );

    world.assert_clean();
    world.stop().await;
}

/// Brandubh: the attackers capture on a3, then the king reaches d1 with one open road (raichi).
const CAPTURE_THEN_RAICHI: [&str; 4] = ["d1-b1", "d3-a3", "d2-a2", "d4-d1"];

#[tokio::test]
async fn captures_and_escape_warnings_are_in_the_move_posts() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    start_brandubh(&world, channel, &alice, &bob).await;
    let mut posts = Vec::new();
    for (i, mv) in CAPTURE_THEN_RAICHI.iter().enumerate() {
        let mover = if i % 2 == 0 { &alice } else { &bob };
        posts.push(play(&world, mover, channel, mv).await);
    }
    let capture = &posts[2];
    assert!(
        capture.text().contains("d2-a2xa3"),
        "canonical notation with the capture: {}",
        capture.text()
    );
    assert!(
        capture.text().contains("Captured: a3"),
        "{}",
        capture.text()
    );
    let raichi = &posts[3];
    assert!(raichi.text().contains("Raichi!"), "{}", raichi.text());
    assert!(
        !posts[1].text().contains("Raichi!"),
        "no warning without an open road: {}",
        posts[1].text()
    );
    world.assert_clean();
    world.stop().await;
}
