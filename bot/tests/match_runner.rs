//! `taflbot match`: paired games, a summary line, and one readable .otg record per game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// Runs `taflbot match ARGS --out OUT`, asserts it succeeded, and returns its standard output.
fn run_match(args: &[&str], out: &Path) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_small_match_writes_every_game_and_a_summary() {
    let out = std::env::temp_dir().join(format!("taflbot-match-test-{}", std::process::id()));
    let stdout = run_match(
        &[
            "--variant",
            "brandubh",
            "--a",
            "2",
            "--b",
            "1",
            "--openings",
            "2",
            "--book-plies",
            "2",
            "--max-plies",
            "120",
        ],
        &out,
    );
    assert!(stdout.contains("4 games:"), "{stdout}");
    assert!(stdout.contains("(95%)"), "{stdout}");
    let records: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 4);
    for path in records {
        let text = std::fs::read_to_string(&path).unwrap();
        let (game, tags) = tafl_engine::otg::read(&text).unwrap();
        assert!(game.ply() >= 2, "{}", path.display());
        assert!(tags.iter().any(|(k, _)| k == "attackers"));
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_bad_player_is_a_clear_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["match", "--variant", "brandubh", "--a", "7", "--b", "1"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("level"));
}

#[test]
fn skipped_openings_are_not_played_and_the_rest_keep_their_numbers() {
    let out = std::env::temp_dir().join(format!("taflbot-match-skip-{}", std::process::id()));
    let stdout = run_match(
        &[
            "--variant",
            "brandubh",
            "--a",
            "2",
            "--b",
            "1",
            "--openings",
            "3",
            "--skip-openings",
            "2",
            "--max-plies",
            "120",
        ],
        &out,
    );
    assert!(stdout.contains("2 games:"), "{stdout}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.contains("-o03-")), "{names:?}");
    std::fs::remove_dir_all(&out).unwrap();
}
