//! The Discord front end as a real server sees it: nobody is pinged who is not meant to be,
//! names are shown literally, posts survive restarts, long listings fit Discord's limits.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::sync::Arc;

use serde_json::{Value, json};
use taflbot::domain::{ChallengeId, PlayerId};
use taflbot::service::{ClockSpec, NewChallenge, Opponent, RulesChoice, SideChoice};
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded, RouteKind};
use taflbot_e2e::world::{SwitchableAi, WAIT, World};

/// The `allowed_mentions` a bot message was sent with (inside an interaction callback's
/// `data`, or at the top of a message or follow-up).
fn allowed_mentions(recorded: &Recorded) -> Value {
    recorded
        .message_payload()
        .and_then(|m| m.get("allowed_mentions"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// Asserts a message pings exactly `users` and never everyone, here or roles.
fn assert_pings_only(recorded: &Recorded, users: &[&FakeUser]) {
    let allowed = allowed_mentions(recorded);
    assert_eq!(
        allowed["parse"],
        json!([]),
        "{allowed} in {}",
        recorded.text()
    );
    assert_eq!(allowed["roles"], json!([]), "{allowed}");
    let expected: Vec<String> = users.iter().map(|u| u.id.to_string()).collect();
    assert_eq!(
        allowed["users"],
        json!(expected),
        "{allowed} in {}",
        recorded.text()
    );
}

#[tokio::test]
async fn a_player_named_everyone_is_shown_literally_and_pings_nobody() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let alice_id = world.player_of(&alice).await;
    // An HTTP player picks a name meant to ping the whole server, and plays alice.
    let registered: Value = world
        .http
        .post(format!("{}/players", world.api()))
        .json(&json!({ "name": "@everyone" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = registered["token"].as_str().unwrap().to_owned();
    let created = world
        .http
        .post(format!("{}/challenges", world.api()))
        .bearer_auth(&token)
        .json(&json!({ "opponent_id": alice_id, "variant": "brandubh" }))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 201);
    let listing = world
        .slash(&alice, world.fake.channel(), "games", &[])
        .await;
    // No game yet (a pending challenge); accept it over HTTP through the service.
    assert!(
        listing.text().contains("no active games"),
        "{}",
        listing.text()
    );
    let challenge: Value = created.json().await.unwrap();
    let id = challenge["challenge"]["id"].as_i64().unwrap();
    world
        .app
        .service
        .challenges()
        .accept(PlayerId(alice_id), ChallengeId(id))
        .await
        .unwrap();

    let listing = world
        .slash(&alice, world.fake.channel(), "games", &[])
        .await;
    let text = listing.text();
    assert!(
        text.contains("@\u{200B}everyone"),
        "shown literally: {text}"
    );
    assert!(
        !text.contains("@everyone"),
        "never a live @everyone: {text}"
    );
    assert_pings_only(&listing, &[]);
    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn forty_games_fit_the_games_listing_page_by_page() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let me = world.player_of(&alice).await;
    for _ in 0..40 {
        world
            .app
            .service
            .challenges()
            .create(
                PlayerId(me),
                NewChallenge {
                    opponent: Opponent::Ai { level: 1 },
                    rules: RulesChoice::Variant("brandubh".into()),
                    side: SideChoice::Defenders,
                    clock: ClockSpec::Unlimited {},
                    context: None,
                    rated: None,
                    private: false,
                },
            )
            .await
            .unwrap();
    }
    let channel = world.fake.channel();
    let first = world.slash(&alice, channel, "games", &[]).await;
    let text = first.text();
    assert!(
        text.chars().count() <= 2_000,
        "{} characters",
        text.chars().count()
    );
    assert!(text.contains("Page 1 of"), "{text}");
    assert!(text.contains("of 40 shown"), "{text}");
    let pages: u32 = text
        .split("Page 1 of ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .expect("the page count");
    let mut listed = 0;
    for page in 1..=pages {
        let answer = world
            .slash(
                &alice,
                channel,
                "games",
                &[Opt::integer("page", i64::from(page))],
            )
            .await;
        let text = answer.text();
        assert!(text.chars().count() <= 2_000, "page {page}: {}", text.len());
        listed += text.lines().filter(|l| l.starts_with('#')).count();
    }
    assert_eq!(listed, 40, "every game on exactly one page");
    world.assert_clean();
    world.stop().await;
}

/// Channel posts recorded after `mark` whose text contains `needle`.
fn posts_after(world: &World, mark: usize, channel: u64, needle: &str) -> Vec<Recorded> {
    world
        .channel_posts_after(mark, channel)
        .into_iter()
        .filter(|r| r.text().contains(needle))
        .collect()
}

#[tokio::test]
async fn an_ai_turn_and_a_timeout_left_at_a_restart_are_posted_after_it() {
    let ai = Arc::new(SwitchableAi::default());
    ai.set_on(false);
    let world = World::start_with_ai(|_| {}, ai.clone()).await;
    let (alice, bob, carol) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carol"),
    );
    let (ai_channel, clocked) = (
        world.fake.new_channel("ai"),
        world.fake.new_channel("clocked"),
    );

    // Alice plays the AI, which moves first and cannot (its turn stays pending).
    let sent = world
        .fake
        .slash(
            &alice,
            ai_channel,
            "play",
            &[
                Opt::string("variant", "brandubh"),
                Opt::integer("level", 1),
                Opt::string("side", "defenders"),
            ],
        )
        .unwrap();
    let start = world.reply(&sent).await;
    assert!(start.text().contains("begins"), "{}", start.text());
    // Bob and Carol start a game with an hour per move; Bob never moves (so it is aborted).
    let sent = world
        .fake
        .slash(
            &bob,
            clocked,
            "challenge",
            &[
                Opt::user("opponent", &carol),
                Opt::string("variant", "brandubh"),
                Opt::string("side", "attackers"),
                Opt::string("clock", "1h"),
            ],
        )
        .unwrap();
    let challenge = world.reply(&sent).await;
    assert_pings_only(&challenge, &[&carol]);
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let click = world
        .fake
        .click(&carol, challenge.message.as_ref().unwrap(), &accept)
        .unwrap();
    let accepted = world.reply(&click).await;
    assert_pings_only(&accepted, &[&bob]);

    // Down for two hours: Bob's hour runs out while nothing runs.
    world.clock.advance_ms(2 * 3_600_000);
    let world = world.restart().await;
    ai.set_on(true);
    let mark = world.fake.recorder().mark();
    let pass = world.app.service.scheduler().run_due().await.unwrap();
    assert_eq!(pass.timeouts, 1, "{pass:?}");

    let ai_move = world
        .fake
        .recorder()
        .wait_for_after(
            mark,
            "the AI's pending move, posted after the restart",
            WAIT,
            |r| {
                r.kind
                    == RouteKind::ChannelMessage {
                        channel_id: ai_channel,
                    }
                    && r.text().contains("played")
            },
        )
        .await
        .unwrap();
    assert!(
        ai_move.text().contains("taflbot (AI level 1)"),
        "{}",
        ai_move.text()
    );
    assert_pings_only(&ai_move, &[&alice]);
    let timeout = world
        .fake
        .recorder()
        .wait_for_after(mark, "the timeout, posted after the restart", WAIT, |r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: clocked,
                }
                && r.text().contains("did not make their first move")
        })
        .await
        .unwrap();
    assert_pings_only(&timeout, &[&bob, &carol]);
    // Each once, and nothing else owed.
    world.wait_for_outbox_drained().await;
    assert_eq!(posts_after(&world, mark, ai_channel, "played").len(), 1);
    assert_eq!(
        posts_after(&world, mark, clocked, "did not make their first move").len(),
        1
    );
    world.assert_clean();
    world.stop().await;
}
