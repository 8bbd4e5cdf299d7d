//! Source 001 of docs/rules.md (Viking or Slavic Chess; docs/rules.md, Slavic tafl), presets
//! `slavic-9` (corner escape) and `slavic-13` (any border square but fortresses). Every test quotes
//! the sentence it checks. "White knights" are the attackers, "black" the king's side.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{MoveError, Piece, RestrictedAction, WinReason};

const BOTH: [&str; 2] = ["slavic-9", "slavic-13"];

/// The throne and the squares above, below, left and right of it, by name.
fn throne(id: &str) -> (String, String, String, String, String) {
    let c = rules(id).dim() / 2;
    (
        at(c, c),
        at(c, c + 1),
        at(c, c - 1),
        at(c - 1, c),
        at(c + 1, c),
    )
}

/// A defender and an attacker far from the action, so both sides can always move.
fn extras(id: &str) -> String {
    let d = rules(id).dim();
    format!("T{} t{}", at(d - 2, d - 2), at(d - 3, d - 2))
}

/// 001: "Black knights defend their king (it is located in the central cell - 'throne')" and
/// "White knights are in the 'fortresses' (colored in green) at the beginning of the game"
/// (docs/rules.md, R-001-fortress: the fortresses are the attackers' starting squares;
/// R-default-first-mover: attackers move first).
#[test]
fn file_001_setup_king_on_throne_white_knights_in_their_fortresses() {
    for id in BOTH {
        let r = rules(id);
        let start = r.start_position();
        let (t, ..) = throne(id);
        assert_eq!(start.king(), Some(sq(&t)), "{id}");
        assert!(r.is_throne(sq(&t)), "{id}");
        let attackers: Vec<tafl_engine::Square> = start
            .pieces()
            .filter(|(_, p)| *p == Piece::Attacker)
            .map(|(s, _)| s)
            .collect();
        let fortress: Vec<tafl_engine::Square> = r.attacker_fortresses.squares().collect();
        let mut sorted = attackers.clone();
        sorted.sort();
        let mut fortress_sorted = fortress.clone();
        fortress_sorted.sort();
        assert_eq!(sorted, fortress_sorted, "{id}");
        assert_eq!(start.side_to_move(), tafl_engine::Side::Attackers, "{id}");
        assert!(
            start.count(Piece::Defender) * 2 == start.count(Piece::Attacker),
            "{id}"
        );
    }
}

/// 001: "Black win if they successfully move the king to one of 'rescue cells'" and
/// "9 x 9 - Tablut ... The king should reach any corner cell to win"
#[test]
fn file_001_9x9_king_wins_on_a_corner_only() {
    let mut g = game("slavic-9", &format!("Kb1 {}", extras("slavic-9")), D);
    assert_eq!(
        win(&play(&mut g, "b1-a1")),
        Some((D, WinReason::KingEscaped))
    );
    let mut g = game("slavic-9", &format!("Kc3 {}", extras("slavic-9")), D);
    assert_eq!(win(&play(&mut g, "c3-c1")), None);
    let mut g = game("slavic-9", &format!("Kb3 {}", extras("slavic-9")), D);
    assert_eq!(win(&play(&mut g, "b3-a3")), None);
}

/// 001: "13 x 13 - Hnefatafl ... The king need to reach any border cell (except white
/// fortress cells)"
#[test]
fn file_001_13x13_king_wins_on_any_border_cell_but_fortresses() {
    let r = rules("slavic-13");
    for name in ["a1", "c1", "a3", "m3", "d13", "m13", "j1"] {
        assert!(r.is_escape_square(sq(name)), "{name}");
    }
    for name in ["e1", "g1", "i1", "a5", "a9", "m7", "e13", "i13"] {
        assert!(!r.is_escape_square(sq(name)), "{name} is a fortress square");
    }
    let mut g = game("slavic-13", &format!("Kc3 {}", extras("slavic-13")), D);
    assert_eq!(
        win(&play(&mut g, "c3-c1")),
        Some((D, WinReason::KingEscaped))
    );
    let mut g = game("slavic-13", &format!("Kb3 {}", extras("slavic-13")), D);
    assert_eq!(
        win(&play(&mut g, "b3-a3")),
        Some((D, WinReason::KingEscaped))
    );
    // The king may not even step onto a border fortress square.
    let g = game("slavic-13", &format!("Ke2 {}", extras("slavic-13")), D);
    assert_eq!(
        refused(&g, "e2-e1"),
        MoveError::Fortress {
            square: sq("e1"),
            piece: Piece::King,
            action: RestrictedAction::StopOn
        }
    );
}

