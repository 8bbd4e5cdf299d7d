//! Source 003 of docs/rules.md (historical Hnefatafl rules; docs/rules.md, Tablut family,
//! Brandubh, Ard Ri), presets `tablut`, `brandubh`, `ard-ri`,
//! `tawlbwrdd`, `hnefatafl-13` and `hnefatafl-15`. Every test quotes the sentence it checks and
//! runs on each preset the sentence applies to.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{MoveError, Piece, RestrictedAction, Side, SquareKind, WinReason};

const ALL: [&str; 6] = [
    "brandubh",
    "ard-ri",
    "tablut",
    "tawlbwrdd",
    "hnefatafl-13",
    "hnefatafl-15",
];
/// The presets with a throne (all but Ard Ri, §3a).
const THRONED: [&str; 5] = [
    "brandubh",
    "tablut",
    "tawlbwrdd",
    "hnefatafl-13",
    "hnefatafl-15",
];
/// The presets where the king escapes to any edge square (all but Brandubh, §6a).
const EDGE: [&str; 5] = [
    "ard-ri",
    "tablut",
    "tawlbwrdd",
    "hnefatafl-13",
    "hnefatafl-15",
];

fn dim(id: &str) -> u8 {
    rules(id).dim()
}

/// The centre and its neighbours: (centre, above, below, left, right).
fn centre(id: &str) -> (String, String, String, String, String) {
    let c = dim(id) / 2;
    (
        at(c, c),
        at(c, c + 1),
        at(c, c - 1),
        at(c - 1, c),
        at(c + 1, c),
    )
}

/// A defender and an attacker in the top-right area, away from the action.
fn extras(id: &str) -> String {
    let d = dim(id);
    format!("T{} t{}", at(d - 2, d - 2), at(d - 3, d - 2))
}

/// 003 §1: "One player plays the king's side, with a king and his defenders, and the other
/// player plays the attackers. There are twice as many attackers as defenders."
#[test]
fn file_003_s1_twice_as_many_attackers_as_defenders() {
    for id in ALL {
        let start = rules(id).start_position();
        assert_eq!(start.count(Piece::King), 1, "{id}");
        assert_eq!(
            start.count(Piece::Attacker),
            2 * start.count(Piece::Defender),
            "{id}"
        );
    }
    assert_eq!(rules("ard-ri").start_position().count(Piece::Attacker), 16);
    assert_eq!(rules("ard-ri").start_position().count(Piece::Defender), 8);
    assert_eq!(
        rules("tawlbwrdd").start_position().count(Piece::Attacker),
        24
    );
    assert_eq!(
        rules("tawlbwrdd").start_position().count(Piece::Defender),
        12
    );
}

/// 003 §2: "The game is played on a board with 7x7, 9x9, 11x11, 13x13 or 15x15 squares"
/// "Irish Brandubh 7x7 Scottish Ard Ri 7x7 Saami Tablut 9x9 Welsh Tawlbwrdd 11x11"
#[test]
fn file_003_s2_board_sizes_king_in_the_centre() {
    for (id, size) in [
        ("brandubh", 7),
        ("ard-ri", 7),
        ("tablut", 9),
        ("tawlbwrdd", 11),
        ("hnefatafl-13", 13),
        ("hnefatafl-15", 15),
    ] {
        assert_eq!(dim(id), size, "{id}");
        assert_eq!(
            rules(id).start_position().king(),
            Some(sq(&centre(id).0)),
            "{id}"
        );
    }
}

/// 003 §3: "The central square, called the throne, is restricted and may only be occupied by
/// the king."
#[test]
fn file_003_s3_throne_only_for_the_king() {
    for id in THRONED {
        let (t, _, _, left, _) = centre(id);
        let l = sq(&left);
        let from = at(l.file() - 1, l.rank());
        let x = extras(id);
        for (letter, side, piece) in [
            ('t', Side::Attackers, Piece::Attacker),
            ('T', Side::Defenders, Piece::Defender),
        ] {
            let g = game(id, &format!("{letter}{from} Kb2 {x}"), side);
            assert_eq!(
                refused(&g, &format!("{from}-{t}")),
                MoveError::Restricted {
                    square: sq(&t),
                    piece,
                    action: RestrictedAction::StopOn
                },
                "{id}"
            );
        }
        assert_eq!(rules(id).square_kind(sq(&t)), SquareKind::Throne, "{id}");
    }
}

