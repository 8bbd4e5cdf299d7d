//! Every interaction answered in time (issue 31, item 3): a command or a click whose work
//! outlasts the answer budget is acknowledged with a deferral within a second of the event, and
//! its answer then edits or follows the deferral; an error after a public deferral is shown
//! privately, and the public placeholder goes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;
use tafl_engine::{Game, Move};
use taflbot::service::MovePicker;
use taflbot_e2e::fake_discord::{
    CommandOption as Opt, Fault, Hold, Recorded, RouteKind, RouteMatch, SentInteraction,
};
use taflbot_e2e::world::{WAIT, World, game_id_in};

/// What the brief promises: the first answer reaches Discord within a second of the event.
const FIRST_ANSWER: Duration = Duration::from_secs(1);
/// A step slow enough that an answer waiting for it would miss that second.
const SLOW_STEP: Duration = Duration::from_millis(1_500);

/// The app with the production budget (the suite's default is longer).
async fn start() -> World {
    World::start_with(|config| config.discord.defer_after_ms = 500).await
}

/// The fake refuses (and reports) any first answer later than [`FIRST_ANSWER`].
fn hold_the_bot_to_one_second(world: &World) {
    world
        .fake
        .set_interaction_limits(FIRST_ANSWER, Duration::from_secs(15 * 60));
}

/// The first answer to `sent` (a deferral counts), checked to be within [`FIRST_ANSWER`].
async fn first_answer_in_time(world: &World, sent: &SentInteraction) -> Recorded {
    let first = world
        .fake
        .acknowledgement_of(sent, WAIT)
        .await
        .expect("the interaction is acknowledged");
    let waited = first.at.duration_since(sent.sent_at);
    assert!(
        waited < FIRST_ANSWER,
        "first answer after {waited:?}: {first:?}"
    );
    first
}

#[tokio::test]
async fn a_slow_accept_is_deferred_within_a_second_and_its_answer_edits_the_challenge() {
    let world = start().await;
    hold_the_bot_to_one_second(&world);
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(channel);
    let challenge = world
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &bob),
                Opt::string("variant", "brandubh"),
            ],
        )
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let message = challenge.message.clone().unwrap();
    // Creating the game's thread takes 1.5 s: the click must not wait for it to answer.
    world
        .fake
        .hold_channel(channel, Some(Hold::Late(SLOW_STEP)));
    let click = world.fake.click(&bob, &message, &accept).unwrap();
    let first = first_answer_in_time(&world, &click).await;
    assert_eq!(
        first.callback_type(),
        Some(6),
        "a deferred update: {first:?}"
    );
    // The answer, once the thread exists, edits the clicked challenge into the thread's link.
    let answer = world.reply(&click).await;
    assert!(
        matches!(&answer.kind, RouteKind::EditResponse { message, .. } if message == "@original"),
        "{answer:?}"
    );
    let thread = world.fake.threads_of(channel)[0].id;
    assert!(
        answer.text().contains(&format!("<#{thread}>")),
        "{}",
        answer.text()
    );
    let id: u64 = message["id"].as_str().unwrap().parse().unwrap();
    let edited = world.fake.message(id).unwrap();
    assert!(
        edited["content"].as_str().unwrap().contains("accepted"),
        "the challenge message itself shows the acceptance: {edited}"
    );
    world.fake.hold_channel(channel, None);
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_quick_command_is_answered_directly_without_a_deferral() {
    let world = start().await;
    hold_the_bot_to_one_second(&world);
    let alice = world.fake.new_user("alice");
    let sent = world
        .fake
        .slash(
            &alice,
            world.fake.channel(),
            "rules",
            &[Opt::string("variant", "brandubh")],
        )
        .unwrap();
    let first = first_answer_in_time(&world, &sent).await;
    assert_eq!(
        first.callback_type(),
        Some(4),
        "answered at once: {first:?}"
    );
    world.stop().await;
}

#[tokio::test]
async fn an_error_after_a_public_deferral_is_shown_privately_and_the_placeholder_goes() {
    let world = start().await;
    hold_the_bot_to_one_second(&world);
    let alice = world.fake.new_user("alice");
    let bob = world.fake.new_user("bob");
    // A game of theirs, brought to another channel with /follow, into a thread of its own.
    let game = world
        .brandubh_game(world.fake.channel(), &alice, &bob)
        .await;
    world.wait_for_outbox_drained().await;
    let channel = world.fake.new_channel("elsewhere");
    world.fake.allow_threads(channel);
    world
        .fake
        .hold_channel(channel, Some(Hold::Late(SLOW_STEP)));
    // The board the bot posts in the new thread is refused: the command fails after its
    // public deferral ("taflbot is thinking…" shown to everyone).
    world
        .fake
        .fail_next(RouteMatch::ChannelMessages, &[Fault::Forbidden]);
    let sent = world
        .fake
        .slash(&alice, channel, "follow", &[Opt::integer("game", game)])
        .unwrap();
    let first = first_answer_in_time(&world, &sent).await;
    assert_eq!(first.callback_type(), Some(5), "{first:?}");
    assert!(!first.is_ephemeral(), "a public command defers publicly");
    let error = world
        .fake
        .recorder()
        .wait_for("the error, followed up", WAIT, |r| {
            r.accepted()
                && r.answers(&sent.token)
                && r.kind
                    == RouteKind::Followup {
                        token: sent.token.clone(),
                    }
        })
        .await
        .unwrap();
    assert!(error.text().contains("went wrong"), "{}", error.text());
    let shown = error.message.clone().unwrap();
    assert_eq!(
        shown["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "the error is shown only to alice: {shown}"
    );
    // The public placeholder was settled, then deleted: nothing public is left.
    world
        .fake
        .recorder()
        .wait_for("the placeholder deleted", WAIT, |r| {
            r.accepted() && r.answers(&sent.token) && r.method == "DELETE"
        })
        .await
        .unwrap();
    let public: Vec<Value> = world
        .fake
        .channel_messages(channel)
        .into_iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .collect();
    assert!(public.is_empty(), "public messages left: {public:?}");
    world.fake.hold_channel(channel, None);
    world.stop().await;
}

/// An AI that, once told to stall, thinks for [`SLOW_STEP`] and then finds nothing (as a
/// search that fails would); until then, the first legal move.
#[derive(Default)]
struct StallingAi {
    stalling: AtomicBool,
}

impl MovePicker for StallingAi {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        if self.stalling.load(Ordering::SeqCst) {
            std::thread::sleep(SLOW_STEP);
            return None;
        }
        game.legal_moves().first().copied()
    }
}

