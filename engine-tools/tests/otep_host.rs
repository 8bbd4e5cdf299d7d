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

/// An engine that hangs (here: the first process, at its first move) loses that game on time
/// and is started afresh before the next, so one overrun costs one game: the fresh process
/// plays the second game of the pair to its end.
#[test]
fn an_engine_that_hangs_loses_on_time_and_is_restarted_before_the_next_game() {
    use tafl_engine::Side;
    use tafl_tools::matches::{Ending, Entrant, MatchSettings, opening_book, run_pairing};
    use tafl_tools::protocol::player::MoveBudget;

    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("hung");
    let engine: Entrant = format!(
        "otep:{}",
        engine(&format!("--hang-once {}", marker.display()))
    )
    .parse()
    .unwrap();
    let level: Entrant = "1".parse().unwrap();
    let settings = MatchSettings {
        openings: 1,
        skip_openings: 0,
        book_plies: 2,
        seed: 1,
        budget: MoveBudget {
            // The engine plans a second less 750 ms; the host waits 400 ms for a move.
            time: Some(Duration::from_millis(1000)),
            engine_settle: Some(Duration::from_millis(20)),
            engine_timeout: Some(Duration::from_millis(400)),
            ..MoveBudget::default()
        },
        max_plies: 16,
        out: dir.path().join("games"),
    };
    let rules = tafl_engine::variant("brandubh").unwrap().rules();
    let book = opening_book(&rules, &settings);
    let mut played = Vec::new();
    let tally = run_pairing(&rules, &book, &level, &engine, &settings, &mut |game| {
        played.push(game.clone())
    })
    .unwrap();
    assert_eq!(tally.games.len(), 2, "{:?}", tally.games);
    // Game 1: the engine (B, defenders) hangs at its first move and loses on time.
    assert_eq!(
        tally.games[0].ending,
        Ending::Timeout {
            loser: Side::Defenders
        }
    );
    assert_eq!(tally.games[0].a_points(), Some(1.0));
    assert_eq!(played[0].restarted, vec![engine.name.clone()]);
    // Game 2: a fresh process plays to the end (by the rules or at the ply limit).
    let second = tally.games[1].ending;
    assert!(
        !second.calls_for_restart(),
        "the second game ended with {second:?}: {:?}",
        tally.failed
    );
    assert!(tally.games[1].plies >= 4, "{:?}", tally.games[1]);
    assert_eq!(tally.pair_points.len(), 1, "both games scored");
    assert!(tally.summary().contains("2 games"), "{}", tally.summary());
    assert!(
        tally
            .breakdown("L1", "engine")
            .iter()
            .any(|l| l.contains("timeout 1 (A won 1)")),
        "{:?}",
        tally.breakdown("L1", "engine")
    );
}