/// 003 §3: "It is allowed for the king to re-enter the throne, and all pieces may pass through
/// the throne when it is empty."
#[test]
fn file_003_s3_king_reenters_all_pass_through() {
    for id in THRONED {
        let (t, _, _, left, right) = centre(id);
        let x = extras(id);
        let c = dim(id) / 2;
        let mut g = game(id, &format!("K{t} {x}"), Side::Defenders);
        play(&mut g, &format!("{t}-{}", at(c, 1)));
        let d = dim(id);
        play(
            &mut g,
            &format!("{}-{}", at(d - 3, d - 2), at(d - 3, d - 3)),
        );
        play(&mut g, &format!("{}-{t}", at(c, 1)));
        assert_eq!(g.position().king(), Some(sq(&t)), "{id}");
        let l = sq(&left);
        let from = at(l.file() - 1, l.rank());
        let r = sq(&right);
        let to = at(r.file() + 1, r.rank());
        for (letter, side) in [('t', Side::Attackers), ('T', Side::Defenders)] {
            let g = game(id, &format!("{letter}{from} Kb2 {x}"), side);
            assert!(legal(&g, &format!("{from}-{to}")), "{id}");
        }
    }
}

/// 003 §3: "The throne square is hostile, which means that it can replace one of the two
/// pieces taking part in a capture. The throne is always hostile to the attackers, but only
/// hostile to the defenders when it is empty."
#[test]
fn file_003_s3_throne_hostile_to_attackers_always_defenders_when_empty() {
    for id in THRONED {
        let (t, _, below, _, _) = centre(id);
        let b = sq(&below);
        let trap = at(b.file(), b.rank() - 1);
        let from = at(0, b.rank() - 1);
        let x = extras(id);
        // Empty throne: an attacker and a defender are each captured against it.
        let mut g = game(
            id,
            &format!("t{below} T{from} Kb{} {x}", dim(id) - 1),
            Side::Defenders,
        );
        assert_eq!(
            captured(&play(&mut g, &format!("{from}-{trap}"))),
            vec![below.clone()],
            "{id}"
        );
        let mut g = game(
            id,
            &format!("T{below} t{from} Kb{} {x}", dim(id) - 1),
            Side::Attackers,
        );
        assert_eq!(
            captured(&play(&mut g, &format!("{from}-{trap}"))),
            vec![below.clone()],
            "{id}"
        );
        // Occupied throne: hostile to attackers, not to defenders.
        let mut g = game(id, &format!("K{t} t{below} T{from} {x}"), Side::Defenders);
        assert_eq!(
            captured(&play(&mut g, &format!("{from}-{trap}"))),
            vec![below.clone()],
            "{id}"
        );
        let mut g = game(id, &format!("K{t} T{below} t{from} {x}"), Side::Attackers);
        assert!(
            captured(&play(&mut g, &format!("{from}-{trap}"))).is_empty(),
            "{id}"
        );
    }
}

/// 003 §3a: "Ard Ri: No throne square, i.e. there are no restricted squares on the board."
#[test]
fn file_003_s3a_ard_ri_has_no_restricted_squares() {
    let r = rules("ard-ri");
    for name in ["d4", "a1", "a7", "g1", "g7"] {
        assert_eq!(r.square_kind(sq(name)), SquareKind::Plain, "{name}");
    }
    let g = game("ard-ri", "tb4 tb1 Kf6 Tf5", Side::Attackers);
    assert!(legal(&g, "b4-d4"));
    assert!(legal(&g, "b1-a1"));
    // The empty centre captures nothing.
    let mut g = game("ard-ri", "Td3 tb2 Kf6 Tf5", Side::Attackers);
    assert!(captured(&play(&mut g, "b2-d2")).is_empty());
}

/// 003 §3a: "Brandubh: Also the four corner squares are restricted and hostile, just like the
/// throne."
#[test]
fn file_003_s3a_brandubh_corners_restricted_and_hostile() {
    let r = rules("brandubh");
    for name in ["a1", "a7", "g1", "g7"] {
        assert_eq!(r.square_kind(sq(name)), SquareKind::Corner, "{name}");
    }
    let g = game("brandubh", "tb1 Ta2 Kf6 Tf5", Side::Attackers);
    assert_eq!(
        refused(&g, "b1-a1"),
        MoveError::Restricted {
            square: sq("a1"),
            piece: Piece::Attacker,
            action: RestrictedAction::StopOn
        }
    );
    let g = game("brandubh", "tb1 Ta2 Kf6 tf5", Side::Defenders);
    assert_eq!(
        refused(&g, "a2-a1"),
        MoveError::Restricted {
            square: sq("a1"),
            piece: Piece::Defender,
            action: RestrictedAction::StopOn
        }
    );
    // Hostile to attackers and to defenders.
    let mut g = game("brandubh", "tb1 Td1 Kf6 tf5", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "d1-c1")), ["b1"]);
    let mut g = game("brandubh", "Tg2 te3 Kb6 Tf5", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "e3-g3")), ["g2"]);
    // docs/rules.md, R-003-throne-hostile-to-king: "hostile to all": the king too, away from the
    // throne.
    let mut g = game("brandubh", "Kb1 tc2 Tf5", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "c2-c1")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

