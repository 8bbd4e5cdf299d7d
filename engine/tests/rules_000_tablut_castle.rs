//! Source 000 of docs/rules.md (japonek.github.io Tablut; docs/rules.md, Tablut (castle)), presets
//! `tablut-castle` (closed castle) and `tablut-castle-open` (open castle). Every test quotes the
//! sentence it checks.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{MoveError, Piece, RestrictedAction, Side, WarningKind, WinReason, variants};

const BOTH: [&str; 2] = ["tablut-castle", "tablut-castle-open"];

/// 000: "The game is played on a 9×9 board." "The king ... starts on the central square or
/// castle" "The eight defenders ... start on the eight squares adjoining the gånågis, in the
/// form of a cross." "The sixteen attackers ... start in groups of four at the centre of each
/// edge of the board, in direct contact with the Swedish "cross"."
#[test]
fn file_000_setup_9x9_king_on_castle_cross_of_eight_sixteen_attackers() {
    for id in BOTH {
        let rules = rules(id);
        let start = rules.start_position();
        assert_eq!(rules.dim(), 9, "{id}");
        assert_eq!(start.king(), Some(sq("e5")), "{id}");
        assert_eq!(rules.square_kind(sq("e5")), tafl_engine::SquareKind::Throne);
        let mut defenders: Vec<String> = start
            .pieces()
            .filter(|(_, p)| *p == Piece::Defender)
            .map(|(s, _)| s.to_string())
            .collect();
        defenders.sort();
        assert_eq!(
            defenders,
            ["c5", "d5", "e3", "e4", "e6", "e7", "f5", "g5"],
            "{id}"
        );
        let mut attackers: Vec<String> = start
            .pieces()
            .filter(|(_, p)| *p == Piece::Attacker)
            .map(|(s, _)| s.to_string())
            .collect();
        attackers.sort();
        assert_eq!(
            attackers,
            [
                "a4", "a5", "a6", "b5", "d1", "d9", "e1", "e2", "e8", "e9", "f1", "f9", "h5", "i4",
                "i5", "i6"
            ],
            "{id}"
        );
        // "in direct contact with the Swedish cross": each group touches the cross.
        for (attacker, defender) in [("e2", "e3"), ("e8", "e7"), ("b5", "c5"), ("h5", "g5")] {
            assert!(sq(attacker).neighbours(9).any(|n| n == sq(defender)));
        }
        // docs/rules.md, R-default-first-mover: 000 does not say who moves first: attackers.
        assert_eq!(start.side_to_move(), Side::Attackers, "{id}");
    }
}

/// 000: "The Swedes win if the king escapes to any of the fields at the edge of the board."
#[test]
fn file_000_swedes_win_if_king_escapes_to_any_edge_field() {
    for id in BOTH {
        for target in ["c1", "a3", "c9", "i3"] {
            let mut g = game(id, "Kc3 Tg7 tb8", D);
            let report = play(&mut g, &format!("c3-{target}"));
            assert_eq!(
                win(&report),
                Some((D, WinReason::KingEscaped)),
                "{id} {target}"
            );
            assert!(g.is_over());
        }
        // Short of the edge is no escape.
        let mut g = game(id, "Kc3 Tg7 tb8", D);
        assert_eq!(win(&play(&mut g, "c3-c2")), None, "{id}");
    }
}

/// 000: "The Muscovites win if they capture the king." "The king is also captured in this
/// way, except in a few select cases where he is protected by the castle."
#[test]
fn file_000_muscovites_win_by_capturing_the_king_between_two() {
    for id in BOTH {
        let mut g = game(id, "Kc3 tc2 ta4 Tg7", A);
        let report = play(&mut g, "a4-c4");
        assert_eq!(win(&report), Some((A, WinReason::KingCaptured)), "{id}");
        // Sideways too.
        let mut g = game(id, "Kc3 tb3 ti3 Tg7", A);
        assert_eq!(
            win(&play(&mut g, "i3-d3")),
            Some((A, WinReason::KingCaptured)),
            "{id}"
        );
    }
}

/// 000: "Any piece may move any number of vacant spaces in any straight line [←↑→↓], but not
/// diagonally. (Cf. the rook in chess.)"
#[test]
fn file_000_pieces_move_like_rooks_not_diagonally() {
    for id in BOTH {
        let g = game(id, "tb2 Kg7 Th8", A);
        assert!(legal(&g, "b2-b9"), "{id}");
        assert!(legal(&g, "b2-i2"), "{id}");
        assert!(legal(&g, "b2-b3"), "{id}");
        assert_eq!(g.legal_moves_from(sq("b2")).len(), 16, "{id}");
        assert!(
            matches!(refused(&g, "b2-c3"), MoveError::NotStraight { .. }),
            "{id}"
        );
        assert!(
            matches!(refused(&g, "b2-d3"), MoveError::NotStraight { .. }),
            "{id}"
        );
        // The king and the defenders too.
        let g = game(id, "tb2 Kg7 Th8", D);
        assert!(legal(&g, "g7-g1"), "{id}");
        assert!(legal(&g, "h8-a8"), "{id}");
        assert!(
            matches!(refused(&g, "g7-h6"), MoveError::NotStraight { .. }),
            "{id}"
        );
    }
}

