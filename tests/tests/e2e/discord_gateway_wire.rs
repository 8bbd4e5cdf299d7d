//! The gateway as Discord serves it on the wire: over TLS (`wss://gateway.discord.gg`, reached
//! at the fake's stand-in with its certificate) and, on the relay's connection, compressed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::fake_discord::{FakeDiscord, FakeUser};
use taflbot_e2e::world::{WAIT, World};

/// Has `alice` ask for /help and waits for the answer: the session carries commands both ways.
async fn help_is_answered(world: &World, alice: &FakeUser) {
    let help = world
        .fake
        .slash(alice, world.fake.channel(), "help", &[])
        .unwrap();
    let reply = world.fake.reply_to(&help, WAIT).await.unwrap();
    assert!(reply.text().contains("/challenge"), "{}", reply.text());
}

#[tokio::test]
async fn a_whole_shard_session_runs_over_wss() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.serve_gateway_over_tls();
    let world = World::start_against(fake, |_| {}).await;
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    world.fake.wait_for_commands(WAIT).await.unwrap();
    assert!(
        world.fake.gateway_connections_over_tls() >= 1,
        "the relay reached the gateway through the TLS stand-in"
    );
    help_is_answered(&world, &world.fake.new_user("alice")).await;
    world.stop().await;
}

#[tokio::test]
async fn the_relay_takes_the_gateway_compressed_and_serenity_reads_every_payload() {
    let fake = FakeDiscord::start().await.unwrap();
    // A server of some size: its GUILD_CREATE lists every channel and member.
    for n in 0..20 {
        fake.new_channel(&format!("tafl-{n}"));
    }
    let members: Vec<FakeUser> = (0..60)
        .map(|n| fake.new_user(&format!("player{n}")))
        .collect();
    let world = World::start_against(fake, |_| {}).await;
    world.fake.wait_for_sessions(1, WAIT).await.unwrap();
    world.fake.wait_for_commands(WAIT).await.unwrap();
    for member in &members[..5] {
        help_is_answered(&world, member).await;
    }
    let (payload, wire) = world.fake.gateway_bytes();
    println!(
        "gateway: {payload} bytes of JSON payloads, {wire} bytes on the wire (zlib-stream, {:.1}x)",
        payload as f64 / wire.max(1) as f64
    );
    assert!(
        wire * 3 < payload,
        "the relay asked for zlib-stream: {wire} bytes on the wire for {payload} of payloads"
    );
    world.stop().await;
}
