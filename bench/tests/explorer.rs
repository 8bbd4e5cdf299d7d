//! `taflbot-bench explorer` builds its database the way finished games are counted, and the
//! app answers every question about it (a failed answer fails the run).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use tafl_engine::{Game, Symmetry, folded_key};
use taflbot::store::rows;
use taflbot::store::{Store, StoreError};
use taflbot_bench::{self as bench, Cli};

#[test]
fn bench_explorer_counts_every_generated_game_and_answers_without_errors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("explorer.db");
    let cli = Cli::try_parse_from([
        "taflbot-bench",
        "explorer",
        "--games",
        "500",
        "--batch",
        "200",
        "--secs",
        "1",
        "--clients",
        "2",
        "--variant",
        "brandubh",
        "--db",
        db.to_str().unwrap(),
    ])
    .unwrap();
    let code = bench::run(cli).unwrap();
    assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::SUCCESS));

    let start = Game::start(tafl_engine::variant("brandubh").unwrap().rules()).unwrap();
    let key = folded_key(start.position(), &Symmetry::of_rules(start.rules())).key;
    let store = Store::open(&db, 1, Duration::from_secs(5), 1).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (at_start, moves) = rt
        .block_on(store.read(move |c| {
            Ok::<_, StoreError>((
                rows::explorer_position(c, "brandubh", key)?,
                rows::explorer_moves(c, "brandubh", key)?,
            ))
        }))
        .unwrap();
    let at_start = at_start.expect("the start is counted");
    assert_eq!(at_start.games, 500);
    assert_eq!(
        at_start.attackers_won + at_start.defenders_won + at_start.draws,
        500
    );
    assert_eq!(moves.iter().map(|m| m.counts.games).sum::<u64>(), 500);
    assert!(moves.len() > 1, "the games part ways: {moves:?}");
}