/// 001: "White win if they defeat the king before this happens." and "If white attacked the
/// king, black have only 1 move to rescue him. If they fail, white wins."
#[test]
fn file_001_king_captured_then_one_move_to_rescue_else_white_wins() {
    for id in BOTH {
        let x = extras(id);
        // Captured, not rescued: the defenders' next move decides.
        let mut g = game(id, &format!("Kc3 tb3 td4 {x}"), A);
        let report = play(&mut g, "d4-d3");
        assert_eq!(report.outcome, None, "{id}: the rescue move comes first");
        assert!(g.position().king_awaits_rescue(), "{id}");
        let d = rules(id).dim();
        let idle = format!("{}-{}", at(d - 2, d - 2), at(d - 2, d - 3));
        let report = play(&mut g, &idle);
        assert_eq!(win(&report), Some((A, WinReason::KingCaptured)), "{id}");

        // Rescued by stepping out of the trap.
        let mut g = game(id, &format!("Kc3 tb3 td4 {x}"), A);
        play(&mut g, "d4-d3");
        let report = play(&mut g, "c3-c2");
        assert_eq!(report.outcome, None, "{id}");
        assert!(!g.position().king_awaits_rescue(), "{id}");

        // Rescued by capturing one of the captors (the king is the anvil).
        let mut g = game(id, &format!("Kc3 tb3 td4 Ta2 {x}"), A);
        play(&mut g, "d4-d3");
        let report = play(&mut g, "a2-a3");
        assert_eq!(captured(&report), ["b3"], "{id}");
        assert_eq!(report.outcome, None, "{id}");
        assert!(!g.is_over(), "{id}");

        // No move at all to rescue him: white wins at once.
        let mut g = game(id, "Kc3 tb3 tc4 tc2 td4", A);
        let report = play(&mut g, "d4-d3");
        assert_eq!(win(&report), Some((A, WinReason::KingCaptured)), "{id}");
    }
}

/// 001: "All knights move like a rook from ordinary chess (horizontally and vertically)"
#[test]
fn file_001_knights_move_like_rooks() {
    for id in BOTH {
        let x = extras(id);
        let g = game(id, &format!("Kc4 Td2 tb3 {x}"), D);
        assert!(legal(&g, "d2-d4"), "{id}");
        assert!(legal(&g, "d2-d8"), "{id}: no speed limit for knights");
        assert!(
            matches!(refused(&g, "d2-c3"), MoveError::NotStraight { .. }),
            "{id}"
        );
        let g = game(id, &format!("Kc4 Td2 tb3 {x}"), A);
        assert!(legal(&g, "b3-b2"), "{id}");
        assert!(legal(&g, "b3-d3"), "{id}");
    }
}

/// 001: "King can move 3 cells maximum"
#[test]
fn file_001_king_moves_at_most_three_cells() {
    for id in BOTH {
        let g = game(id, &format!("Kc2 {}", extras(id)), D);
        assert!(legal(&g, "c2-c5"), "{id}");
        assert_eq!(
            refused(&g, "c2-c6"),
            MoveError::SpeedLimit {
                piece: Piece::King,
                limit: 3,
                distance: 4
            },
            "{id}"
        );
        assert!(
            !g.legal_moves_from(sq("c2"))
                .contains(&tafl_engine::Move::new(sq("c2"), sq("c7")))
        );
    }
}

