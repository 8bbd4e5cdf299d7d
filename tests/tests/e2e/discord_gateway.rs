//! serenity's gateway client against the fake's gateway: a dropped connection, op 7 and op 9
//! are followed by a RESUME (or a new IDENTIFY), and the bot goes on answering.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::world::{WAIT, World};

/// `/help` is answered: the bot is connected and serving.
async fn answers_help(world: &World) {
    let alice = world.fake.new_user("alice");
    let reply = world.slash(&alice, world.fake.channel(), "help", &[]).await;
    assert!(reply.text().contains("/challenge"), "{}", reply.text());
}

#[tokio::test]
async fn the_bot_resumes_after_a_drop_and_a_reconnect_request() {
    let world = World::start().await;
    world.fake.close_gateway(4000).unwrap();
    world.fake.wait_for_resumes(1, WAIT).await.unwrap();
    answers_help(&world).await;

    world.fake.send_reconnect().unwrap();
    world.fake.wait_for_resumes(2, WAIT).await.unwrap();
    answers_help(&world).await;
    assert_eq!(world.fake.sessions(), 1, "resumed, never identified again");
    world.stop().await;
}

#[tokio::test]
async fn an_invalidated_session_makes_the_bot_identify_again() {
    let world = World::start().await;
    world.fake.send_invalid_session(false).unwrap();
    world.fake.wait_for_sessions(2, WAIT).await.unwrap();
    answers_help(&world).await;
    world.stop().await;
}
