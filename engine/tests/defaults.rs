//! docs/rules.md, "Defaults (where a source says nothing)", checked on the presets whose rule
//! source is silent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{DrawReason, Outcome, Side, WinReason};

/// docs/rules.md, R-default-repetition: if the source has no repetition rule, the third
/// occurrence of the same position with the same side to move is a draw (sources 000, 001, 002).
#[test]
fn defaults_third_repetition_is_a_draw_where_the_file_is_silent() {
    for id in [
        "tablut-castle",
        "tablut-castle-open",
        "tablut-linnaeus",
        "tablut-linnaeus-corner",
        "tablut-linnaeus-edge",
        "slavic-9",
        "slavic-13",
    ] {
        let d = rules(id).dim();
        let (t1, t2) = (at(d - 2, 1), at(d - 2, 2));
        let mut g = game(id, &format!("tb2 T{t1} Kd2"), rules(id).first_to_move());
        let attacker = ["b2-b3", "b3-b2"];
        let defender = [format!("{t1}-{t2}"), format!("{t2}-{t1}")];
        for ply in 0..8 {
            let mv = if g.side_to_move() == Side::Attackers {
                attacker[(ply / 2) % 2].to_string()
            } else {
                defender[(ply / 2) % 2].clone()
            };
            let report = play(&mut g, &mv);
            if ply < 7 {
                assert_eq!(report.outcome, None, "{id} ply {ply}");
            } else {
                assert_eq!(
                    report.outcome,
                    Some(Outcome::Draw {
                        reason: DrawReason::Repetition
                    }),
                    "{id}"
                );
            }
        }
    }
}

/// docs/rules.md, R-default-no-move: no legal move on your turn: you lose (sources 000 and 001,
/// which say nothing).
#[test]
fn defaults_no_legal_move_loses() {
    for id in [
        "tablut-castle",
        "tablut-castle-open",
        "slavic-9",
        "slavic-13",
    ] {
        let d = rules(id).dim();
        let king = format!("K{}", at(d - 2, d - 2));
        let mut g = game(id, &format!("tb1 Tc1 Tb4 {king}"), Side::Defenders);
        let report = play(&mut g, "b4-b2");
        assert!(captured(&report).is_empty(), "{id}");
        // b1's other way out is a1: free on the 000 boards (so no win), a corner in 001.
        if id.starts_with("slavic") {
            assert_eq!(
                win(&report),
                Some((Side::Defenders, WinReason::NoLegalMoves)),
                "{id}"
            );
        } else {
            assert_eq!(report.outcome, None, "{id}");
            let mut g = game(id, &format!("ta1 Ta2 Td1 {king}"), Side::Defenders);
            assert_eq!(
                win(&play(&mut g, "d1-b1")),
                Some((Side::Defenders, WinReason::NoLegalMoves)),
                "{id}"
            );
        }
    }
}

/// docs/rules.md, R-default-king-armed: the king is armed (may help capture) unless the source says
/// otherwise (all presets from sources 000, 001, 003 and 004; source 002 says "The King cannot take
/// part in captures")
#[test]
fn defaults_king_is_armed() {
    for id in [
        "tablut",
        "brandubh",
        "ard-ri",
        "tawlbwrdd",
        "hnefatafl-13",
        "hnefatafl-15",
        "tablut-castle",
        "tablut-castle-open",
        "slavic-9",
        "slavic-13",
    ] {
        let d = rules(id).dim();
        let x = format!("t{} T{}", at(d - 3, d - 2), at(d - 2, d - 2));
        let mut g = game(id, &format!("Tc2 tc3 Kd4 {x}"), Side::Defenders);
        assert_eq!(
            captured(&play(&mut g, "d4-c4")),
            ["c3"],
            "{id}: the king captures"
        );
        let mut g = game(id, &format!("Kc2 tc3 Td4 {x}"), Side::Defenders);
        assert_eq!(
            captured(&play(&mut g, "d4-c4")),
            ["c3"],
            "{id}: the king is the anvil"
        );
    }
}
