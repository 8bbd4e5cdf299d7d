//! The bot against the fake Discord: start-up, /help, and a button round trip.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot_e2e::fake_discord::RouteKind;
use taflbot_e2e::world::World;

const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn the_bot_connects_registers_its_commands_and_answers_help() {
    let world = World::start().await;
    let fake = &world.fake;
    assert_eq!(fake.sessions(), 1);
    let names = fake.wait_for_commands(WAIT).await.unwrap();
    assert!(names.iter().any(|n| n == "help"), "registered: {names:?}");
    let registration = fake
        .recorder()
        .wait_for("guild command registration", WAIT, |r| {
            r.kind == RouteKind::CommandRegistration
        })
        .await
        .unwrap();
    assert!(
        registration
            .path
            .contains(&format!("/guilds/{}/commands", fake.guild_id())),
        "commands should be registered in the configured guild, went to {}",
        registration.path
    );

    let alice = fake.new_user("alice");
    let help = fake.slash(&alice, fake.channel(), "help", &[]).unwrap();
    let reply = fake.reply_to(&help, WAIT).await.unwrap();
    assert_eq!(
        reply.callback_type(),
        Some(4),
        "/help should answer with a message at once"
    );
    assert!(reply.is_ephemeral(), "/help is private");
    for command in ["/challenge", "/move", "/board", "/history", "/token"] {
        assert!(
            reply.text().contains(command),
            "/help does not mention {command}: {}",
            reply.text()
        );
    }
    assert_eq!(reply.button_ids(), vec!["help:howto".to_owned()]);

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn a_button_click_round_trips_and_an_unknown_button_gets_a_private_error() {
    let world = World::start().await;
    let fake = &world.fake;
    let alice = fake.new_user("alice");

    let help = fake.slash(&alice, fake.channel(), "help", &[]).unwrap();
    let reply = fake.reply_to(&help, WAIT).await.unwrap();
    let message = reply
        .message
        .clone()
        .expect("the fake stores the /help reply as a message");

    let click = fake.click(&alice, &message, "help:howto").unwrap();
    let answer = fake.reply_to(&click, WAIT).await.unwrap();
    assert_eq!(answer.callback_type(), Some(4));
    assert!(answer.is_ephemeral());
    assert!(
        answer.text().contains("How to play"),
        "got: {}",
        answer.text()
    );
    assert!(answer.text().contains("Raichi"), "got: {}", answer.text());

    let unknown = fake.click(&alice, &message, "mystery:1").unwrap();
    let refusal = fake.reply_to(&unknown, WAIT).await.unwrap();
    assert!(refusal.is_ephemeral());
    assert!(
        refusal.text().contains("no longer valid"),
        "got: {}",
        refusal.text()
    );

    let stale = fake
        .click(&alice, &message, "challenge:accept:999")
        .unwrap();
    let refusal = fake.reply_to(&stale, WAIT).await.unwrap();
    assert!(refusal.is_ephemeral());
    assert!(
        refusal.text().contains("not found"),
        "got: {}",
        refusal.text()
    );

    world.assert_clean();
    world.stop().await;
}