/// 000: "No piece may ever pass over another piece in its path."
#[test]
fn file_000_no_piece_may_pass_over_another() {
    for id in BOTH {
        let g = game(id, "tb2 Tb5 Kg7 tg3", A);
        assert_eq!(
            refused(&g, "b2-b8"),
            MoveError::Blocked { at: sq("b5") },
            "{id}"
        );
        assert_eq!(
            refused(&g, "g3-g8"),
            MoveError::Blocked { at: sq("g7") },
            "{id}"
        );
        let g = game(id, "tb2 Tb5 Kg7 tg3", D);
        assert_eq!(
            refused(&g, "g7-g1"),
            MoveError::Blocked { at: sq("g3") },
            "{id}"
        );
    }
}

/// 000: "An enemy piece is captured and removed from the board if you move one of your pieces
/// so that the enemy piece becomes surrounded on two opposite sides (horizontally or
/// vertically – not diagonally) by two of your pieces."
#[test]
fn file_000_custodial_capture_on_two_opposite_sides_not_diagonally() {
    for id in BOTH {
        // Attackers capture a defender horizontally and vertically at once.
        let mut g = game(id, "tc4 Td4 te1 Tg7 Kh8", A);
        let report = play(&mut g, "e1-e4");
        assert_eq!(captured(&report), ["d4"], "{id}");
        assert_eq!(piece(&g, "d4"), None);
        // Defenders capture an attacker.
        let mut g = game(id, "Tc4 td4 Te1 Kh8 ta9", D);
        assert_eq!(captured(&play(&mut g, "e1-e4")), ["d4"], "{id}");
        // Vertically.
        let mut g = game(id, "Tc2 tc3 Ta4 Kh8 ta9", D);
        assert_eq!(captured(&play(&mut g, "a4-c4")), ["c3"], "{id}");
        // Diagonal neighbours capture nothing.
        let mut g = game(id, "tb6 Tc7 td9 Kh2 Ta1", A);
        assert!(captured(&play(&mut g, "d9-d8")).is_empty(), "{id}");
        assert_eq!(piece(&g, "c7"), Some(Piece::Defender));
    }
}

/// 000: "A piece may be moved in between two enemy pieces without being captured."
#[test]
fn file_000_moving_between_two_enemies_is_safe() {
    for id in BOTH {
        let mut g = game(id, "tc4 te4 Td1 Kh8 ta9", D);
        let report = play(&mut g, "d1-d4");
        assert!(captured(&report).is_empty(), "{id}");
        assert_eq!(piece(&g, "d4"), Some(Piece::Defender), "{id}");
        // An unrelated attacker move does not close the trap either.
        play(&mut g, "a9-a8");
        assert_eq!(piece(&g, "d4"), Some(Piece::Defender), "{id}");
        // The king as well.
        let mut g = game(id, "tc4 te4 Kd1 Th8 ta9", D);
        play(&mut g, "d1-d4");
        assert_eq!(g.position().king(), Some(sq("d4")), "{id}");
        assert!(!g.is_over());
    }
}

/// 000: "When the castle is not occupied by the king, it is "hostile" to all soldiers –
/// attackers and defenders. This means that an enemy soldier may be captured by pinning it
/// (horizontally or vertically) between one of one's own pieces and the castle."
#[test]
fn file_000_empty_castle_is_hostile_to_all_soldiers() {
    for id in BOTH {
        // An attacker pinned against the empty castle.
        let mut g = game(id, "te6 Ta7 Kb2 tb9", D);
        assert_eq!(captured(&play(&mut g, "a7-e7")), ["e6"], "{id}");
        // A defender pinned against the empty castle.
        let mut g = game(id, "Td5 tc1 Kb8 Th2", A);
        assert_eq!(captured(&play(&mut g, "c1-c5")), ["d5"], "{id}");
        // Vertically, below the castle.
        let mut g = game(id, "Te4 ta3 Kb8 Th2", A);
        assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"], "{id}");
    }
}

