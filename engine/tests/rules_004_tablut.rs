//! Source 004 of docs/rules.md (www.KVASIRTHESEER.com Tablut; docs/rules.md, Tablut family),
//! preset `tablut`. Every test quotes the
//! sentence it checks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Game, MoveError, Piece, RestrictedAction, Side, WinReason};

const ID: &str = "tablut";

/// 004: "Board size 9x9 squares. Two players: the King & his Defenders vs the Attackers. There
/// are twice as many Attackers as Defenders."
#[test]
fn file_004_board_and_armies() {
    let r = rules(ID);
    let start = r.start_position();
    assert_eq!(r.dim(), 9);
    assert_eq!(start.count(Piece::Attacker), 16);
    assert_eq!(start.count(Piece::Defender), 8);
    assert_eq!(start.king(), Some(sq("e5")));
}

/// 004: "The Attackers' side moves first, the players then take turns."
#[test]
fn file_004_attackers_first_then_turns() {
    let mut g = Game::new(rules(ID));
    assert_eq!(g.side_to_move(), Side::Attackers);
    assert!(matches!(
        refused(&g, "e3-b3"),
        MoveError::NotYourPiece { .. }
    ));
    play(&mut g, "a4-c4");
    assert_eq!(g.side_to_move(), Side::Defenders);
    assert!(matches!(
        refused(&g, "c4-c2"),
        MoveError::NotYourPiece { .. }
    ));
}

/// 004: "All pieces move any number of vacant squares along a row or a column, just like a
/// rook in chess."
#[test]
fn file_004_rook_moves() {
    let g = game(ID, "Kc3 Tg7 tb8 tc6", Side::Defenders);
    assert!(legal(&g, "g7-g1"));
    assert!(legal(&g, "g7-a7"));
    assert!(legal(&g, "c3-c5"));
    assert_eq!(refused(&g, "c3-c8"), MoveError::Blocked { at: sq("c6") });
    assert!(matches!(
        refused(&g, "c3-d4"),
        MoveError::NotStraight { .. }
    ));
}

