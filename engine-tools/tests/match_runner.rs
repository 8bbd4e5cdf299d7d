//! Matches: paired games, a tally, and one readable .otg record per game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use tafl_tools::matches::{MatchSettings, PlayedGame, Tally, opening_book, run_pairing};
use tafl_tools::protocol::player::{MoveBudget, PlayerSpec};

fn settings(openings: usize, skip_openings: usize, out: &Path) -> MatchSettings {
    MatchSettings {
        openings,
        skip_openings,
        book_plies: 2,
        seed: 1,
        budget: MoveBudget::default(),
        max_plies: 120,
        out: out.to_path_buf(),
    }
}

/// Level 2 against level 1 in Brandubh; returns the tally and the games reported as played.
fn level_two_against_one(settings: &MatchSettings) -> (Tally, Vec<PlayedGame>) {
    let rules = tafl_engine::variant("brandubh").unwrap().rules();
    let book = opening_book(&rules, settings);
    let mut played = Vec::new();
    let tally = run_pairing(
        &rules,
        &book,
        &"2".parse().unwrap(),
        &"1".parse().unwrap(),
        settings,
        &mut |game: &PlayedGame| played.push(game.clone()),
    )
    .unwrap();
    (tally, played)
}

#[test]
fn a_small_match_writes_every_game_and_a_summary() {
    let out = tempfile::tempdir().unwrap();
    let (tally, played) = level_two_against_one(&settings(2, 0, out.path()));
    let summary = tally.summary();
    assert!(summary.contains("4 games:"), "{summary}");
    assert!(summary.contains("(95%)"), "{summary}");
    assert_eq!(played.len(), 4);
    let records: Vec<_> = std::fs::read_dir(out.path())
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
}

#[test]
fn a_bad_player_is_a_clear_error() {
    let error = "7".parse::<PlayerSpec>().unwrap_err().to_string();
    assert!(error.contains("level"), "{error}");
    assert!(matches!(
        "otep:some-engine".parse::<PlayerSpec>(),
        Ok(PlayerSpec::Otep(command)) if command == "some-engine"
    ));
}

#[test]
fn skipped_openings_are_not_played_and_the_rest_keep_their_numbers() {
    let out = tempfile::tempdir().unwrap();
    let (tally, _) = level_two_against_one(&settings(3, 2, out.path()));
    assert!(tally.summary().contains("2 games:"), "{}", tally.summary());
    let mut names: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.contains("-o03-")), "{names:?}");
}