/// 001: "Knights and the king cannot jump over other ones and the throne"
#[test]
fn file_001_nobody_jumps_over_pieces_or_the_throne() {
    for id in BOTH {
        let (t, up, down, left, _) = throne(id);
        let x = extras(id);
        let g = game(id, &format!("Kc2 Tc3 tb2 {x}"), D);
        assert_eq!(
            refused(&g, "c2-c4"),
            MoveError::Blocked { at: sq("c3") },
            "{id}"
        );
        // Over the empty throne, vertically: a defender and an attacker.
        let below2 = {
            let s = sq(&down);
            at(s.file(), s.rank() - 1)
        };
        let above2 = {
            let s = sq(&up);
            at(s.file(), s.rank() + 1)
        };
        let g = game(id, &format!("T{below2} t{left} Kc2 {x}"), D);
        assert_eq!(
            refused(&g, &format!("{below2}-{above2}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::Defender,
                action: RestrictedAction::PassThrough
            },
            "{id}"
        );
        let g = game(id, &format!("t{below2} T{left} Kc2 {x}"), A);
        assert_eq!(
            refused(&g, &format!("{below2}-{above2}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::Attacker,
                action: RestrictedAction::PassThrough
            },
            "{id}"
        );
        // The king too, within his three squares.
        let g = game(id, &format!("K{down} {x}"), D);
        assert_eq!(
            refused(&g, &format!("{down}-{up}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::King,
                action: RestrictedAction::PassThrough
            },
            "{id}"
        );
    }
}

/// 001: "Knights and the king (once it steps away from the throne) cannot be placed to the
/// throne"
#[test]
fn file_001_nobody_stops_on_the_throne_king_not_after_leaving() {
    for id in BOTH {
        let (t, _, down, left, _) = throne(id);
        let x = extras(id);
        let mut g = game(id, &format!("K{t} {x}"), D);
        play(&mut g, &format!("{t}-{down}"));
        let d = rules(id).dim();
        play(
            &mut g,
            &format!("{}-{}", at(d - 3, d - 2), at(d - 3, d - 3)),
        );
        assert_eq!(
            refused(&g, &format!("{down}-{t}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::King,
                action: RestrictedAction::ReEnter
            },
            "{id}"
        );
        let g = game(id, &format!("T{down} Kc2 {x}"), D);
        assert_eq!(
            refused(&g, &format!("{down}-{t}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::Defender,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
        let g = game(id, &format!("t{left} Kc2 {x}"), A);
        assert_eq!(
            refused(&g, &format!("{left}-{t}")),
            MoveError::Restricted {
                square: sq(&t),
                piece: Piece::Attacker,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
    }
}

/// 001: "White knights are in the 'fortresses' (colored in green) at the beginning of the
/// game: they can move inside, but once they leave it, they cannot go back"
#[test]
fn file_001_attackers_move_inside_their_fortress_but_never_return() {
    // 9x9: the western fortress is a4, a5, a6, b5.
    let mut g = game("slavic-9", "ta4 Kc2 Th8 tg8", A);
    assert!(legal(&g, "a4-a5"));
    assert!(legal(&g, "a4-a6"));
    // Leaving over its own fortress squares (docs/rules.md, R-001-fortress: only *other* pieces may
    // not pass).
    assert!(legal(&g, "a4-a7"));
    play(&mut g, "a4-b4");
    play(&mut g, "h8-h7");
    assert_eq!(
        refused(&g, "b4-a4"),
        MoveError::Fortress {
            square: sq("a4"),
            piece: Piece::Attacker,
            action: RestrictedAction::ReEnter
        }
    );
    assert_eq!(
        refused(&g, "b4-b5"),
        MoveError::Fortress {
            square: sq("b5"),
            piece: Piece::Attacker,
            action: RestrictedAction::ReEnter
        }
    );
    // Leaving one fortress for another is entering again too (a4 to i4 along an empty rank).
    let g = game("slavic-9", "ta4 Kc2 Th8 tg8", A);
    assert_eq!(
        refused(&g, "a4-i4"),
        MoveError::Fortress {
            square: sq("i4"),
            piece: Piece::Attacker,
            action: RestrictedAction::ReEnter
        }
    );
    assert!(legal(&g, "a4-h4"));
    // 13x13: f2 and h2 belong to the southern fortress but g2 does not: going f2-h2 leaves it
    // at g2 and comes back.
    let g = game("slavic-13", "tf2 Kc3 Tl12 tk12", A);
    assert!(legal(&g, "f2-f1"));
    assert!(legal(&g, "f2-g2"));
    assert_eq!(
        refused(&g, "f2-h2"),
        MoveError::Fortress {
            square: sq("h2"),
            piece: Piece::Attacker,
            action: RestrictedAction::ReEnter
        }
    );
}

/// 001: "No knight or king can jump over the fortress cells or go inside it"
#[test]
fn file_001_nobody_else_enters_or_crosses_a_fortress() {
    // 9x9 fortress squares b5 (west) and d1 (south).
    let g = game("slavic-9", "Tb3 Kc1 th8 Th7", D);
    assert_eq!(
        refused(&g, "b3-b7"),
        MoveError::Fortress {
            square: sq("b5"),
            piece: Piece::Defender,
            action: RestrictedAction::PassThrough
        }
    );
    assert_eq!(
        refused(&g, "b3-b5"),
        MoveError::Fortress {
            square: sq("b5"),
            piece: Piece::Defender,
            action: RestrictedAction::StopOn
        }
    );
    assert_eq!(
        refused(&g, "c1-e1"),
        MoveError::Fortress {
            square: sq("d1"),
            piece: Piece::King,
            action: RestrictedAction::PassThrough
        }
    );
    assert_eq!(
        refused(&g, "c1-d1"),
        MoveError::Fortress {
            square: sq("d1"),
            piece: Piece::King,
            action: RestrictedAction::StopOn
        }
    );
    // An attacker from outside neither.
    let g = game("slavic-9", "tb3 Kc1 th8 Th7", A);
    assert_eq!(
        refused(&g, "b3-b7"),
        MoveError::Fortress {
            square: sq("b5"),
            piece: Piece::Attacker,
            action: RestrictedAction::PassThrough
        }
    );
    // 13x13: the eastern fortress m5..m9.
    let g = game("slavic-13", "Tm3 Kc3 tl12 Tk12", D);
    assert_eq!(
        refused(&g, "m3-m11"),
        MoveError::Fortress {
            square: sq("m5"),
            piece: Piece::Defender,
            action: RestrictedAction::PassThrough
        }
    );
}

/// 001: "Only the king can move to corner cells"
#[test]
fn file_001_only_the_king_moves_to_corners() {
    for id in BOTH {
        let x = extras(id);
        let g = game(id, &format!("tb1 Ta2 Kc3 {x}"), A);
        assert_eq!(
            refused(&g, "b1-a1"),
            MoveError::Restricted {
                square: sq("a1"),
                piece: Piece::Attacker,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
        let g = game(id, &format!("tb1 Ta2 Kc3 {x}"), D);
        assert_eq!(
            refused(&g, "a2-a1"),
            MoveError::Restricted {
                square: sq("a1"),
                piece: Piece::Defender,
                action: RestrictedAction::StopOn
            },
            "{id}"
        );
        let mut g = game(id, &format!("Kb1 {x}"), D);
        assert_eq!(
            win(&play(&mut g, "b1-a1")),
            Some((D, WinReason::KingEscaped)),
            "{id}"
        );
    }
}

/// 001: "To attack a knight you should place it between two your knights (horizontally or
/// vertically) - then it is considered killed and is taken away from the board"
#[test]
fn file_001_knight_killed_between_two_enemy_knights() {
    for id in BOTH {
        let x = extras(id);
        let mut g = game(id, &format!("tb3 Tc3 td2 Kb1 {x}"), A);
        assert_eq!(captured(&play(&mut g, "d2-d3")), ["c3"], "{id}");
        let mut g = game(id, &format!("Tb3 tc3 Td2 Kb1 {x}"), D);
        assert_eq!(captured(&play(&mut g, "d2-d3")), ["c3"], "{id}");
        let mut g = game(id, &format!("Tc4 tc3 Td2 Kb1 {x}"), D);
        assert_eq!(captured(&play(&mut g, "d2-c2")), ["c3"], "{id}");
    }
}

/// 001: "King can attack too"
#[test]
fn file_001_king_can_attack() {
    for id in BOTH {
        let x = extras(id);
        // The king as the moving piece.
        let mut g = game(id, &format!("Tc2 tc3 Kd4 {x}"), D);
        assert_eq!(captured(&play(&mut g, "d4-c4")), ["c3"], "{id}");
        // The king as the other side of the trap.
        let mut g = game(id, &format!("Kc2 tc3 Td4 {x}"), D);
        assert_eq!(captured(&play(&mut g, "d4-c4")), ["c3"], "{id}");
    }
}

/// 001: "A knight can be killed by placing it between an opposite knight and a corner cell"
#[test]
fn file_001_knight_killed_against_a_corner() {
    for id in BOTH {
        let x = extras(id);
        let mut g = game(id, &format!("tb1 Tc2 Kc4 {x}"), D);
        assert_eq!(captured(&play(&mut g, "c2-c1")), ["b1"], "{id}");
        let mut g = game(id, &format!("Ta2 tb3 Kc4 {x}"), A);
        assert_eq!(captured(&play(&mut g, "b3-a3")), ["a2"], "{id}");
    }
}

/// 001: "It can be killed by placing it between an opposite knight and an empty throne"
#[test]
fn file_001_knight_killed_against_the_empty_throne() {
    for id in BOTH {
        let (_, _, down, _, _) = throne(id);
        let below2 = {
            let s = sq(&down);
            (s.file(), s.rank() - 1)
        };
        let x = extras(id);
        let from = at(below2.0 - 2, below2.1);
        let mut g = game(id, &format!("t{down} T{from} Kc2 {x}"), D);
        assert_eq!(
            captured(&play(&mut g, &format!("{from}-{}", at(below2.0, below2.1)))),
            vec![down.clone()],
            "{id}"
        );
        let mut g = game(id, &format!("T{down} t{from} Kc2 {x}"), A);
        assert_eq!(
            captured(&play(&mut g, &format!("{from}-{}", at(below2.0, below2.1)))),
            vec![down.clone()],
            "{id}"
        );
    }
}

/// 001: "Note, that if a knight itself moves to the 'under attack' position it is not killed"
#[test]
fn file_001_moving_into_a_trap_is_safe() {
    for id in BOTH {
        let x = extras(id);
        let mut g = game(id, &format!("tb3 td3 Tc1 Kb1 {x}"), D);
        assert!(captured(&play(&mut g, "c1-c3")).is_empty(), "{id}");
        assert_eq!(piece(&g, "c3"), Some(Piece::Defender), "{id}");
        // Next to a corner, with an enemy opposite.
        let mut g2 = game(id, &format!("Tc1 tb3 Kd4 {x}"), A);
        let report = play(&mut g2, "b3-b1");
        assert!(captured(&report).is_empty(), "{id}");
        assert_eq!(piece(&g2, "b1"), Some(Piece::Attacker), "{id}");
    }
}

/// 001: "These's a special attack on the black knight defending the king: if a black knight is
/// between two white knights (it moved there itself so it's not killed) and it has a king from
/// the 3-rd side, then it can be killed by a white knight that moves to it's 4-th side"
#[test]
fn file_001_special_attack_on_the_knight_beside_the_king() {
    for id in BOTH {
        let x = extras(id);
        let mut g = game(id, &format!("tb3 td3 Kc4 Tc1 ta2 {x}"), D);
        assert!(
            captured(&play(&mut g, "c1-c3")).is_empty(),
            "{id}: moved there itself"
        );
        let report = play(&mut g, "a2-c2");
        assert_eq!(captured(&report), ["c3"], "{id}");
        // Without the king on the third side there is no such capture.
        let mut g = game(id, &format!("tb3 td3 Tc4 Kd5 Tc1 ta2 {x}"), D);
        play(&mut g, "c1-c3");
        assert!(captured(&play(&mut g, "a2-c2")).is_empty(), "{id}");
        // Nor with only one white knight beside it.
        let mut g = game(id, &format!("tb3 Kc4 Tc1 ta2 {x}"), D);
        play(&mut g, "c1-c3");
        assert!(captured(&play(&mut g, "a2-c2")).is_empty(), "{id}");
    }
    // Only the Slavic presets have it.
    let mut g = game("tablut", "tb3 td3 Kc4 Tc1 ta2 Th8", D);
    play(&mut g, "c1-c3");
    assert!(captured(&play(&mut g, "a2-c2")).is_empty());
}

/// 001: "If the king is in the throne it need to be surrounded from all 4 sides to be
/// defeated"
#[test]
fn file_001_king_on_throne_needs_four() {
    for id in BOTH {
        let (t, up, down, left, right) = throne(id);
        let x = extras(id);
        let below2 = {
            let s = sq(&down);
            at(s.file() - 2, s.rank())
        };
        let mut g = game(id, &format!("K{t} t{up} t{left} t{right} t{below2} {x}"), A);
        play(&mut g, &format!("{below2}-{down}"));
        assert!(g.position().king_awaits_rescue(), "{id}");
        let mut g = game(id, &format!("K{t} t{up} t{left} t{below2} {x}"), A);
        play(&mut g, &format!("{below2}-{down}"));
        assert!(!g.position().king_awaits_rescue(), "{id}");
    }
}

/// 001: "If the king is near the throne (it's a neighbour cell) then it should be surrounded
/// from all other 3 sides to be defeated"
#[test]
fn file_001_king_beside_throne_needs_three() {
    for id in BOTH {
        let (_, _, down, _, _) = throne(id);
        let k = sq(&down);
        let (l, r, b) = (
            at(k.file() - 1, k.rank()),
            at(k.file() + 1, k.rank()),
            at(k.file(), k.rank() - 1),
        );
        let from = at(k.file() - 2, k.rank() - 1);
        let x = extras(id);
        let mut g = game(id, &format!("K{down} t{l} t{r} t{from} {x}"), A);
        play(&mut g, &format!("{from}-{b}"));
        assert!(g.position().king_awaits_rescue(), "{id}");
        let mut g = game(id, &format!("K{down} t{l} t{from} {x}"), A);
        play(&mut g, &format!("{from}-{b}"));
        assert!(!g.position().king_awaits_rescue(), "{id}");
        // Two on opposite sides are not enough beside the throne.
        let mut g = game(
            id,
            &format!("K{down} t{l} t{} {x}", at(k.file() + 1, k.rank() - 1)),
            A,
        );
        play(&mut g, &format!("{}-{r}", at(k.file() + 1, k.rank() - 1)));
        assert!(!g.position().king_awaits_rescue(), "{id}");
    }
}

/// 001: "In all other situations it should be placed between two other knights"
#[test]
fn file_001_king_elsewhere_between_two_knights_not_a_corner() {
    for id in BOTH {
        let x = extras(id);
        let mut g = game(id, &format!("Kc3 tc2 tb4 {x}"), A);
        play(&mut g, "b4-c4");
        assert!(g.position().king_awaits_rescue(), "{id}");
        // A corner is no knight: the king beside a corner is not taken by one attacker.
        let mut g = game(id, &format!("Kb1 tc3 {x}"), A);
        play(&mut g, "c3-c1");
        assert!(!g.position().king_awaits_rescue(), "{id}");
        assert!(!g.is_over(), "{id}");
    }
}
