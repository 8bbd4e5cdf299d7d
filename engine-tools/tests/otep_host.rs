//! Our host against an engine that misbehaves as OpenTafl's engine mode does (the
//! `otep-misbehaving` binary): start-up logs before `hello`, a time plan derived from the clock
//! that hangs when too short, and a move announced before it is on the engine's own board.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use tafl_engine::Game;
use tafl_tools::protocol::otep_client::OtepPlayer;
use tafl_tools::protocol::player::{Player, PlayerError};

fn engine(args: &str) -> String {
    format!("{} {args}", env!("CARGO_BIN_EXE_otep-misbehaving"))
}

fn brandubh() -> Game {
    Game::new(tafl_engine::variant("brandubh").unwrap().rules())
}

/// Plays `engine_moves` of the engine's moves (attackers) against our first legal reply, each
/// reply sent as soon as the engine's move is in; the first error ends it.
fn play(player: &mut OtepPlayer, engine_moves: usize) -> Result<Game, PlayerError> {
    let mut game = brandubh();
    player.start(&game)?;
    for _ in 0..engine_moves {
        let mv = player.choose(&game)?;
        game.play(mv).expect("the engine's move is legal");
        player.accepted(&game)?;
        let Some(reply) = game.legal_moves().first().copied() else {
            break;
        };
        game.play(reply).unwrap();
        if game.outcome().is_some() {
            break;
        }
        player.opponent_moved(&game, reply)?;
    }
    Ok(game)
}

#[test]
fn an_engine_that_logs_before_hello_plans_from_the_clock_and_applies_its_move_late_plays_on() {
    let mut player = OtepPlayer::spawn(
        &engine("--log-lines 40 --apply-after-ms 100"),
        Some(Duration::from_millis(1000)),
        Some(Duration::from_millis(200)),
    )
    .expect("lines before hello are skipped");
    let game = play(&mut player, 6).expect("the engine keeps answering legal moves");
    assert!(
        game.ply() >= 12 || (game.ply() >= 6 && game.outcome().is_some()),
        "the game stopped after {} plies without a result",
        game.ply()
    );
}

#[test]
fn an_engine_told_its_opponents_move_too_soon_crashes() {
    // The same engine without the pause: the host's next line arrives before the engine has
    // put its own move on its board (what crashed OpenTafl), so the pause above is what works.
    let mut player = OtepPlayer::spawn(
        &engine("--apply-after-ms 400"),
        Some(Duration::from_millis(1000)),
        Some(Duration::ZERO),
    )
    .unwrap();
    let error = play(&mut player, 3).expect_err("the engine crashes");
    assert!(
        error.to_string().contains("before my own move"),
        "unexpected error: {error}"
    );
}

#[test]
fn an_engine_that_never_says_hello_is_given_up_after_a_bounded_number_of_lines() {
    let error = match OtepPlayer::spawn(&engine("--no-hello"), None, None) {
        Ok(_) => panic!("an engine without hello was accepted"),
        Err(error) => error.to_string(),
    };
    assert!(error.contains("no hello"), "{error}");
}
