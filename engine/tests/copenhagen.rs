//! The `copenhagen` preset: the World Tafl Federation's Copenhagen rules (aagenielsen.dk), not
//! among the numbered rule sources; docs/rules.md, Copenhagen: corner escape, shieldwall capture,
//! exit (edge) forts, encirclement, king captured by 4 or 3 + throne, armed king.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Game, MoveError, Piece, RestrictedAction, Side, WinReason};

const ID: &str = "copenhagen";

/// "The attackers' side moves first"; 24 attackers, 12 defenders and the king on f6.
#[test]
fn copenhagen_start() {
    let g = Game::new(rules(ID));
    assert_eq!(g.side_to_move(), Side::Attackers);
    assert_eq!(g.position().count(Piece::Attacker), 24);
    assert_eq!(g.position().count(Piece::Defender), 12);
    assert_eq!(g.position().king(), Some(sq("f6")));
    assert_eq!(g.legal_moves().len(), 116);
}

/// "The king wins the game if he reaches one of the corner squares." The rest of the edge is
/// no escape.
#[test]
fn copenhagen_corner_escape_only() {
    let mut g = game(ID, "Kc1 Th8 tb9", Side::Defenders);
    assert_eq!(play(&mut g, "c1-e1").outcome, None);
    let mut g = game(ID, "Kc1 Th8 tb9", Side::Defenders);
    assert_eq!(
        win(&play(&mut g, "c1-a1")),
        Some((Side::Defenders, WinReason::KingEscaped))
    );
}

/// "The central square, called the throne, and the four squares in the corners are restricted
/// and may only be occupied by the king. ... all pieces may pass through the throne when it is
/// empty." "The four corner squares are hostile to all pieces"
#[test]
fn copenhagen_restricted_and_hostile_squares() {
    let g = game(ID, "tb1 tb6 Kh9 Th8", Side::Attackers);
    assert_eq!(
        refused(&g, "b1-a1"),
        MoveError::Restricted {
            square: sq("a1"),
            piece: Piece::Attacker,
            action: RestrictedAction::StopOn
        }
    );
    assert_eq!(
        refused(&g, "b6-f6"),
        MoveError::Restricted {
            square: sq("f6"),
            piece: Piece::Attacker,
            action: RestrictedAction::StopOn
        }
    );
    assert!(legal(&g, "b6-j6"));
    let mut g = game(ID, "tb1 Td1 Kh9 th8", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "d1-c1")), ["b1"]);
    let mut g = game(ID, "Ta2 tc3 Kh9 Th8", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "c3-a3")), ["a2"]);
}

/// "The king is captured when the attackers surround him on all four sides" or on three sides
/// and the empty throne; two attackers do not capture him, and on the edge he cannot be
/// captured.
#[test]
fn copenhagen_king_captured_by_four_or_three_and_throne() {
    let mut g = game(ID, "Kc3 tb3 td3 tc4 ta2 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "a2-c2")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game(ID, "Kc3 tb3 ta2 Th8", Side::Attackers);
    assert_eq!(play(&mut g, "a2-c2").outcome, None);
    let mut g = game(ID, "Kf5 te5 tg5 ta4 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "a4-f4")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game(ID, "Kc1 tb1 tc2 te1 Th8", Side::Attackers);
    assert_eq!(play(&mut g, "e1-d1").outcome, None);
}

/// "The king may take part in captures."
#[test]
fn copenhagen_king_is_armed() {
    let mut g = game(ID, "Tc2 tc3 Kd4 th8", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "d4-c4")), ["c3"]);
    let mut g = game(ID, "Kc2 tc3 Td4 th8", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "d4-c4")), ["c3"]);
}

/// "A row of two or more taflmen along the board edge may be captured together, by bracketing
/// the whole group at both ends, as long as every member of the row is sandwiched between a
/// hostile square and an enemy directly in front. A corner square may stand in for a bracketing
/// piece at one end of the row. ... The king may take part in a shieldwall capture, but if he
/// is in the row, he is not captured."
#[test]
fn copenhagen_shieldwall() {
    let mut g = game(ID, "Tc1 Td1 tc2 td2 tb1 te3 Kh9 Th8", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "e3-e1")), ["c1", "d1"]);
    // A corner brackets one end.
    let mut g = game(ID, "Tb1 Tc1 tb2 tc2 te1 Kh9 Th8", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "e1-d1")), ["b1", "c1"]);
    // The king in the row survives; the defenders beside him do not.
    let mut g = game(ID, "Tc1 Kd1 tc2 td2 tb1 te3 Th8", Side::Attackers);
    let report = play(&mut g, "e3-e1");
    assert_eq!(captured(&report), ["c1"]);
    assert_eq!(g.position().king(), Some(sq("d1")));
    // The capturing move must close one end: moving in front of the row does not capture.
    let mut g = game(ID, "Tc1 Td1 tc2 tb1 te1 td4 Kh9 Th8", Side::Attackers);
    assert!(captured(&play(&mut g, "d4-d2")).is_empty());
    // Defenders capture attackers' rows too, the king helping.
    let mut g = game(ID, "tc1 td1 Tc2 Kd2 Tb1 Te3 th8", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "e3-e1")), ["c1", "d1"]);
}

/// "If the king has contact with the board edge, is able to move, and it is impossible for the
/// attackers to break the fort, the defenders win." (exit fort)
#[test]
fn copenhagen_exit_fort_wins() {
    let fort = "Td1 Tf1 Td2 Tf2 Td3 Te3 Tf3 ta6 tk6";
    let mut g = game(ID, &format!("Ke2 {fort}"), Side::Defenders);
    assert_eq!(
        win(&play(&mut g, "e2-e1")),
        Some((Side::Defenders, WinReason::EdgeFort))
    );
    // A fort the attackers can break (e3 can be taken from d3 and f3) does not win.
    let mut g = game(ID, "Ke2 Td1 Tf1 Td2 Tf2 Te3 ta6 tk6", Side::Defenders);
    assert_eq!(play(&mut g, "e2-e1").outcome, None);
}

/// "The attackers win if they surround the king and all his defenders with an unbroken ring."
#[test]
fn copenhagen_encirclement() {
    let mut g = game(ID, "Kd4 Td5 tc4 tc5 te5 te4 td3 td7", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "d7-d6")),
        Some((Side::Attackers, WinReason::Encirclement))
    );
    let mut g = game(ID, "Kd4 Td5 tc4 tc5 te5 td3 td7", Side::Attackers);
    assert_eq!(play(&mut g, "d7-d6").outcome, None);
}

/// Repetition: the WTF text says "Perpetual repetitions are forbidden. Any perpetual repetition
/// results in a loss for white": the third occurrence loses for the defenders, whichever side
/// made the repeating move (preset key `xrdl:y`).
#[test]
fn copenhagen_repetition_loses_for_the_defenders_whoever_repeats() {
    for (to_move, cycle) in [
        (Side::Attackers, ["b8-b7", "c7-c6", "b7-b8", "c6-c7"]),
        (Side::Defenders, ["c7-c6", "b8-b7", "c6-c7", "b7-b8"]),
    ] {
        let mut g = game(ID, "tb8 Kh2 Tc7 Th6", to_move);
        for ply in 0..8 {
            let report = play(&mut g, cycle[ply % 4]);
            if ply == 7 {
                assert_eq!(
                    win(&report),
                    Some((Side::Attackers, WinReason::Repetition)),
                    "third repetition made by the {}",
                    report.side
                );
            } else {
                assert_eq!(report.outcome, None);
            }
        }
    }
}
