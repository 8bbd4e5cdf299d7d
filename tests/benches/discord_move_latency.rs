//! Latency of `/move` in a game between two people, measured at the fake Discord: from the
//! moment the INTERACTION_CREATE is handed to the gateway connection to the moment the bot's
//! reply carrying the board PNG has arrived. Target: median at most 50 ms.
//!
//! Run: `cargo bench -p taflbot-e2e --bench discord_move_latency` (MOVES=n to change the count).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use tafl_engine::{Game, variant};
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser};
use taflbot_e2e::world::{WAIT, World};

const DEFAULT_MOVES: usize = 60;

/// A legal move that does not end the game (so the game lasts the whole run).
fn quiet_move(game: &Game, turn: usize) -> Option<String> {
    let moves = game.legal_moves();
    let count = moves.len();
    (0..count)
        .map(|i| moves[(turn * 7 + i) % count])
        .find_map(|mv| {
            let mut after = game.clone();
            let report = after.play(mv).ok()?;
            report.outcome.is_none().then(|| mv.to_string())
        })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

async fn run(moves: usize) -> Vec<Duration> {
    let world = World::start().await;
    let (alice, bob): (FakeUser, FakeUser) =
        (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let challenge = world
        .fake
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &bob),
                Opt::string("variant", "copenhagen"),
                Opt::string("side", "attackers"),
            ],
        )
        .expect("challenge sent");
    let challenge = world
        .fake
        .reply_to(&challenge, WAIT)
        .await
        .expect("challenge posted");
    let accept = challenge
        .button_starting_with("challenge:accept:")
        .expect("Accept button");
    let click = world
        .fake
        .click(&bob, challenge.message.as_ref().expect("message"), &accept)
        .expect("click sent");
    world
        .fake
        .reply_to(&click, WAIT)
        .await
        .expect("challenge accepted");

    let mut game = Game::new(variant("copenhagen").expect("copenhagen exists").rules());
    let mut latencies = Vec::with_capacity(moves);
    for turn in 0..moves {
        let Some(mv) = quiet_move(&game, turn) else {
            break;
        };
        let player = if turn % 2 == 0 { &alice } else { &bob };
        let sent = world
            .fake
            .slash(player, channel, "move", &[Opt::string("move", &mv)])
            .expect("move sent");
        let reply = world
            .fake
            .reply_to(&sent, WAIT)
            .await
            .expect("move answered");
        assert_eq!(
            reply.png_attachments().count(),
            1,
            "the reply to {mv} carries the board: {}",
            reply.text()
        );
        latencies.push(reply.at.duration_since(sent.sent_at));
        game.play_str(&mv).expect("the move is legal locally too");
    }
    world.assert_clean();
    world.stop().await;
    latencies
}

fn main() {
    let moves = std::env::var("MOVES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(DEFAULT_MOVES);
    let runtime = tokio::runtime::Runtime::new().expect("a tokio runtime");
    let mut latencies = runtime.block_on(run(moves));
    latencies.sort();
    if latencies.is_empty() {
        println!("no moves measured");
        return;
    }
    println!(
        "discord /move latency (INTERACTION_CREATE -> reply with PNG at the fake), {} moves of copenhagen:",
        latencies.len()
    );
    println!(
        "  median {:.1} ms, p90 {:.1} ms, min {:.1} ms, max {:.1} ms (target: median <= 50 ms)",
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.9).as_secs_f64() * 1e3,
        latencies[0].as_secs_f64() * 1e3,
        latencies[latencies.len() - 1].as_secs_f64() * 1e3,
    );
}
