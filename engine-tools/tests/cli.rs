//! The `tafl` binary's subcommands: variants, rules, legal, replay, perft, calibrate, and the
//! wiring of the engine tooling's (`engine`, `match`; their behaviour is tested beside them).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::{Command, Output};

use serde_json::Value;
use tafl_cli::testing::{Binary, stderr, stdout};
use tafl_engine::{Rules, variant, variants};

const TAFL: Binary = Binary::new(env!("CARGO_BIN_EXE_tafl"));

fn tafl(args: &[&str]) -> Output {
    TAFL.run(args)
}

/// An input error: a non-zero exit and a single line on standard error.
fn assert_input_error(args: &[&str], expected: &str) {
    TAFL.assert_input_error(args, expected);
}

#[test]
fn variants_lists_every_preset() {
    let output = tafl(&["variants"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for v in variants() {
        assert!(
            text.lines().any(|l| l.starts_with(v.id)),
            "{} missing:\n{text}",
            v.id
        );
    }
}

#[test]
fn rules_prints_a_summary_and_a_rules_string_that_reads_back() {
    let output = tafl(&["rules", "copenhagen"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let line = text
        .lines()
        .find(|l| l.starts_with("dim:11"))
        .expect("a rules string");
    assert_eq!(
        Rules::from_opentafl(line).unwrap(),
        variant("copenhagen").unwrap().rules()
    );
    assert_input_error(&["rules", "chess"], "unknown variant");
    assert_input_error(&["rules", "--rules", "dim:5 start:/5/"], "bad --rules");
}

#[test]
fn legal_lists_moves_of_a_position_or_a_square() {
    let output = tafl(&["legal", "--variant", "brandubh"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output).lines().count(), 40);
    let output = tafl(&["legal", "--variant", "copenhagen"]);
    assert_eq!(stdout(&output).lines().count(), 116);
    let output = tafl(&["legal", "--variant", "brandubh", "--from", "d2"]);
    let text = stdout(&output);
    assert!(text.lines().all(|l| l.starts_with("d2-")), "{text}");
    assert_eq!(text.lines().count(), 6, "{text}");
    // A position and a side to move.
    let output = tafl(&[
        "legal",
        "--variant",
        "slavic-9",
        "--position",
        "/9/2K6/9/9/9/9/9/7T1/6t2/",
        "--to-move",
        "defenders",
        "--from",
        "c2",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let moves: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    assert!(moves.contains(&"c2-c5".to_string()), "{moves:?}");
    assert!(
        !moves.contains(&"c2-c6".to_string()),
        "the Slavic king moves at most 3: {moves:?}"
    );
    assert_input_error(
        &["legal", "--variant", "brandubh", "--from", "z9"],
        "bad --from",
    );
    assert_input_error(
        &["legal", "--variant", "brandubh", "--position", "/3t3/"],
        "bad --position",
    );
    assert_input_error(
        &[
            "legal",
            "--variant",
            "brandubh",
            "--position",
            "/9/9/9/9/9/9/9/9/9/",
        ],
        "rules are for 7x7",
    );
    assert_input_error(
        &["legal", "--variant", "brandubh", "--to-move", "nobody"],
        "bad --to-move",
    );
    assert_input_error(&["legal"], "--variant");
}

#[test]
fn replay_prints_one_json_line_per_move() {
    let rules = "dim:7 surf:n atkf:y ks:c cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    let output = tafl(&[
        "replay", "--rules", rules, "d2-e2", "c4-c5", "F4-F5", "c5 a5", "d6a6", "d5–a5",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["move"], "d2-e2");
    assert_eq!(lines[0]["side"], "attackers");
    assert_eq!(lines[4]["move"], "d6-a6xa5");
    assert_eq!(lines[4]["captures"], serde_json::json!(["a5"]));
    assert_eq!(lines[5]["move"], "d5-a5xa6");
    assert_eq!(lines[5]["outcome"], Value::Null);
    assert!(lines[5]["position"].as_str().unwrap().starts_with('/'));
    assert_eq!(lines[5]["to_move"], "attackers");
}

#[test]
fn replay_reports_the_winner_and_warnings() {
    let output = tafl(&[
        "replay",
        "--variant",
        "tablut",
        "--position",
        "/9/9/2K6/9/9/9/9/7T1/1t7/",
        "--to-move",
        "defenders",
        "c3-c4",
        "b9-b8",
        "c4-c1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["warning"]["kind"], "tuichu");
    assert_eq!(lines[2]["outcome"]["result"], "win");
    assert_eq!(lines[2]["outcome"]["winner"], "defenders");
    assert_eq!(lines[2]["outcome"]["reason"], "king_escaped");
}

#[test]
fn replay_stops_at_an_illegal_move_with_exit_status_2() {
    let output = tafl(&["replay", "--variant", "brandubh", "d2-e2", "d4-d1", "c4-c5"]);
    assert_eq!(output.status.code(), Some(2));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    let error: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(error["error"]["index"], 1);
    assert_eq!(error["error"]["move"], "d4-d1");
    assert!(
        error["error"]["reason"]
            .as_str()
            .unwrap()
            .contains("blocked"),
        "{error}"
    );
    // Unreadable notation is reported the same way.
    let output = tafl(&["replay", "--variant", "brandubh", "hello"]);
    assert_eq!(output.status.code(), Some(2));
    let error: Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(error["error"]["index"], 0);
    assert!(
        error["error"]["reason"]
            .as_str()
            .unwrap()
            .contains("not a move"),
        "{error}"
    );
    // A move after the end of the game.
    let output = tafl(&[
        "replay",
        "--variant",
        "brandubh",
        "--position",
        "/7/1K5/7/7/7/5T1/5t1/",
        "--to-move",
        "defenders",
        "b2-a2",
        "f7-e7",
        "a2-a1",
        "f7-e7",
    ]);
    assert_eq!(output.status.code(), Some(2), "{}", stdout(&output));
    let last: Value = serde_json::from_str(stdout(&output).lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["index"], 3);
    assert!(
        last["error"]["reason"].as_str().unwrap().contains("over"),
        "{last}"
    );
}

#[test]
fn perft_counts_and_times() {
    let output = tafl(&["perft", "--variant", "copenhagen", "--depth", "2"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output).trim(), "perft(2) = 6788");
    assert!(stderr(&output).contains("leaves/s"), "{}", stderr(&output));
    let output = tafl(&["perft", "--variant", "brandubh", "--depth", "2", "--divide"]);
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 41, "{text}");
    let split: u64 = text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(_, n)| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(split, 960, "{text}");
    assert!(text.ends_with("perft(2) = 960\n"), "{text}");
    let output = tafl(&[
        "perft",
        "--rules",
        "dim:9 esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        "--depth",
        "3",
    ]);
    assert_eq!(stdout(&output).trim(), "perft(3) = 353200");
    let output = tafl(&["perft", "--variant", "copenhagen", "--depth", "9"]);
    assert!(!output.status.success());
    assert_input_error(
        &["perft", "--variant", "nope", "--depth", "1"],
        "unknown variant",
    );
}

#[test]
fn replay_reads_an_opentafl_game_record_then_more_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut game = tafl_engine::Game::new(variant("brandubh").unwrap().rules());
    for mv in ["d2-e2", "c4-c5", "f4-f5", "c5-a5", "d6-a6"] {
        game.play_str(mv).unwrap();
    }
    let path = dir.path().join("game.otg");
    std::fs::write(
        &path,
        tafl_engine::otg::write(&game, &[("event".into(), "test".into())]),
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let output = tafl(&["replay", "--otg", path, "d5-a5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[4]["move"], "d6-a6xa5");
    assert_eq!(lines[5]["index"], 5);
    assert_eq!(lines[5]["move"], "d5-a5xa6");
    // An illegal extra move is numbered after the record's moves.
    let output = tafl(&["replay", "--otg", path, "d5-d1"]);
    assert_eq!(output.status.code(), Some(2));
    let last: Value = serde_json::from_str(stdout(&output).lines().last().unwrap()).unwrap();
    assert_eq!(last["error"]["index"], 5);
    // A broken record or a missing file: one line, non-zero exit.
    let broken = dir.path().join("broken.otg");
    std::fs::write(
        &broken,
        "[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-d9\n",
    )
    .unwrap();
    assert_input_error(
        &["replay", "--otg", broken.to_str().unwrap()],
        "bad game record",
    );
    assert_input_error(&["replay", "--otg", "/nonexistent/game.otg"], "cannot read");
    let output = tafl(&["replay", "--otg", path, "--variant", "brandubh"]);
    assert!(!output.status.success());
}

#[test]
fn commands_refuse_rules_whose_start_cannot_be_played() {
    let no_attackers = "dim:7 start:/7/7/7/3K3/7/7/7/";
    let king_on_corner = "dim:7 start:/K6/7/7/7/7/7/3t3/";
    // Each command with what else it requires (perft its --depth).
    let commands: [&[&str]; 4] = [
        &["legal"],
        &["replay"],
        &["bestmove"],
        &["perft", "--depth", "1"],
    ];
    for command in commands {
        assert_input_error(
            &[command, &["--rules", no_attackers]].concat(),
            "cannot start a game: the attackers, who move first, have no legal move",
        );
        assert_input_error(
            &[command, &["--rules", king_on_corner]].concat(),
            "cannot start a game: the king starts on a1, a winning square",
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("stuck.otg");
    std::fs::write(&record, format!("[rules:{no_attackers}]\n\n")).unwrap();
    assert_input_error(
        &["replay", "--otg", record.to_str().unwrap()],
        "cannot be replayed from its start: the attackers, who move first, have no legal move",
    );
    // A playable position is judged, not the rules' start, and vice versa.
    assert_input_error(
        &[
            "legal",
            "--variant",
            "copenhagen",
            "--position",
            "/K10/11/11/11/11/11/11/11/11/11/5t5/",
        ],
        "this position cannot start a game: the king starts on a1, a winning square",
    );
}

/// Capture is active: a king that already stands between two attackers is not captured, so
/// every command plays from such a position (OpenTafl counts 70, 723 and 41,357 moves).
#[test]
fn commands_play_from_a_king_already_between_two_attackers() {
    let rules =
        "dim:7 esc:e atkf:y ka:y ks:w cor: cen: surf:n start:/1t1tt2/1t5/3tT2/6t/2t1tKt/2t4/tt2t2/";
    for (depth, count) in [("1", "70"), ("2", "723"), ("3", "41357")] {
        let output = tafl(&["perft", "--rules", rules, "--depth", depth]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(stdout(&output).trim(), format!("perft({depth}) = {count}"));
    }
    let output = tafl(&["legal", "--rules", rules]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 70, "{}", stdout(&output));
    // The same king in Copenhagen, surrounded on four sides beside a mid-game position.
    let output = tafl(&[
        "legal",
        "--variant",
        "copenhagen",
        "--position",
        "/11/11/11/11/5t5/4tKt4/5t5/11/11/1T9/1t9/",
        "--to-move",
        "defenders",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn engine_greets_and_leaves_on_goodbye() {
    use std::io::Write;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["engine", "--move-time-ms", "100", "--hash-mib", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "goodbye").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert_eq!(stdout(&output).trim(), "hello");
}

#[test]
fn match_refuses_a_bad_player_clearly() {
    let output = tafl(&["match", "--variant", "brandubh", "--a", "7", "--b", "1"]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("level"));
}

#[test]
fn match_stopped_by_ctrl_c_prints_the_summary_of_the_games_played() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;

    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tafl"))
        .args(["match", "--variant", "brandubh", "--a", "1", "--b", "1"])
        .args(["--openings", "40", "--out", out_dir])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut games = BufReader::new(child.stderr.take().unwrap());
    // Wait for the first game to be reported, then press Ctrl-C.
    let mut first = String::new();
    games.read_line(&mut first).unwrap();
    assert!(first.contains("A as attackers"), "{first}");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    games.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{rest}");
    let text = stdout(&output);
    assert!(text.contains("stopped by Ctrl-C"), "{text}");
    assert!(text.contains("as defenders:"), "{text}");
    assert!(text.contains("endings:"), "{text}");
    let played: u32 = text
        .split(": ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game count in {text}"));
    assert!((1..80).contains(&played), "{played} games: {text}");
}

#[test]
fn match_gives_each_side_its_own_budget_and_records_think_times() {
    let out = tempfile::tempdir().unwrap();
    let output = tafl(&[
        "match",
        "--variant",
        "brandubh",
        "--a",
        "2",
        "--b",
        "2",
        "--a-nodes",
        "500",
        "--b-time-ms",
        "30",
        "--openings",
        "1",
        "--out",
        out.path().to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("A = L2@nodes=500 (500 nodes), B = L2@time-ms=30 (30 ms): 2 games"),
        "{text}"
    );
    let record = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .find(|r| r.contains("[attackers-budget:500 nodes]"))
        .expect("A's game as attackers");
    assert!(record.contains("[defenders-budget:30 ms]"), "{record}");
    // Every turn after the opening carries each move's think time.
    assert!(
        record
            .lines()
            .any(|l| l.starts_with('[') && l.ends_with("s]") && l.contains("s|")),
        "{record}"
    );
}

#[test]
fn sprt_prints_the_llr_after_each_pair_and_stops_at_a_bound() {
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    // Level 2 against level 1, each on 2,000 nodes (deterministic for the seed): far more
    // than 100 Elo apart, so H1 is accepted well before 60 games.
    let output = tafl(&[
        "sprt",
        "--variant",
        "brandubh",
        "--a",
        "2",
        "--b",
        "1",
        "--a-nodes",
        "2000",
        "--b-nodes",
        "2000",
        "--elo0",
        "0",
        "--elo1",
        "100",
        "--max-games",
        "60",
        "--out",
        out_dir,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("bounds -2.94 and 2.94"), "{text}");
    let pairs: Vec<&str> = text.lines().filter(|l| l.starts_with("pairs ")).collect();
    assert!(
        pairs[0].starts_with("pairs 1 (games 2): pentanomial ["),
        "{text}"
    );
    assert!(pairs[0].ends_with("(-2.94, 2.94)"), "{text}");
    assert!((2..30).contains(&pairs.len()), "{text}");
    assert!(text.contains("verdict: H1 accepted"), "{text}");
    assert!(text.contains("Elo of A over B: +"), "{text}");
    assert!(text.contains("as defenders:"), "{text}");
    assert!(text.contains("command: "), "{text}");
    assert_input_error(
        &[
            "sprt",
            "--variant",
            "brandubh",
            "--a",
            "2",
            "--b",
            "1",
            "--elo0",
            "5",
            "--elo1",
            "0",
        ],
        "elo0",
    );
}

#[test]
fn rating_list_prints_a_table_then_the_command_and_settings() {
    let out = tempfile::tempdir().unwrap();
    let out_dir = out.path().to_str().unwrap();
    let output = tafl(&[
        "rating-list",
        "--variant",
        "brandubh",
        "--player",
        "1",
        "--player",
        "2",
        "--player",
        "quick=3@nodes=3000",
        "--openings",
        "1",
        "--anchor",
        "L1",
        "--out",
        out_dir,
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "| rank | name | Elo | ± | games | score |",
        "{text}"
    );
    let rows: Vec<&str> = lines[2..5].to_vec();
    assert!(
        rows.iter().all(|r| r.contains("| 4 |")),
        "4 games each: {text}"
    );
    assert!(
        rows.iter().any(|r| r.contains("| L1 | +0 | anchor |")),
        "{text}"
    );
    assert!(text.contains("command: "), "{text}");
    assert!(text.contains("quick=3@nodes=3000"), "{text}");
    assert!(text.contains("settings: brandubh (1 openings"), "{text}");
    assert_input_error(
        &[
            "rating-list",
            "--variant",
            "brandubh",
            "--player",
            "1",
            "--player",
            "1",
        ],
        "two players are called L1",
    );
}

#[test]
fn calibrate_prints_ten_deciles_of_self_play_positions() {
    let output = tafl(&[
        "calibrate",
        "--variant",
        "brandubh",
        "--games",
        "2",
        "--level",
        "1",
        "--scale",
        "0.05",
        "--max-plies",
        "30",
        "--ms-per-position",
        "5",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    let rows: Vec<&str> = table.lines().skip(2).collect();
    assert_eq!(rows.len(), 10, "{table}");
    let positions: u32 = rows
        .iter()
        .map(|r| r.split('|').nth(2).unwrap().trim().parse::<u32>().unwrap())
        .sum();
    assert!(positions > 0, "{table}");
    assert_input_error(
        &["calibrate", "--variant", "brandubh", "--scale", "0"],
        "--scale",
    );
}
