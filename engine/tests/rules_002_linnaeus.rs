//! Source 002 of docs/rules.md (Linnaeus' Tablut; docs/rules.md, Tablut (Linnaeus)), presets
//! `tablut-linnaeus` (edge escape), `tablut-linnaeus-corner` (corner escape) and
//! `tablut-linnaeus-edge` (corner escape, and the king also captured by three attackers and the
//! board edge). "Black" are the attackers, "White" the king's side. Every test quotes the sentence
//! it checks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{MoveError, Piece, RestrictedAction, Side, WinReason};

const ALL: [&str; 3] = [
    "tablut-linnaeus",
    "tablut-linnaeus-corner",
    "tablut-linnaeus-edge",
];

/// 002: "The game is played on a 9 square by 9 square board." "The Attacker Side (Black)
/// starts with 16 stones." "The Defender Side (White) starts with 9 playing pieces. The central
/// piece is called the King." and "the outer forcesutilize twice the number of pieces as do the
/// inner" "the player conducting the inner forces has one extra piece, which begins the game on
/// the central cell."
#[test]
fn file_002_board_and_pieces() {
    for id in ALL {
        let r = rules(id);
        let start = r.start_position();
        assert_eq!(r.dim(), 9, "{id}");
        assert_eq!(start.count(Piece::Attacker), 16, "{id}");
        assert_eq!(
            start.count(Piece::Defender) + start.count(Piece::King),
            9,
            "{id}"
        );
        assert_eq!(
            start.count(Piece::Attacker),
            2 * start.count(Piece::Defender),
            "{id}"
        );
        assert_eq!(start.king(), Some(sq("e5")), "{id}");
        assert!(r.is_throne(sq("e5")), "{id}");
    }
}

/// 002: "The Wihie moves first, after the players make alternate moves"
#[test]
fn file_002_white_moves_first_then_alternate() {
    for id in ALL {
        let mut g = tafl_engine::Game::new(rules(id));
        assert_eq!(g.side_to_move(), Side::Defenders, "{id}");
        assert!(
            matches!(refused(&g, "a4-b4"), MoveError::NotYourPiece { .. }),
            "{id}"
        );
        play(&mut g, "e3-b3");
        assert_eq!(g.side_to_move(), Side::Attackers, "{id}");
        assert!(
            matches!(refused(&g, "e4-d4"), MoveError::NotYourPiece { .. }),
            "{id}"
        );
        play(&mut g, "a4-a2");
        assert_eq!(g.side_to_move(), Side::Defenders, "{id}");
    }
}

/// 002: "All stones can move along any adjoining orthogonal (as rook in chess) as far as
/// desired, but can neither capture nor pass obstructing pieces of any variety."
#[test]
fn file_002_rook_moves_no_jumping() {
    for id in ALL {
        let g = game(id, "Tb2 tb6 Tg2 Kh8 th4", D);
        assert!(legal(&g, "b2-b5"), "{id}");
        assert!(legal(&g, "b2-f2"), "{id}");
        assert_eq!(
            refused(&g, "b2-b7"),
            MoveError::Blocked { at: sq("b6") },
            "{id}"
        );
        assert_eq!(
            refused(&g, "b2-h2"),
            MoveError::Blocked { at: sq("g2") },
            "{id}"
        );
        assert_eq!(
            refused(&g, "b2-b6"),
            MoveError::Blocked { at: sq("b6") },
            "{id}: no capture by landing"
        );
        assert!(
            matches!(refused(&g, "b2-c3"), MoveError::NotStraight { .. }),
            "{id}"
        );
    }
}

/// 002: "An opponent's piece is captured when a player's piece finishes its move such that it
/// orthogonally sandwiches the opponent's piece between itself and another friendly piece."
#[test]
fn file_002_custodial_capture() {
    for id in ALL {
        let mut g = game(id, "Tb3 tc3 Td1 Kh8 th6", D);
        assert_eq!(captured(&play(&mut g, "d1-d3")), ["c3"], "{id}");
        let mut g = game(id, "tb3 Tc3 td1 Kh8 Th6", A);
        assert_eq!(captured(&play(&mut g, "d1-d3")), ["c3"], "{id}");
    }
}

/// 002: "The King cannot take part in captures"
#[test]
fn file_002_king_takes_no_part_in_captures() {
    for id in ALL {
        // Not as the moving piece.
        let mut g = game(id, "Tb3 tc3 Kd2 th6 Th8", D);
        assert!(captured(&play(&mut g, "d2-d3")).is_empty(), "{id}");
        // Not as the other side of the trap.
        let mut g = game(id, "Kb3 tc3 Td1 th6 Th8", D);
        assert!(captured(&play(&mut g, "d1-d3")).is_empty(), "{id}");
        assert_eq!(piece(&g, "c3"), Some(Piece::Attacker), "{id}");
    }
}

