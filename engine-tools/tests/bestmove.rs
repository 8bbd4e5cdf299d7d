//! `tafl bestmove`: one JSON line with a legal move, or a clear error.

use std::process::Command;

// A test helper: a failure to start the binary should fail the test at once.
#[allow(clippy::unwrap_used)]
fn tafl(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn prints_a_legal_move_with_its_search_figures() {
    let output = tafl(&[
        "bestmove",
        "--variant",
        "brandubh",
        "--nodes",
        "5000",
        "--seed",
        "1",
    ]);
    assert!(output.status.success());
    let line: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mv = line["move"].as_str().unwrap();
    let mut game = tafl_engine::Game::new(tafl_engine::variant("brandubh").unwrap().rules());
    assert!(game.play_str(mv).is_ok());
    assert!(line["nodes"].as_u64().unwrap() <= 5_000);
    assert!(line["depth"].as_u64().unwrap() >= 1);
    assert_eq!(line["pv"][0].as_str(), Some(mv));
    assert!(line["score"].is_i64() && line["time_ms"].is_u64());
}

#[test]
fn takes_an_immediate_escape_and_refuses_a_finished_game() {
    let win = tafl(&[
        "bestmove",
        "--variant",
        "brandubh",
        "--position",
        "/2K4/7/3t3/7/7/3t3/7/",
        "--to-move",
        "defenders",
        "--level",
        "2",
    ]);
    let line: serde_json::Value = serde_json::from_slice(&win.stdout).unwrap();
    assert!(["c1-a1", "c1-g1"].contains(&line["move"].as_str().unwrap()));
    assert_eq!(line["mate_in"].as_i64(), Some(1));
    let over = tafl(&[
        "bestmove",
        "--variant",
        "brandubh",
        "--position",
        "/2K4/7/3t3/7/7/3t3/7/",
        "--to-move",
        "defenders",
        "--moves",
        "c1-a1",
    ]);
    assert_eq!(over.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&over.stderr).contains("game is over"));
}