/// 004: "All pieces are captured if trapped between two enemy pieces, or between an enemy piece
/// and a hostile square (Castle). The two enemy pieces should be on the square above and below
/// or on the squares left and right of the attacked piece, i.e. not diagonally."
#[test]
fn file_004_captures_between_two_enemies_or_enemy_and_castle() {
    let mut g = game(ID, "tb2 Tc2 td1 Kh8 Th7", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "d1-d2")), ["c2"]);
    let mut g = game(ID, "Tc1 tc2 Ta3 Kh8 th7", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "a3-c3")), ["c2"]);
    // Against the empty castle, an attacker and a defender.
    let mut g = game(ID, "te4 Ta3 Kb8 tb9", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"]);
    let mut g = game(ID, "Te4 ta3 Kb8 Th8", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"]);
    // The king too, away from the castle.
    let mut g = game(ID, "Kc3 tb3 td2 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "d2-d3")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    // Not diagonally.
    let mut g = game(ID, "tb2 Tc3 td1 Kh8 Th7", Side::Attackers);
    assert!(captured(&play(&mut g, "d1-d4")).is_empty());
}

/// 004: "A piece is only captured if the trap is closed by the aggressor's move, it is
/// therefore permitted to move in between two enemy pieces."
#[test]
fn file_004_moving_in_between_is_permitted() {
    let mut g = game(ID, "tb2 td2 Tc1 Kh8 th7", Side::Defenders);
    assert!(captured(&play(&mut g, "c1-c2")).is_empty());
    play(&mut g, "h7-h6");
    assert_eq!(piece(&g, "c2"), Some(Piece::Defender));
}

/// 004: "The central square is a restricted square called the Castle. The King may re-enter
/// his Castle after he leaves it, and all pieces may pass through the Castle when it is empty,
/// but only the King may end its move in the Castle."
#[test]
fn file_004_castle_king_reenters_all_pass_only_king_stops() {
    let mut g = game(ID, "Ke5 Th8 ta9", Side::Defenders);
    play(&mut g, "e5-e2");
    play(&mut g, "a9-a8");
    assert!(legal(&g, "e2-e5"));
    assert!(legal(&g, "e2-e8"));
    for (pieces, side, kind) in [
        ("ta5 Kh8 Th7", Side::Attackers, Piece::Attacker),
        ("Ta5 Kh8 th7", Side::Defenders, Piece::Defender),
    ] {
        let g = game(ID, pieces, side);
        assert!(legal(&g, "a5-i5"));
        assert_eq!(
            refused(&g, "a5-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: kind,
                action: RestrictedAction::StopOn
            }
        );
    }
}

/// 004: "The Castle is hostile, which means it can replace one of the two pieces taking part in
/// a capture. The Castle is always hostile to the Attackers, but only hostile to the Defenders
/// when it is empty."
#[test]
fn file_004_castle_hostile_to_attackers_always_defenders_when_empty() {
    let mut g = game(ID, "Ke5 te4 Ta3 tb9", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"]);
    let mut g = game(ID, "Ke5 Te4 ta3 Th8", Side::Attackers);
    assert!(captured(&play(&mut g, "a3-e3")).is_empty());
    let mut g = game(ID, "Kb8 Te4 ta3 Th8", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"]);
}

/// 004: "The board edge is NOT hostile."
#[test]
fn file_004_board_edge_is_not_hostile() {
    let mut g = game(ID, "Ta3 tc3 Kh8 Th7", Side::Attackers);
    assert!(captured(&play(&mut g, "c3-b3")).is_empty());
    let mut g = game(ID, "ta3 Tc3 Kh8 th7", Side::Defenders);
    assert!(captured(&play(&mut g, "c3-b3")).is_empty());
    let mut g = game(ID, "Tc1 te1 Kh8 th7", Side::Attackers);
    assert!(captured(&play(&mut g, "e1-d1")).is_empty());
}

/// 004: "If the King reaches the any square along the board edge, then the King has escaped
/// and the Defenders win."
#[test]
fn file_004_king_escapes_on_any_edge_square() {
    for target in ["c1", "a3", "c9", "i3"] {
        let mut g = game(ID, "Kc3 Th8 tb8", Side::Defenders);
        assert_eq!(
            win(&play(&mut g, &format!("c3-{target}"))),
            Some((Side::Defenders, WinReason::KingEscaped))
        );
    }
}

/// 004: "The Attackers win if they can capture the King. The King can be captured just like all
/// other pieces, except when he is in or next to the Castle. When in the Castle, the Attackers
/// must surround him on four sides (left, right, top, bottom). If the King is on a square next
/// to the Castle, the Attackers must occupy the three remaining squares around him."
#[test]
fn file_004_king_capture_in_next_to_and_away_from_the_castle() {
    let mut g = game(ID, "Ke5 te6 td5 tf5 ta4 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "a4-e4")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game(ID, "Ke5 te6 td5 ta4 Th8", Side::Attackers);
    assert_eq!(play(&mut g, "a4-e4").outcome, None);
    let mut g = game(ID, "Ke4 td4 tf4 ta3 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "a3-e3")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game(ID, "Ke4 td4 tf1 Th8", Side::Attackers);
    assert_eq!(play(&mut g, "f1-f4").outcome, None);
    let mut g = game(ID, "Kc3 tc4 tb2 Th8", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "b2-c2")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

/// 004: "Perpetual repetitions are forbidden. A player who aggressively maintains a board
/// repetition must find another move to break the repetition, or lose the game. ... If a board
/// position is repeated for the third time, "the aggressive player" loses the game."
#[test]
fn file_004_third_repetition_loses_for_the_aggressive_player() {
    // The attackers side-step to find a way through; the defenders keep blocking. The
    // attackers' move that repeats the position a third time loses.
    let mut g = game(ID, "tb8 Kh2 Tc7 Th6", Side::Attackers);
    let cycle = ["b8-b7", "c7-c6", "b7-b8", "c6-c7"];
    for ply in 0..8 {
        let report = play(&mut g, cycle[ply % 4]);
        if ply < 7 {
            assert_eq!(report.outcome, None, "ply {ply}");
        } else {
            assert_eq!(win(&report), Some((Side::Attackers, WinReason::Repetition)));
        }
    }
    // Starting with the defenders, the attackers make the repeating move.
    let mut g = game(ID, "tb8 Kh2 Tc7 Th6", Side::Defenders);
    let cycle = ["c7-c6", "b8-b7", "c6-c7", "b7-b8"];
    for ply in 0..8 {
        let report = play(&mut g, cycle[ply % 4]);
        if ply == 7 {
            assert_eq!(win(&report), Some((Side::Defenders, WinReason::Repetition)));
        } else {
            assert_eq!(report.outcome, None, "ply {ply}");
        }
    }
}

/// 004: "If a player cannot move on his turn, then he immediately loses the game."
#[test]
fn file_004_no_move_loses_at_once() {
    let mut g = game(ID, "ta1 Ta2 Td1 Kh8", Side::Defenders);
    assert_eq!(
        win(&play(&mut g, "d1-b1")),
        Some((Side::Defenders, WinReason::NoLegalMoves))
    );
    // The defenders too: king and men boxed into a corner (on the edge, so not encircled).
    let mut g = game(ID, "Kb2 Ta2 Tb1 ta1 ta3 tc1 tc2 tb5", Side::Attackers);
    let report = play(&mut g, "b5-b3");
    assert!(captured(&report).is_empty());
    assert_eq!(
        win(&report),
        Some((Side::Attackers, WinReason::NoLegalMoves))
    );
}
