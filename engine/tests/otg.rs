//! OpenTafl game records: published games replayed through our referee (every capture and the
//! result checked), round trips through `otg::write` / `otg::read`, and typed read errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::otg::{self, OtgError};
use tafl_engine::{Game, Move, MoveError, Outcome, Rules, Side, Square, WinReason, variant};

/// A published game in this repository's own test format (see tests/games/*.game).
struct Record {
    name: &'static str,
    rules: String,
    end: String,
    moves: Vec<String>,
}

fn load(name: &'static str, text: &str) -> Record {
    let mut rules = String::new();
    let mut end = String::new();
    let mut moves = Vec::new();
    let mut in_moves = false;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if in_moves {
            moves.extend(
                line.split_whitespace()
                    .filter(|t| !t.ends_with('.'))
                    .map(str::to_string),
            );
            continue;
        }
        match line.split_once(' ') {
            Some(("rules", value)) => rules = value.to_string(),
            Some(("end", value)) => end = value.to_string(),
            _ if line == "moves" => in_moves = true,
            _ => panic!("{name}: unknown line {line}"),
        }
    }
    Record {
        name,
        rules,
        end,
        moves,
    }
}

fn records() -> Vec<Record> {
    vec![
        load(
            "animals-xerxes-brandub-2015",
            include_str!("games/animals-xerxes-brandub-2015.game"),
        ),
        load(
            "lonsdale-piirsoo-sea-battle-2015",
            include_str!("games/lonsdale-piirsoo-sea-battle-2015.game"),
        ),
        load(
            "fish-nasa-fetlar-2015",
            include_str!("games/fish-nasa-fetlar-2015.game"),
        ),
        load(
            "crust-schachus-copenhagen-2015",
            include_str!("games/crust-schachus-copenhagen-2015.game"),
        ),
    ]
}

fn recorded_captures(token: &str, dim: u8) -> Vec<Square> {
    let mut squares: Vec<Square> = match token.split_once('x') {
        None => Vec::new(),
        Some((_, list)) => list
            .split('/')
            .map(|s| Square::parse(s, dim).unwrap())
            .collect(),
    };
    squares.sort();
    squares
}

/// Our referee agrees with every move, every capture and the end of each published game.
#[test]
fn published_games_replay_with_the_same_captures_and_result() {
    for record in records() {
        let rules = Rules::from_opentafl(&record.rules).unwrap();
        let dim = rules.dim();
        let mut game = Game::new(rules);
        for (i, token) in record.moves.iter().enumerate() {
            assert!(
                !game.is_over(),
                "{}: game over before move {}",
                record.name,
                i + 1
            );
            let mv = Move::parse(token, dim).unwrap();
            let report = game
                .play(mv)
                .unwrap_or_else(|e| panic!("{}: move {} {token}: {e}", record.name, i + 1));
            let mut ours = report.captures.clone();
            ours.sort();
            assert_eq!(
                ours,
                recorded_captures(token, dim),
                "{}: move {} {token}",
                record.name,
                i + 1
            );
        }
        match record.end.as_str() {
            "escaped" => assert_eq!(
                game.outcome(),
                Some(&Outcome::Win {
                    winner: Side::Defenders,
                    reason: WinReason::KingEscaped
                }),
                "{}",
                record.name
            ),
            resigned => {
                // A resignation: the referee must see the game as still going, with the
                // resigning side to move.
                let side: Side = resigned.strip_prefix("resigned ").unwrap().parse().unwrap();
                assert_eq!(game.outcome(), None, "{}", record.name);
                assert_eq!(game.side_to_move(), side, "{}", record.name);
            }
        }
    }
}

/// The same games as OpenTafl records (numbered turns, comments, a variation, a resignation)
/// read back through `otg::read`.
#[test]
fn published_games_read_as_otg() {
    for record in records() {
        let mut text = format!("[event:test]\n[rules:{}]\n\n", record.rules);
        for (turn, pair) in record.moves.chunks(2).enumerate() {
            text.push_str(&format!("{}. {}\n", turn + 1, pair.join(" ")));
            text.push_str("[A comment\n\nover several lines.|]\n");
            if turn == 1 {
                // A variation instead of move 2b: the first legal move there.
                let mut before = Game::new(Rules::from_opentafl(&record.rules).unwrap());
                for token in &record.moves[..3] {
                    before.play_str(token).unwrap();
                }
                let other = before.legal_moves()[0];
                text.push_str(&format!("2b.1.1a. ..... {other}\n[|a variation]\n"));
            }
        }
        if record.end.starts_with("resigned ") {
            text.push_str(&format!("{}. ---\n", record.moves.len() / 2 + 1));
        }
        let (game, tags) = otg::read(&text).unwrap_or_else(|e| panic!("{}: {e}", record.name));
        assert_eq!(game.ply() as usize, record.moves.len(), "{}", record.name);
        assert_eq!(tags[0], ("event".to_string(), "test".to_string()));
        if let Some(side) = record.end.strip_prefix("resigned ") {
            assert!(
                tags.contains(&("resigned".to_string(), side.to_string())),
                "{}: {tags:?}",
                record.name
            );
        }
        let written = otg::write(&game, &tags);
        let (again, tags_again) =
            otg::read(&written).unwrap_or_else(|e| panic!("{}: {e}\n{written}", record.name));
        assert_eq!(again.history(), game.history(), "{}", record.name);
        assert_eq!(again.position(), game.position(), "{}", record.name);
        for tag in &tags {
            assert!(tags_again.contains(tag), "{}: lost {tag:?}", record.name);
        }
    }
}

