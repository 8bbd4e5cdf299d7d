//! Challenges in Discord through the fake: `/challenges` and its buttons, open challenges,
//! rematches, and expired challenges losing their buttons.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::Value;
use taflbot::domain::{ChallengeId, ChallengeStatus, GameId};
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded, RouteKind};
use taflbot_e2e::world::{WAIT, World, game_id_in};

const HOUR_MS: i64 = 3_600_000;

async fn click(world: &World, who: &FakeUser, message: &Value, custom_id: &str) -> Recorded {
    let sent = world.fake.click(who, message, custom_id).unwrap();
    world.reply(&sent).await
}

/// The number after `prefix` in the first button id that starts with it.
fn id_after(recorded: &Recorded, prefix: &str) -> i64 {
    recorded
        .button_starting_with(prefix)
        .unwrap_or_else(|| panic!("no {prefix} button: {:?}", recorded.button_ids()))
        .trim_start_matches(prefix)
        .parse()
        .unwrap()
}

fn message_id(recorded: &Recorded) -> u64 {
    recorded.message.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Waits for the bot's edit of message `id` (a channel route), after `mark`.
async fn edit_of(world: &World, mark: usize, id: u64, what: &str) -> Recorded {
    world
        .fake
        .recorder()
        .wait_for_after(mark, what, WAIT, move |r| {
            r.accepted() && matches!(r.kind, RouteKind::ChannelMessageEdit { message_id, .. } if message_id == id)
        })
        .await
        .unwrap()
}

/// Waits until the bot has remembered which message shows challenge `id` (it reads its reply
/// back after sending it); fails loudly after [`WAIT`].
async fn message_remembered(world: &World, id: i64) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while world
        .app
        .service
        .discord()
        .challenge_post(ChallengeId(id))
        .await
        .unwrap()
        .is_none()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "challenge {id}'s message was never remembered\nrecorded:\n{}",
            world.fake.recorder().dump()
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

async fn status(world: &World, id: i64) -> ChallengeStatus {
    world
        .app
        .service
        .challenges()
        .get(ChallengeId(id))
        .await
        .unwrap()
        .status
}

#[tokio::test]
async fn challenges_lists_received_and_sent_and_its_buttons_answer_them() {
    let world = World::start().await;
    let (alice, bob, carol) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carol"),
    );
    let channel = world.fake.channel();
    let to_bob = world
        .slash(&alice, channel, "challenge", &[Opt::user("opponent", &bob)])
        .await;
    let sent = id_after(&to_bob, "challenge:accept:");
    let from_carol = world
        .slash(
            &carol,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &alice),
                Opt::string("variant", "brandubh"),
            ],
        )
        .await;
    let received = id_after(&from_carol, "challenge:accept:");

    let list = world.slash(&alice, channel, "challenges", &[]).await;
    assert!(list.is_ephemeral());
    let text = list.text();
    assert!(text.contains("**Received**"), "{text}");
    assert!(
        text.contains(&format!("#{received} from {}", carol.mention())),
        "{text}"
    );
    assert!(
        text.contains(&format!("#{sent} to {}", bob.mention())),
        "{text}"
    );
    assert_eq!(
        list.button_ids(),
        vec![
            format!("challenge:accept:{received}"),
            format!("challenge:decline:{received}"),
            format!("challenge:cancel:{sent}"),
        ]
    );
    let listed = list.message.clone().unwrap();
    message_remembered(&world, sent).await;

    // Cancel from the list: withdrawn, and the public message loses its buttons.
    let mark = world.fake.recorder().mark();
    let cancelled = click(&world, &alice, &listed, &format!("challenge:cancel:{sent}")).await;
    assert!(cancelled.is_ephemeral(), "{}", cancelled.text());
    assert_eq!(status(&world, sent).await, ChallengeStatus::Cancelled);
    let edit = edit_of(
        &world,
        mark,
        message_id(&to_bob),
        "the withdrawn challenge's edit",
    )
    .await;
    assert!(edit.button_ids().is_empty());

    // Accept from the list: the game starts in the challenge's channel, posted there.
    let mark = world.fake.recorder().mark();
    let accepted = click(
        &world,
        &alice,
        &listed,
        &format!("challenge:accept:{received}"),
    )
    .await;
    assert!(accepted.is_ephemeral(), "{}", accepted.text());
    assert!(
        accepted.text().contains(&format!("<#{channel}>")),
        "{}",
        accepted.text()
    );
    let game = game_id_in(&accepted.text().replace("game #", "Game #"));
    let start = world
        .accepted_post_after(mark, channel, "the start post")
        .await;
    assert!(start.text().contains("begins"), "{}", start.text());
    assert!(
        start.button_ids().contains(&format!("game:pick:{game}")),
        "{:?}",
        start.button_ids()
    );
    assert_eq!(status(&world, received).await, ChallengeStatus::Accepted);

    let empty = world.slash(&alice, channel, "challenges", &[]).await;
    assert!(
        empty.text().contains("no pending challenges"),
        "{}",
        empty.text()
    );
    assert!(empty.button_ids().is_empty());

    world.stop().await;
}