/// 003 §4: "The attackers' side moves first, and the game then proceeds by alternate moves.
/// All pieces move any number of vacant squares along a row or a column, like a rook in
/// chess."
#[test]
fn file_003_s4_attackers_first_rook_moves() {
    for id in ALL {
        let g = tafl_engine::Game::new(rules(id));
        assert_eq!(g.side_to_move(), Side::Attackers, "{id}");
        let x = extras(id);
        let g = game(id, &format!("tb2 Kd{} {x}", dim(id) - 1), Side::Attackers);
        assert!(legal(&g, &format!("b2-b{}", dim(id) - 1)), "{id}");
        assert!(legal(&g, &format!("b2-{}", at(dim(id) - 1, 1))), "{id}");
        assert!(
            matches!(refused(&g, "b2-c3"), MoveError::NotStraight { .. }),
            "{id}"
        );
    }
}

/// 003 §5: "All pieces except the king are captured if they are sandwiched between two enemy
/// pieces, or between an enemy piece and a restricted square, along a column or a row."
#[test]
fn file_003_s5_custodial_capture_and_against_restricted_squares() {
    for id in ALL {
        let x = extras(id);
        let mut g = game(
            id,
            &format!("tb2 Tc2 td1 Ka{} {x}", dim(id) - 2),
            Side::Attackers,
        );
        assert_eq!(captured(&play(&mut g, "d1-d2")), ["c2"], "{id}");
        let mut g = game(
            id,
            &format!("Tc4 tc3 Ta2 Kb{} {x}", dim(id) - 1),
            Side::Defenders,
        );
        assert_eq!(captured(&play(&mut g, "a2-c2")), ["c3"], "{id}");
    }
    // "except the king": beside the throne two attackers do not capture him.
    for id in THRONED {
        let (_, _, below, _, _) = centre(id);
        let b = sq(&below);
        let x = extras(id);
        let (l, r) = (at(b.file() - 1, b.rank()), at(b.file() + 1, b.rank()));
        let from = at(b.file() + 1, 0);
        let mut g = game(id, &format!("K{below} t{l} t{from} {x}"), Side::Attackers);
        assert_eq!(play(&mut g, &format!("{from}-{r}")).outcome, None, "{id}");
    }
}

/// 003 §5: "A piece is only captured if the trap is closed by a move of the opponent, and it
/// is, therefore, allowed to move in between two enemy pieces."
#[test]
fn file_003_s5_moving_into_a_trap_is_safe() {
    for id in ALL {
        let x = extras(id);
        let mut g = game(
            id,
            &format!("tb2 td2 Tc1 Ka{} {x}", dim(id) - 2),
            Side::Defenders,
        );
        assert!(captured(&play(&mut g, "c1-c2")).is_empty(), "{id}");
        let d = dim(id);
        play(
            &mut g,
            &format!("{}-{}", at(d - 3, d - 2), at(d - 3, d - 3)),
        );
        assert_eq!(piece(&g, "c2"), Some(Piece::Defender), "{id}");
    }
}

/// 003 §6: "The objective for the king's side is to move the king to any edge square. In that
/// case, the king has escaped and his side wins."
#[test]
fn file_003_s6_king_escapes_to_any_edge_square() {
    for id in EDGE {
        let d = dim(id);
        let x = extras(id);
        for target in [
            "c1".to_string(),
            "a3".to_string(),
            at(2, d - 1),
            at(d - 1, 2),
        ] {
            let mut g = game(id, &format!("Kc3 {x}"), Side::Defenders);
            assert_eq!(
                win(&play(&mut g, &format!("c3-{target}"))),
                Some((Side::Defenders, WinReason::KingEscaped)),
                "{id} {target}"
            );
        }
    }
}