#[test]
fn write_then_read_reproduces_game_tags_and_start_position() {
    let rules = variant("brandubh").unwrap().rules();
    let start =
        tafl_engine::Position::from_opentafl("/3t3/7/3T3/1tTK2t/7/3t3/3t3/", Side::Defenders)
            .unwrap();
    let mut game = Game::from_position(rules, start);
    for mv in ["c4-c1", "b4-b1", "d4-d5", "g4-g5", "d5-f5", "g5-g6"] {
        game.play_str(mv).unwrap();
    }
    let tags = vec![
        ("attackers".to_string(), "Ann".to_string()),
        ("defenders".to_string(), "Bo\nLine".to_string()),
    ];
    let text = otg::write(&game, &tags);
    assert!(
        text.contains("[position:/3t3/7/3T3/1tTK2t/7/3t3/3t3/]"),
        "{text}"
    );
    assert!(text.contains("[to-move:defenders]"), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("[rules:dim:7")),
        "{text}"
    );
    let (read, read_tags) = otg::read(&text).unwrap();
    assert_eq!(read.start_position(), game.start_position());
    assert_eq!(read.history(), game.history());
    assert_eq!(read_tags[0], ("attackers".to_string(), "Ann".to_string()));
    assert_eq!(
        read_tags[1],
        ("defenders".to_string(), "Bo Line".to_string())
    );
}

#[test]
fn finished_games_get_result_and_info_symbols() {
    let rules = variant("copenhagen").unwrap().rules();
    let start = tafl_engine::Position::from_opentafl(
        "/11/1t9/T10/11/11/5K5/11/11/11/11/11/",
        Side::Defenders,
    )
    .unwrap();
    let mut game = Game::from_position(rules, start);
    game.play_str("f6-f11").unwrap();
    game.play_str("b2-b3").unwrap();
    game.play_str("f11-a11").unwrap();
    let text = otg::write(&game, &[]);
    assert!(text.contains("[result:-1]"), "{text}");
    assert!(text.contains("Kf11-a11--"), "{text}");
    let (read, _) = otg::read(&text).unwrap();
    assert_eq!(read.outcome(), game.outcome());
}

#[test]
fn read_errors_are_typed_and_name_the_problem() {
    let rules =
        "[rules:dim:7 surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n";
    assert_eq!(otg::read("1. d2-e2\n").unwrap_err(), OtgError::MissingRules);
    assert!(matches!(
        otg::read("[rules:dim:5 start:/5/]"),
        Err(OtgError::Rules(_))
    ));
    assert!(matches!(
        otg::read("[rules:dim:7\n"),
        Err(OtgError::Unclosed { line: 1 })
    ));
    assert!(matches!(
        otg::read("[no colon here]\n"),
        Err(OtgError::BadTag { line: 1, .. })
    ));
    assert!(matches!(
        otg::read(&format!("{rules}\nhello world\n")),
        Err(OtgError::BadLine { line: 3, .. })
    ));
    assert!(matches!(
        otg::read(&format!("{rules}\n1. d2-q9\n")),
        Err(OtgError::Notation { line: 3, .. })
    ));
    assert_eq!(
        otg::read(&format!("{rules}\n1. d2-e2 d3-d1\n")).unwrap_err(),
        OtgError::Illegal {
            line: 3,
            ply: 2,
            text: "d3-d1".to_string(),
            error: MoveError::Blocked {
                at: Square::parse("d1", 7).unwrap()
            },
        }
    );
    assert!(matches!(
        otg::read(&format!("{rules}\n1. d2-e2xd3\n")),
        Err(OtgError::Captures { ply: 1, .. })
    ));
    assert!(matches!(
        otg::read(&format!("{rules}\n1. --- d2-e2\n")),
        Err(OtgError::AfterEnd { .. })
    ));
    assert!(matches!(
        otg::read(&format!("[position:/3t3/]\n{rules}")),
        Err(OtgError::Position(_))
    ));
}

#[test]
fn a_records_header_is_read_without_its_moves() {
    let text = "[event:Club]\n\n[rules:dim:7 start:/7/7/7/3K3/7/7/7/]\n1. d4-d1 zz\n[not:a tag]\n";
    assert_eq!(
        otg::read_header(text).unwrap(),
        vec![
            ("event".to_string(), "Club".to_string()),
            (
                "rules".to_string(),
                "dim:7 start:/7/7/7/3K3/7/7/7/".to_string()
            ),
        ],
        "the tags before the first turn; the turns after are not read"
    );
    assert!(matches!(
        otg::read_header("[rules:dim:7\n"),
        Err(OtgError::Unclosed { line: 1 })
    ));
}