#[tokio::test]
async fn a_private_command_that_fails_after_its_deferral_answers_privately() {
    let ai = Arc::new(StallingAi::default());
    let world = World::start_with_ai(
        |config| config.discord.defer_after_ms = 500,
        Arc::clone(&ai) as Arc<dyn MovePicker>,
    )
    .await;
    hold_the_bot_to_one_second(&world);
    let alice = world.fake.new_user("alice");
    let channel = world.fake.channel();
    let start = world
        .slash(
            &alice,
            channel,
            "play",
            &[
                Opt::string("variant", "brandubh"),
                Opt::string("side", "attackers"),
            ],
        )
        .await;
    let game = game_id_in(&start.text());
    world.wait_for_outbox_drained().await;
    // /hint answers privately; the engine now takes 1.5 s and then fails.
    ai.stalling.store(true, Ordering::SeqCst);
    let sent = world
        .fake
        .slash(&alice, channel, "hint", &[Opt::integer("game", game)])
        .unwrap();
    let first = first_answer_in_time(&world, &sent).await;
    assert_eq!(first.callback_type(), Some(5), "{first:?}");
    assert!(first.is_ephemeral(), "a private command defers privately");
    let error = world.reply(&sent).await;
    assert!(error.is_ephemeral(), "{error:?}");
    assert!(!error.text().is_empty());
    assert!(
        world.fake.channel_messages(channel).iter().all(|m| {
            m["content"] != error.text().as_str() || m["flags"].as_u64().unwrap_or(0) & 64 != 0
        }),
        "the error is shown to alice alone"
    );
    world.stop().await;
}

/// A member who asks for strong AI games as fast as Discord lets them (level 5, the AI to move
/// first, so the engine thinks at once) takes only their own share: the engine's strong
/// searches are bounded, their later requests are refused privately for a moment, and other
/// members' commands and clicks are still answered within a second.
#[tokio::test]
async fn a_member_spamming_strong_ai_games_slows_nobody_else() {
    // The production budget and cooldown (the suite turns the cooldown off).
    let world = World::start_with_ai(
        |config| {
            config.discord.defer_after_ms = 500;
            config.games.ai_game_cooldown_secs = 2;
        },
        Arc::new(taflbot::ai_picker::EngineAi),
    )
    .await;
    hold_the_bot_to_one_second(&world);
    let (mallory, alice, bob) = (
        world.fake.new_user("mallory"),
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
    );
    let channel = world.fake.new_channel("tafl-games");
    let strong = [
        Opt::string("variant", "copenhagen"),
        Opt::integer("level", 5),
        Opt::string("side", "defenders"),
    ];
    let mut spam = Vec::new();
    for _ in 0..8 {
        spam.push(
            world
                .fake
                .slash(&mallory, channel, "play", &strong)
                .unwrap(),
        );
    }
    // Mallory's own first answers are in time too, and at least one game began: the engine
    // is thinking about a level-5 move.
    let mut began = 0;
    for sent in &spam {
        first_answer_in_time(&world, sent).await;
        if world.reply(sent).await.text().contains("begins") {
            began += 1;
        }
    }
    assert!(began >= 1, "at least one strong game started");
    assert!(
        began < spam.len(),
        "the requests after the first wait their turn"
    );

    // Meanwhile the others play as usual.
    let help = world.fake.slash(&alice, channel, "help", &[]).unwrap();
    first_answer_in_time(&world, &help).await;
    let challenge = world
        .fake
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &bob),
                Opt::string("variant", "brandubh"),
            ],
        )
        .unwrap();
    first_answer_in_time(&world, &challenge).await;
    let posted = world.reply(&challenge).await;
    let accept = posted.button_starting_with("challenge:accept:").unwrap();
    let message = posted.message.clone().unwrap();
    let click = world.fake.click(&bob, &message, &accept).unwrap();
    first_answer_in_time(&world, &click).await;
    world.stop().await;
}