/// 003 §6a: "Except on the Brandubh 7x7 board, where the objective for the king's side is to
/// move the king to any corner square"
#[test]
fn file_003_s6a_brandubh_king_escapes_to_corners_only() {
    let mut g = game("brandubh", "Kc3 Tf5 tf6", Side::Defenders);
    assert_eq!(play(&mut g, "c3-c1").outcome, None);
    play(&mut g, "f6-e6");
    assert_eq!(
        win(&play(&mut g, "c1-a1")),
        Some((Side::Defenders, WinReason::KingEscaped))
    );
    for corner in ["a7", "g1"] {
        let sqc = sq(corner);
        let from = if sqc.file() == 0 { "a5" } else { "e1" };
        let mut g = game("brandubh", &format!("K{from} Tf5 tf6"), Side::Defenders);
        assert_eq!(
            win(&play(&mut g, &format!("{from}-{corner}"))),
            Some((Side::Defenders, WinReason::KingEscaped))
        );
    }
}

/// 003 §7a: "The attackers win if they can capture the king before he escapes. The king is
/// captured like all other pieces, except when he is on the throne or on one of the four
/// squares next to the throne."
#[test]
fn file_003_s7a_king_captured_by_two_away_from_the_throne() {
    for id in ALL {
        let x = extras(id);
        let mut g = game(id, &format!("Kc3 tb3 td2 {x}"), Side::Attackers);
        assert_eq!(
            win(&play(&mut g, "d2-d3")),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
        let mut g = game(id, &format!("Kc3 tc4 tb2 {x}"), Side::Attackers);
        assert_eq!(
            win(&play(&mut g, "b2-c2")),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
    }
    // Ard Ri has no throne: two attackers capture the king even on the centre.
    let mut g = game("ard-ri", "Kd4 tc4 te3 Tf6 tb6", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "e3-e4")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

/// 003 §7a: "When the king is on the throne, the attackers must surround him in all four
/// cardinal points."
#[test]
fn file_003_s7a_king_on_throne_needs_four() {
    for id in THRONED {
        let (t, above, below, left, right) = centre(id);
        let x = extras(id);
        let mover = at(0, sq(&below).rank());
        let mv = format!("{mover}-{below}");
        let mut g = game(
            id,
            &format!("K{t} t{above} t{left} t{right} t{mover} {x}"),
            Side::Attackers,
        );
        assert_eq!(
            win(&play(&mut g, &mv)),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
        let mut g = game(
            id,
            &format!("K{t} t{above} t{left} t{mover} {x}"),
            Side::Attackers,
        );
        assert_eq!(play(&mut g, &mv).outcome, None, "{id}");
    }
}

/// 003 §7a: "When he is on a square next to the throne, the attackers must occupy all
/// surrounding squares in the four points of the compass except the throne."
#[test]
fn file_003_s7a_king_beside_throne_needs_three() {
    for id in THRONED {
        let (_, _, below, _, _) = centre(id);
        let b = sq(&below);
        let x = extras(id);
        let (l, r, under) = (
            at(b.file() - 1, b.rank()),
            at(b.file() + 1, b.rank()),
            at(b.file(), b.rank() - 1),
        );
        let mover = at(0, b.rank() - 1);
        let mv = format!("{mover}-{under}");
        let mut g = game(
            id,
            &format!("K{below} t{l} t{r} t{mover} {x}"),
            Side::Attackers,
        );
        assert_eq!(
            win(&play(&mut g, &mv)),
            Some((Side::Attackers, WinReason::KingCaptured)),
            "{id}"
        );
        let mut g = game(id, &format!("K{below} t{l} t{mover} {x}"), Side::Attackers);
        assert_eq!(play(&mut g, &mv).outcome, None, "{id}");
    }
}

/// 003 §7b: "If the attackers surround the king and ALL remaining defenders, then they win, as
/// they have prevented the king from escaping."
#[test]
fn file_003_s7b_encircling_all_defenders_wins() {
    for id in ALL {
        let top = format!("b{}", dim(id));
        let mut g = game(
            id,
            &format!("Kb3 Tb4 ta3 ta4 tc4 tc3 tb2 t{top}"),
            Side::Attackers,
        );
        let report = play(&mut g, &format!("{top}-b5"));
        assert!(captured(&report).is_empty(), "{id}");
        assert_eq!(
            win(&report),
            Some((Side::Attackers, WinReason::Encirclement)),
            "{id}"
        );
        // One gap (b2) and a defender can still reach the edge: no win.
        let mut g = game(
            id,
            &format!("Kb3 Tb4 ta3 ta4 tc4 tc3 t{top}"),
            Side::Attackers,
        );
        assert_eq!(play(&mut g, &format!("{top}-b5")).outcome, None, "{id}");
    }
}

/// 003 §8: "Perpetual repetitions are forbidden. ... If a board position is repeated for the
/// third time, "the aggressive player" loses the game." (docs/rules.md, R-aggressive-player: the
/// player whose move creates the third occurrence loses.)
#[test]
fn file_003_s8_third_repetition_loses_for_the_mover() {
    for id in ALL {
        let d = dim(id);
        let (a1, a2) = (at(1, d - 2), at(2, d - 2));
        let (d1, d2) = (at(d - 2, 1), at(d - 2, 2));
        let pieces = format!("t{a1} T{d1} Kd2");
        let attacker_cycle = [format!("{a1}-{a2}"), format!("{a2}-{a1}")];
        let defender_cycle = [format!("{d1}-{d2}"), format!("{d2}-{d1}")];
        for first in [Side::Attackers, Side::Defenders] {
            let mut g = game(id, &pieces, first);
            let mut side = first;
            for ply in 0..8 {
                let cycle = if side == Side::Attackers {
                    &attacker_cycle
                } else {
                    &defender_cycle
                };
                let report = play(&mut g, &cycle[(ply / 2) % 2]);
                if ply < 7 {
                    assert_eq!(report.outcome, None, "{id} ply {ply}");
                } else {
                    // The eighth move brings back the start position a third time.
                    assert_eq!(
                        win(&report),
                        Some((side.opponent(), WinReason::Repetition)),
                        "{id}"
                    );
                }
                side = side.opponent();
            }
        }
    }
}

/// 003 §8b: "Draw forts are forbidden: If the defenders repeat the defending board position
/// three times while no piece is captured, the attackers win. (Only in force when the defenders
/// have at least king plus five men left, which is the minimum of pieces needed to build a
/// fort)."
#[test]
fn file_003_s8b_draw_forts_lose_with_king_and_five_men() {
    for id in ALL {
        let d = dim(id);
        let fort = "Kc3 Tc4 Tc2 Tb3 Td3";
        let walker: Vec<String> = (1..=5).map(|f| at(f, d - 1)).collect();
        for (extra_man, expect_win) in [(true, true), (false, false)] {
            let toggler = format!("T{}", at(d - 2, 1));
            let pieces = if extra_man {
                format!("{fort} {toggler} t{}", walker[0])
            } else {
                format!("Kc3 Tc4 Tc2 Tb3 {toggler} t{}", walker[0])
            };
            let mut g = game(id, &pieces, Side::Defenders);
            let (t1, t2) = (at(d - 2, 1), at(d - 2, 2));
            let mut last = None;
            for i in 0..5 {
                let mv = if i % 2 == 0 {
                    format!("{t1}-{t2}")
                } else {
                    format!("{t2}-{t1}")
                };
                let report = play(&mut g, &mv);
                if i < 4 {
                    assert_eq!(report.outcome, None, "{id} defenders' move {i}");
                    play(&mut g, &format!("{}-{}", walker[i], walker[i + 1]));
                }
                last = Some(report);
            }
            let last = last.unwrap();
            if expect_win {
                assert_eq!(
                    win(&last),
                    Some((Side::Attackers, WinReason::DrawFort)),
                    "{id}"
                );
            } else {
                assert_eq!(last.outcome, None, "{id}: king and four men build no fort");
            }
        }
    }
}

/// 003 §9: "If a player cannot move, he loses the game."
#[test]
fn file_003_s9_a_player_who_cannot_move_loses() {
    for id in ALL {
        let x = format!("K{}", at(dim(id) - 2, dim(id) - 2));
        // Brandubh's a1 is a corner: box the attacker in on a2 instead.
        let (pieces, mv) = if id == "brandubh" {
            (format!("ta2 Ta3 Tb3 {x}"), "b3-b2")
        } else {
            (format!("ta1 Ta2 Td1 {x}"), "d1-b1")
        };
        let mut g = game(id, &pieces, Side::Defenders);
        let report = play(&mut g, mv);
        assert!(captured(&report).is_empty(), "{id}");
        assert_eq!(
            win(&report),
            Some((Side::Defenders, WinReason::NoLegalMoves)),
            "{id}"
        );
    }
}