/// 000: "If the king is on a square adjoining the castle (horizontally or vertically) he must
/// be surrounded on the three remaining sides by his enemies."
#[test]
fn file_000_king_beside_castle_needs_three_attackers() {
    for id in BOTH {
        let mut g = game(id, "Ke4 td4 tf4 ta3 Ta8", A);
        let report = play(&mut g, "a3-e3");
        assert_eq!(win(&report), Some((A, WinReason::KingCaptured)), "{id}");
        // Two attackers on opposite sides are not enough beside the castle.
        let mut g = game(id, "Ke4 td4 tf1 Ta8", A);
        let report = play(&mut g, "f1-f4");
        assert_eq!(report.outcome, None, "{id}");
        // Nor is an attacker with the castle opposite it.
        let mut g = game(id, "Ke4 ta3 Ta8 tg4", A);
        assert_eq!(play(&mut g, "a3-e3").outcome, None, "{id}");
    }
}

/// 000: "If the king is inside the castle, he is not captured until he is surrounded on all
/// four sides."
#[test]
fn file_000_king_in_castle_needs_four_attackers() {
    for id in BOTH {
        let mut g = game(id, "Ke5 te6 td5 tf5 ta4 Ta8", A);
        let report = play(&mut g, "a4-e4");
        assert_eq!(win(&report), Some((A, WinReason::KingCaptured)), "{id}");
        let mut g = game(id, "Ke5 te6 td5 tf1 Ta8", A);
        assert_eq!(play(&mut g, "f1-f5").outcome, None, "{id}");
        let mut g = game(id, "Ke5 td5 tf1 Ta8", A);
        assert_eq!(play(&mut g, "f1-f5").outcome, None, "{id}");
    }
}

/// 000: "If the king is in the castle and surrounded on three sides by attackers, but
/// protected by a defender on the last side, it is possible to capture the last defender by
/// pinning it between an attacker piece and the occupied castle."
#[test]
fn file_000_last_defender_of_king_in_castle_captured_against_occupied_castle() {
    for id in BOTH {
        let mut g = game(id, "Ke5 td5 tf5 te6 Te4 ta3 Ta8", A);
        let report = play(&mut g, "a3-e3");
        assert_eq!(captured(&report), ["e4"], "{id}");
        // The king is then open on e4 but not captured by this move.
        assert_eq!(report.outcome, None, "{id}");
    }
}

/// 000: "The latter is the only situation in which the attackers may capture a defender
/// against the occupied castle."
#[test]
fn file_000_no_other_capture_of_a_defender_against_occupied_castle() {
    for id in BOTH {
        // Only two of the king's other sides held: no capture.
        let mut g = game(id, "Ke5 td5 tf5 Te4 ta3 Ta8", A);
        assert!(captured(&play(&mut g, "a3-e3")).is_empty(), "{id}");
        // The king's other sides held by a defender: no capture.
        let mut g = game(id, "Ke5 td5 tf5 Te6 Te4 ta3 Ta8", A);
        assert!(captured(&play(&mut g, "a3-e3")).is_empty(), "{id}");
        // A lone attacker against the occupied castle.
        let mut g = game(id, "Ke5 Te4 ta3 Ta8", A);
        assert!(captured(&play(&mut g, "a3-e3")).is_empty(), "{id}");
    }
}

/// 000: "The defenders may capture an attacker between one of their own and the occupied
/// castle, since the king then participates in capturing."
#[test]
fn file_000_defenders_capture_attacker_against_occupied_castle() {
    for id in BOTH {
        let mut g = game(id, "Ke5 te4 Ta3 ta8", D);
        assert_eq!(captured(&play(&mut g, "a3-e3")), ["e4"], "{id}");
        let mut g = game(id, "Ke5 td5 Tc1 ta8", D);
        assert_eq!(captured(&play(&mut g, "c1-c5")), ["d5"], "{id}");
    }
}

/// 000: "In one variant, the castle cannot be entered by anyone, not even the king, once the king
/// has left it." (docs/rules.md, R-000-closed-castle: nor passed through; preset `tablut-castle`.)
#[test]
fn file_000_closed_castle_cannot_be_entered_once_the_king_left() {
    let mut g = game("tablut-castle", "Ke5 Ta7 tb1 ti9", D);
    play(&mut g, "e5-b5");
    play(&mut g, "i9-i8");
    assert_eq!(
        refused(&g, "b5-e5"),
        MoveError::Restricted {
            square: sq("e5"),
            piece: Piece::King,
            action: RestrictedAction::ReEnter
        }
    );
    assert_eq!(
        refused(&g, "b5-h5"),
        MoveError::Restricted {
            square: sq("e5"),
            piece: Piece::King,
            action: RestrictedAction::PassThrough
        }
    );
    for (pieces, to_move, kind) in [
        ("ta5 Kb8 Tc9", A, Piece::Attacker),
        ("Ta5 Kb8 tc9", D, Piece::Defender),
    ] {
        let g = game("tablut-castle", pieces, to_move);
        assert_eq!(
            refused(&g, "a5-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: kind,
                action: RestrictedAction::StopOn
            }
        );
        assert_eq!(
            refused(&g, "a5-i5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: kind,
                action: RestrictedAction::PassThrough
            }
        );
        assert!(legal(&g, "a5-d5"));
    }
}

