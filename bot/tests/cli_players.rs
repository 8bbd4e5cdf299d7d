//! The commands `taflbot` keeps beside `serve`, `discord` and `login-link` for players:
//! `variants`, `rules` and `analyze` (`render` is tested beside its code). The engine lab is the
//! `tafl` binary's (engine-tools/tests/cli.rs) and the load run `taflbot-bench`'s.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;

use tafl_cli::testing::{Binary, stderr, stdout};

const TAFLBOT: Binary = Binary::new(env!("CARGO_BIN_EXE_taflbot"));

fn taflbot(args: &[&str]) -> Output {
    TAFLBOT.run(args)
}

/// An input error: a non-zero exit and a single line on standard error.
fn assert_input_error(args: &[&str], expected: &str) {
    TAFLBOT.assert_input_error(args, expected);
}

#[test]
fn help_lists_the_service_and_the_players_commands_and_no_engine_lab_or_load_command() {
    let output = taflbot(&["--help"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let commands: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for kept in [
        "serve",
        "discord",
        "login-link",
        "render",
        "rules",
        "variants",
        "analyze",
    ] {
        assert!(commands.contains(&kept), "{kept} missing: {commands:?}");
    }
    for gone in [
        "legal",
        "replay",
        "perft",
        "bestmove",
        "calibrate",
        "engine",
        "match",
        "tune",
        "bench",
    ] {
        assert!(!commands.contains(&gone), "{gone} listed: {commands:?}");
    }
}

#[test]
fn rules_and_variants_are_the_same_commands_as_tafl_s() {
    let output = taflbot(&["variants"]);
    assert!(output.status.success());
    assert!(
        stdout(&output).lines().any(|l| l.starts_with("brandubh")),
        "{}",
        stdout(&output)
    );
    let output = taflbot(&["rules", "copenhagen"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("OpenTafl rules string:"));
    assert_input_error(&["rules", "chess"], "unknown variant");
}

#[test]
fn analyze_marks_a_planted_blunder_and_a_missed_win() {
    // Brandubh: the attackers' a2-b2 frees the king's road to a1 (a blunder); the king then
    // walks to b3 instead of escaping (a missed win), into a capture.
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("chart.png");
    let output = taflbot(&[
        "analyze",
        "--variant",
        "brandubh",
        "--position",
        "/7/t4t1/K2t3/7/T6/1t2t2/7/",
        "--to-move",
        "attackers",
        "--moves",
        "a2-b2 a3-b3",
        "--ms-per-ply",
        "50",
        "--threads",
        "1",
        "--chart",
        chart.to_str().unwrap(),
        "--theme",
        "dark",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let png = std::fs::read(&chart).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "the chart is a PNG");
    let lines: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "two plies and a summary: {lines:?}");
    assert_eq!(lines[0]["mark"], "blunder");
    assert_eq!(lines[1]["mark"], "missed_win");
    assert_eq!(lines[1]["forced"], "escape in 1");
    assert_eq!(lines[1]["best"], "a3-a1");
    assert_eq!(lines[2]["summary"]["defenders"]["missed_wins"], 1);
    assert_eq!(lines[2]["summary"]["worst"][0]["ply"], 2);
    assert_input_error(
        &["analyze", "--variant", "brandubh", "--moves", "a4-a9"],
        "--moves: move 1",
    );
}
