//! Perft suites kept as data files under tests/perft, as chess libraries keep .perft files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::{Rules, Side, perft::perft, variant};

struct Case {
    id: String,
    rules: Rules,
    position: Option<String>,
    to_move: Option<Side>,
    checks: Vec<(u32, u64, bool)>,
}

fn load(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut id = String::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = value.to_string(),
            "variant" => cases.push(Case {
                id: id.clone(),
                rules: variant(value)
                    .unwrap_or_else(|| panic!("no variant {value}"))
                    .rules(),
                position: None,
                to_move: None,
                checks: Vec::new(),
            }),
            "rules" => cases.push(Case {
                id: id.clone(),
                rules: Rules::from_opentafl(value).unwrap(),
                position: None,
                to_move: None,
                checks: Vec::new(),
            }),
            "position" => cases.last_mut().unwrap().position = Some(value.to_string()),
            "to-move" => cases.last_mut().unwrap().to_move = Some(value.parse().unwrap()),
            "perft" | "slow" => {
                let words: Vec<&str> = line.split_whitespace().collect();
                let slow = key == "slow";
                let (depth, count) = if slow {
                    (words[2], words[3])
                } else {
                    (words[1], words[2])
                };
                cases.last_mut().unwrap().checks.push((
                    depth.parse().unwrap(),
                    count.parse().unwrap(),
                    slow,
                ));
            }
            other => panic!("unknown perft file key {other}"),
        }
    }
    cases
}

#[test]
fn start_positions_match_independent_engines() {
    let run_slow = std::env::var("TAFL_PERFT_SLOW").is_ok();
    for case in load(include_str!("perft/start_positions.perft")) {
        let mut position = case.rules.start_position();
        if let Some(record) = &case.position {
            let side = case.to_move.unwrap_or(case.rules.first_to_move());
            position = tafl_engine::Position::from_opentafl(record, side).unwrap();
        }
        // Every position of an independent engine's table is one a game can start from.
        assert_eq!(
            tafl_engine::check_start(&case.rules, &position),
            Ok(()),
            "{} cannot start",
            case.id
        );
        for &(depth, expected, slow) in &case.checks {
            if slow && !run_slow {
                continue;
            }
            let found = perft(&case.rules, &position, depth);
            assert_eq!(found, expected, "{} perft({depth})", case.id);
        }
    }
}