/// 002: "To capture the King: The king must surround it on all four sides." and "To win the game
/// Black must capture the King."
#[test]
fn file_002_king_captured_by_four() {
    for id in ALL {
        let mut g = game(id, "Kc3 tb3 td3 tc4 tc1 Th8", A);
        assert_eq!(
            win(&play(&mut g, "c1-c2")),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
        let mut g = game(id, "Kc3 tb3 tc4 td1 Th8", A);
        assert_eq!(
            play(&mut g, "d1-d3").outcome,
            None,
            "{id}: two or three are not enough"
        );
        let mut g = game(id, "Kc3 tb3 tc1 Th8", A);
        assert_eq!(play(&mut g, "c1-c2").outcome, None, "{id}");
    }
}

/// 002: "it is possible for Black to capture the King by surrounding it on three sides if on
/// the fourth side the adjacent square is the center."
#[test]
fn file_002_king_captured_by_three_and_the_centre() {
    for id in ALL {
        let mut g = game(id, "Ke4 td4 tf4 ta3 Th8", A);
        assert_eq!(
            win(&play(&mut g, "a3-e3")),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
        let mut g = game(id, "Kd5 td6 td4 ta1 Th8", A);
        assert_eq!(play(&mut g, "a1-a5").outcome, None, "{id}");
        play(&mut g, "h8-h7");
        assert_eq!(
            win(&play(&mut g, "a5-c5")),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
    }
}

/// 002: "by three soldiers and a board edge (This rule is valid only in some variants)"
#[test]
fn file_002_king_by_three_and_the_edge_only_in_the_edge_option() {
    let mut g = game("tablut-linnaeus-edge", "Kc1 tb1 td1 ta2 Th8", A);
    assert_eq!(
        win(&play(&mut g, "a2-c2")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game("tablut-linnaeus-corner", "Kc1 tb1 td1 ta2 Th8", A);
    assert_eq!(play(&mut g, "a2-c2").outcome, None);
    // Against the edge, two opposite attackers still do not capture.
    let mut g = game("tablut-linnaeus-edge", "Kc1 tb1 td2 Th8", A);
    assert_eq!(play(&mut g, "d2-d1").outcome, None);
}

/// 002: "To win the game White must move the King to the perimeter of the board."
#[test]
fn file_002_king_wins_on_the_perimeter() {
    for target in ["c1", "a3", "c9", "i3"] {
        let mut g = game("tablut-linnaeus", "Kc3 th6 Th8", D);
        assert_eq!(
            win(&play(&mut g, &format!("c3-{target}"))),
            Some((Side::Defenders, WinReason::KingEscaped))
        );
    }
}

/// 002: "The white wins when the King reach the corner square." (the corner option)
#[test]
fn file_002_corner_option_king_wins_on_a_corner_only() {
    for id in ["tablut-linnaeus-corner", "tablut-linnaeus-edge"] {
        let mut g = game(id, "Kc3 th6 Th8", D);
        assert_eq!(play(&mut g, "c3-c1").outcome, None, "{id}");
        play(&mut g, "h6-h5");
        assert_eq!(
            win(&play(&mut g, "c1-a1")),
            Some((Side::Defenders, WinReason::KingEscaped)),
            "{id}"
        );
        let g = game(id, "tb1 Kc3 Th8", A);
        assert_eq!(
            refused(&g, "b1-a1"),
            MoveError::Restricted {
                square: sq("a1"),
                piece: Piece::Attacker,
                action: RestrictedAction::StopOn
            },
            "{id}: only the king may stop on a corner"
        );
    }
}

/// 002: "If a player has no further move than player loses the game."
#[test]
fn file_002_no_move_loses() {
    for id in ALL {
        // The attackers' only stone boxed in (on a1, or on b1 beside a corner only the king may
        // enter).
        let (pieces, mv) = if id == "tablut-linnaeus" {
            ("ta1 Ta2 Td1 Kh8", "d1-b1")
        } else {
            ("tb1 Tb2 Td1 Kh8", "d1-c1")
        };
        let mut g = game(id, pieces, D);
        let report = play(&mut g, mv);
        assert!(captured(&report).is_empty(), "{id}");
        assert_eq!(
            win(&report),
            Some((Side::Defenders, WinReason::NoLegalMoves)),
            "{id}"
        );
    }
}

/// 002: "After the King left the central square no stone, including the King, may occupy that
/// square."
#[test]
fn file_002_nobody_occupies_the_centre_after_the_king_left() {
    for id in ALL {
        let mut g = game(id, "Ke5 Td3 tb4 th6", D);
        play(&mut g, "e5-e4");
        play(&mut g, "b4-b5");
        assert_eq!(
            refused(&g, "e4-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: Piece::King,
                action: RestrictedAction::ReEnter
            },
            "{id}"
        );
        play(&mut g, "d3-d5");
        assert_eq!(
            refused(&g, "b5-e5"),
            MoveError::Blocked { at: sq("d5") },
            "{id}"
        );
        play(&mut g, "b5-b6");
        assert_eq!(
            refused(&g, "d5-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: Piece::Defender,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
        let g = game(id, "tb5 Kh8 Th7", A);
        assert_eq!(
            refused(&g, "b5-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: Piece::Attacker,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
    }
}

/// 002: "Any piece may freely pass over the free central stone"
#[test]
fn file_002_all_pass_over_the_empty_centre() {
    for id in ALL {
        let g = game(id, "te3 Tb5 Kd2 th8", A);
        assert!(legal(&g, "e3-e8"), "{id}");
        let g = game(id, "te3 Tb5 Kd2 th8", D);
        assert!(legal(&g, "b5-h5"), "{id}");
        let g = game(id, "te3 Tb6 Kb5 th8", D);
        assert!(legal(&g, "b5-h5"), "{id}");
    }
}

/// 002: "Stones may not be captured on their own turn (for example a white piece may move
/// between two black pieces without being killed)."
#[test]
fn file_002_moving_between_two_enemies_is_safe() {
    for id in ALL {
        let mut g = game(id, "tb3 td3 Tc1 Kh8 th6", D);
        assert!(captured(&play(&mut g, "c1-c3")).is_empty(), "{id}");
        play(&mut g, "h6-h5");
        assert_eq!(piece(&g, "c3"), Some(Piece::Defender), "{id}");
    }
}