#[tokio::test]
async fn an_open_challenge_pings_nobody_and_anyone_else_here_may_accept_it() {
    let world = World::start().await;
    let (alice, carol) = (world.fake.new_user("alice"), world.fake.new_user("carol"));
    let channel = world.fake.channel();
    let open = world
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::string("variant", "brandubh"),
                Opt::string("side", "defenders"),
            ],
        )
        .await;
    assert!(open.text().contains("Anyone here"), "{}", open.text());
    let allowed = &open.message_payload().unwrap()["allowed_mentions"];
    assert_eq!(allowed["users"], serde_json::json!([]), "pings nobody");
    let id = id_after(&open, "challenge:accept:");
    assert_eq!(
        open.button_ids(),
        vec![
            format!("challenge:accept:{id}"),
            format!("challenge:cancel:{id}")
        ],
        "nobody declines an open challenge for everyone"
    );
    let message = open.message.clone().unwrap();

    let own = click(&world, &alice, &message, &format!("challenge:accept:{id}")).await;
    assert!(own.is_ephemeral(), "{}", own.text());

    let accepted = click(&world, &carol, &message, &format!("challenge:accept:{id}")).await;
    assert_eq!(accepted.callback_type(), Some(7));
    let game = world
        .app
        .service
        .games()
        .game(None, GameId(game_id_in(&accepted.text())))
        .await
        .unwrap();
    assert_eq!(game.defenders.discord_user_id, Some(alice.id));
    assert_eq!(game.attackers.discord_user_id, Some(carol.id));

    world.stop().await;
}

#[tokio::test]
async fn rematch_swaps_the_sides_and_the_other_player_accepts_it() {
    let world = World::start().await;
    let (alice, bob, carol) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carol"),
    );
    let channel = world.fake.channel();
    let first = world.brandubh_game(channel, &alice, &bob).await;
    let before = world
        .app
        .service
        .games()
        .game(None, GameId(first))
        .await
        .unwrap();
    let resigned = world.slash(&alice, channel, "resign", &[]).await;
    let rematch = format!("game:rematch:{first}");
    assert_eq!(resigned.button_ids(), vec![rematch.clone()]);
    let end = resigned.message.clone().unwrap();

    let stranger = click(&world, &carol, &end, &rematch).await;
    assert!(stranger.is_ephemeral(), "{}", stranger.text());

    let asked = click(&world, &bob, &end, &rematch).await;
    assert!(!asked.is_ephemeral());
    assert!(asked.text().starts_with("Rematch!"), "{}", asked.text());
    let allowed = &asked.message_payload().unwrap()["allowed_mentions"];
    assert_eq!(allowed["users"], serde_json::json!([alice.id.to_string()]));
    let accept = asked.button_starting_with("challenge:accept:").unwrap();
    let started = click(&world, &alice, asked.message.as_ref().unwrap(), &accept).await;
    let second = world
        .app
        .service
        .games()
        .game(None, GameId(game_id_in(&started.text())))
        .await
        .unwrap();
    assert_ne!(second.id, before.id);
    assert_eq!(
        second.attackers.discord_user_id,
        Some(bob.id),
        "sides swapped"
    );
    assert_eq!(second.defenders.discord_user_id, Some(alice.id));
    assert_eq!(
        (
            second.variant.clone(),
            second.clock,
            second.rated,
            second.private
        ),
        (
            before.variant.clone(),
            before.clock,
            before.rated,
            before.private
        )
    );
    assert_eq!(second.context, before.context);

    world.stop().await;
}

#[tokio::test]
async fn an_expired_challenge_loses_its_buttons_and_a_late_press_says_it_expired() {
    let world = World::start_with(|c| c.games.challenge_expiry_secs = 3600).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let challenge = world
        .slash(&alice, channel, "challenge", &[Opt::user("opponent", &bob)])
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let id = message_id(&challenge);
    message_remembered(&world, id_after(&challenge, "challenge:accept:")).await;

    let mark = world.fake.recorder().mark();
    world.clock.advance_ms(2 * HOUR_MS);
    world.app.service.scheduler().run_due().await.unwrap();
    let edit = edit_of(&world, mark, id, "the expired challenge's edit").await;
    assert!(edit.button_ids().is_empty());
    assert!(
        edit.content().contains("**Expired.**"),
        "{}",
        edit.content()
    );
    let stored = world.fake.message(id).unwrap();
    assert_eq!(stored["components"], serde_json::json!([]));
    world.wait_for_outbox_drained().await;

    let late = click(&world, &bob, challenge.message.as_ref().unwrap(), &accept).await;
    assert!(late.is_ephemeral());
    assert!(late.text().contains("expired"), "{}", late.text());

    world.stop().await;
}

#[tokio::test]
async fn a_rematch_against_the_ai_starts_at_once_with_the_sides_swapped() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("ai");
    let sent = world
        .fake
        .slash(
            &alice,
            channel,
            "play",
            &[
                Opt::string("variant", "brandubh"),
                Opt::integer("level", 1),
                Opt::string("side", "attackers"),
            ],
        )
        .unwrap();
    let start = world.reply(&sent).await;
    let first = game_id_in(&start.text());
    let resigned = world.slash(&alice, channel, "resign", &[]).await;
    let end = resigned.message.clone().unwrap();

    let sent = world
        .fake
        .click(&alice, &end, &format!("game:rematch:{first}"))
        .unwrap();
    let again = world.reply(&sent).await;
    assert_eq!(again.callback_type(), Some(4));
    assert!(again.text().contains("begins"), "{}", again.text());
    assert_eq!(again.png_attachments().count(), 1);
    let second = world
        .app
        .service
        .games()
        .game(None, GameId(game_id_in(&again.text())))
        .await
        .unwrap();
    assert_eq!(
        second.defenders.discord_user_id,
        Some(alice.id),
        "sides swapped"
    );
    assert_eq!(second.attackers.ai_level, Some(1));
    assert!(!second.rated);
    // The AI (attackers) moves first: its move follows up the click, where alice looks.
    let token = sent.token.clone();
    let ai = world
        .fake
        .recorder()
        .wait_for("the AI's first move as a follow-up", WAIT, move |r| {
            r.answers(&token) && matches!(r.kind, RouteKind::Followup { .. })
        })
        .await
        .unwrap();
    assert!(
        ai.text().contains("taflbot (AI level 1) played"),
        "{}",
        ai.text()
    );

    world.stop().await;
}