/// 000: "In another variant, the king may re-enter the castle, and both attackers and defenders
/// may pass through it but not stop in it." (preset `tablut-castle-open`)
#[test]
fn file_000_open_castle_king_reenters_all_pass_through_none_stop() {
    let mut g = game("tablut-castle-open", "Ke5 Ta7 tb1 ti9", D);
    play(&mut g, "e5-b5");
    play(&mut g, "i9-i8");
    assert!(legal(&g, "b5-e5"));
    assert!(legal(&g, "b5-h5"));
    play(&mut g, "b5-e5");
    assert_eq!(g.position().king(), Some(sq("e5")));
    for (pieces, to_move, kind) in [
        ("ta5 Kb8 Tc9", A, Piece::Attacker),
        ("Ta5 Kb8 tc9", D, Piece::Defender),
    ] {
        let g = game("tablut-castle-open", pieces, to_move);
        assert_eq!(
            refused(&g, "a5-e5"),
            MoveError::Restricted {
                square: sq("e5"),
                piece: kind,
                action: RestrictedAction::StopOn
            }
        );
        assert!(legal(&g, "a5-i5"));
        assert!(legal(&g, "a5-f5"));
    }
}

/// 000: "If the king should ever have an unimpeded path to the edge of the board, he must call
/// out "raichi" ..., and if he has two paths of escape, then he must call out "tuichu""
#[test]
fn file_000_raichi_one_open_path_tuichu_two() {
    for id in BOTH {
        let mut g = game(id, "Kc4 td3 tc5 Tg7 ti9", D);
        let report = play(&mut g, "c4-c3");
        let warning = report.warning.clone().unwrap();
        assert_eq!(warning.kind, WarningKind::Tuichu, "{id}");
        let mut paths = warning.paths.clone();
        paths.sort();
        assert_eq!(
            paths,
            vec![vec![sq("b3"), sq("a3")], vec![sq("c2"), sq("c1")]],
            "{id}"
        );

        let mut g = game(id, "Kc4 td3 tc5 tb3 Tg7 ti9", D);
        let report = play(&mut g, "c4-c3");
        let warning = report.warning.clone().unwrap();
        assert_eq!(warning.kind, WarningKind::Raichi, "{id}");
        assert_eq!(warning.paths, vec![vec![sq("c2"), sq("c1")]], "{id}");

        let mut g = game(id, "Kc4 td3 tc5 tb3 tc1 Tg7 ti9", D);
        assert_eq!(play(&mut g, "c4-c3").warning, None, "{id}");

        // A warning is also part of the answer to the attackers' move that opens a path.
        let mut g = game(id, "Kc3 tb3 td3 tc4 tc2 Tg7", A);
        let report = play(&mut g, "c2-h2");
        assert_eq!(warning_kind(&report), Some(WarningKind::Raichi), "{id}");
    }
}

/// docs/rules.md, Warnings (R-000-warnings): the warning is part of the referee's answer to
/// every move, in every preset: one path is raichi, two are tuichu, whatever the winning squares.
#[test]
fn file_000_warnings_in_every_variant() {
    for v in variants() {
        let rules = v.rules();
        let dim = rules.dim();
        let extra = format!("T{} t{}", at(dim - 2, dim - 2), at(dim - 2, dim - 1));
        let (tuichu, raichi, expect_two) = match rules.escape {
            tafl_engine::Escape::Edge => (
                format!("Kc3 td3 tc4 {extra}"),
                format!("Kc3 td3 tc4 tb3 {extra}"),
                true,
            ),
            tafl_engine::Escape::Corner => (
                format!("Ka3 tb3 {extra}"),
                format!("Ka3 tb3 ta5 {extra}"),
                // The Slavic king moves at most 3 squares and may not cross a fortress.
                rules.speed_limit(Piece::King).is_none(),
            ),
        };
        let g = tafl_engine::Game::from_position(rules.clone(), position_on(dim, &tuichu, D));
        let warning = g
            .warning()
            .unwrap_or_else(|| panic!("{}: no warning", v.id));
        if expect_two {
            assert_eq!(warning.kind, WarningKind::Tuichu, "{}", v.id);
            assert_eq!(warning.paths.len(), 2, "{}", v.id);
        } else {
            assert_eq!(warning.kind, WarningKind::Raichi, "{}", v.id);
        }
        let g = tafl_engine::Game::from_position(rules, position_on(dim, &raichi, D));
        let warning = g
            .warning()
            .unwrap_or_else(|| panic!("{}: no warning", v.id));
        assert_eq!(warning.kind, WarningKind::Raichi, "{}", v.id);
        assert_eq!(warning.paths.len(), 1, "{}", v.id);
    }
}
