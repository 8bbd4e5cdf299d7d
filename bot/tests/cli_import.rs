//! `taflbot import FILE...`: several records into the server's database at once, with a line
//! per file, a summary, and a failing exit code when any file was refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

use taflbot::domain::{GameId, GameStatus};

mod cli_support;

use cli_support::service_on;

fn import(db: &Path, args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .arg("import")
        .args(args)
        .args(["--variant", "brandubh"])
        .env("TAFLBOT_DATABASE_PATH", db)
        .env("RUST_LOG", "off")
        .output()
        .unwrap()
}

const MOVES: &str = "1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6xa5 d5-a5xa6 4. f5-d5 0-1\n";

fn otg() -> String {
    format!(
        "[attackers:Xerxes]\n[defenders:Animals]\n[result:-1]\n[rules:{}]\n\n1. d2-e2 c4-c5\n[An opening.|]\n",
        tafl_engine::variant("brandubh")
            .unwrap()
            .rules()
            .to_opentafl()
    )
}

#[tokio::test]
async fn several_records_are_imported_with_progress_and_a_refusal_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("taflbot.db");
    let service = service_on(&db);
    let files = [
        (dir.path().join("club.otg"), otg()),
        (dir.path().join("archive.txt"), MOVES.to_owned()),
        (
            dir.path().join("bad.txt"),
            MOVES.replace("4. f5-d5", "4. d4-d5"),
        ),
    ];
    for (path, text) in &files {
        std::fs::write(path, text).unwrap();
    }
    let paths: Vec<&Path> = files.iter().map(|(p, _)| p.as_path()).collect();

    let output = import(&db, &paths);
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success(), "one file was refused: {stdout}");
    assert!(
        stdout.contains("[1/3]") && stdout.contains("club.otg: game 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[2/3]") && stdout.contains("archive.txt: game 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("imported 2 of 3 records; 1 refused"),
        "{stdout}"
    );
    assert!(
        stderr.contains("[3/3]") && stderr.contains("move 7 (d4-d5)"),
        "{stderr}"
    );
    for id in [1, 2] {
        let game = service.games().game(None, GameId(id)).await.unwrap();
        assert_eq!(game.status, GameStatus::Finished);
        assert_eq!(
            game.attackers.name,
            if id == 1 {
                "Xerxes"
            } else {
                "unknown attackers"
            }
        );
    }

    let output = import(&db, &paths[..2]);
    assert!(output.status.success(), "{output:?}");
}

#[tokio::test]
async fn a_record_holding_a_nul_is_refused_by_the_command_line_too_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("taflbot.db");
    let service = service_on(&db);
    let path = dir.path().join("nul.otg");
    std::fs::write(&path, otg().replace("An opening.", "An op\0ening.")).unwrap();

    let output = import(&db, &[path.as_path()]);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr
            .contains("refused: the comment on move 1 (d2-e2) must not contain the NUL character"),
        "{stderr}"
    );
    assert!(
        service.games().game(None, GameId(1)).await.is_err(),
        "nothing was stored"
    );
}
