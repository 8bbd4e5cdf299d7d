//! The referee's report names the king's capture apart from the soldiers taken: a captured
//! king stays on his square, so he is never in `captures`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Side, WinReason};

#[test]
fn the_move_that_captures_the_king_names_his_square() {
    let mut g = game("copenhagen", "Kc3 tb3 td3 tc4 ta2 Th8", Side::Attackers);
    let report = play(&mut g, "a2-c2");
    assert_eq!(
        win(&report),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    assert_eq!(report.king_captured, Some(sq("c3")));
    assert!(report.captures.is_empty(), "the king stays on the board");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["king_captured"], "c3");
}

#[test]
fn other_moves_capture_no_king() {
    let mut g = game("copenhagen", "Kc3 tb3 ta2 Th8", Side::Attackers);
    let report = play(&mut g, "a2-c2");
    assert_eq!(report.king_captured, None);
    // Soldiers taken are captures, not the king.
    let mut g = game("copenhagen", "Tc2 tc3 Kd4 th8", Side::Defenders);
    let report = play(&mut g, "d4-c4");
    assert_eq!(captured(&report), ["c3"]);
    assert_eq!(report.king_captured, None);
}

/// Under rescue rules the capture is reported on the attackers' move, before the outcome; the
/// defenders' failed rescue ends the game without capturing him again.
#[test]
fn a_king_awaiting_rescue_was_captured_by_the_attackers_move() {
    let d = rules("slavic-9").dim();
    let extras = format!("T{} t{}", at(d - 2, d - 2), at(d - 3, d - 2));
    let mut g = game(
        "slavic-9",
        &format!("Kc3 tb3 td4 {extras}"),
        Side::Attackers,
    );
    let report = play(&mut g, "d4-d3");
    assert_eq!(report.outcome, None);
    assert_eq!(report.king_captured, Some(sq("c3")));
    let idle = format!("{}-{}", at(d - 2, d - 2), at(d - 2, d - 3));
    let report = play(&mut g, &idle);
    assert_eq!(
        win(&report),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    assert_eq!(report.king_captured, None);
}
