//! Notation: squares, moves (read forgivingly), position records and rules strings, with the
//! typed error of each kind of bad input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::{
    Move, NotationError, Position, PositionParseError, Rules, RulesParseError, Side, Square,
    canonical_notation, variants,
};

const BRANDUB: &str = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn sq(name: &str) -> Square {
    Square::parse(name, 19).unwrap()
}

#[test]
fn squares_a1_is_bottom_left() {
    assert_eq!(Square::parse("a1", 7).unwrap(), Square::new(0, 0));
    assert_eq!(Square::parse("G7", 7).unwrap(), Square::new(6, 6));
    assert_eq!(Square::parse(" s19 ", 19).unwrap(), Square::new(18, 18));
    assert_eq!(Square::new(4, 4).to_string(), "e5");
    assert!(matches!(
        Square::parse("h1", 7),
        Err(NotationError::OffBoard { .. })
    ));
    assert!(matches!(
        Square::parse("a8", 7),
        Err(NotationError::OffBoard { .. })
    ));
    assert!(matches!(
        Square::parse("a0", 7),
        Err(NotationError::OffBoard { .. })
    ));
    for bad in ["", "1a", "a", "a-1", "a100", "é1", "ab1"] {
        assert!(
            matches!(Square::parse(bad, 19), Err(NotationError::BadSquare(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn moves_are_read_forgivingly_and_printed_canonically() {
    let expected = Move::new(sq("e5"), sq("e8"));
    for text in [
        "e5-e8",
        "E5-E8",
        "e5 e8",
        "e5e8",
        "e5–e8",
        "e5—e8",
        " e5-e8 ",
        "Ke5-e8",
        "e5-e8xe9",
        "e5-e8xe9/f8",
        "e5-e8+",
        "e5-e8--",
        "e5:e8",
    ] {
        assert_eq!(Move::parse(text, 9).unwrap(), expected, "{text:?}");
    }
    assert_eq!(expected.to_string(), "e5-e8");
    assert_eq!(
        canonical_notation(expected, &[sq("e9"), sq("f8")]),
        "e5-e8xe9/f8"
    );
    assert_eq!(canonical_notation(expected, &[]), "e5-e8");
    assert_eq!(
        Move::parse("a10-a12", 13).unwrap(),
        Move::new(sq("a10"), sq("a12"))
    );
    for bad in [
        "",
        "e5",
        "e5-",
        "-e8",
        "e5-e8 junk",
        "e5-e8?",
        "xx-yy",
        "e5-z8",
    ] {
        assert!(Move::parse(bad, 9).is_err(), "{bad:?}");
    }
    assert!(matches!(
        Move::parse("e5-e10", 9),
        Err(NotationError::OffBoard { .. })
    ));
}

#[test]
fn position_records_round_trip_and_report_what_is_wrong() {
    let p = Position::from_opentafl(BRANDUB, Side::Attackers).unwrap();
    assert_eq!(p.to_opentafl(), BRANDUB);
    assert_eq!(p.king(), Some(sq("d4")));
    assert_eq!(p.piece_at(sq("d1")), Some(tafl_engine::Piece::Attacker));
    assert_eq!(p.dim(), 7);
    let empty19 = format!("/{}", "19/".repeat(19));
    assert_eq!(
        Position::from_opentafl(&empty19, Side::Defenders)
            .unwrap()
            .to_opentafl(),
        empty19
    );
    type Check = fn(&PositionParseError) -> bool;
    let cases: [(&str, Check); 6] = [
        ("3t3/3t3", |e| *e == PositionParseError::Shape),
        ("/3t3/", |e| *e == PositionParseError::BadSize(1)),
        ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/4t3/", |e| {
            matches!(e, PositionParseError::RowWidth { row: 7, .. })
        }),
        ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/", |e| {
            matches!(
                e,
                PositionParseError::RowWidth {
                    row: 7,
                    width: 6,
                    ..
                }
            )
        }),
        ("/3t3/3t3/3T3/ttTKTtt/3T3/3x3/3t3/", |e| {
            matches!(
                e,
                PositionParseError::UnknownPiece {
                    letter: 'x',
                    row: 6
                }
            )
        }),
        ("/3t3/3t3/3T3/ttTKTtt/3K3/3t3/3t3/", |e| {
            *e == PositionParseError::TooManyKings(2)
        }),
    ];
    for (text, check) in cases {
        let e = Position::from_opentafl(text, Side::Attackers).unwrap_err();
        assert!(check(&e), "{text}: {e:?}");
        assert!(!e.to_string().is_empty());
    }
    assert!(Position::from_opentafl("/999/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", Side::Attackers).is_err());
}

#[test]
fn every_preset_rules_string_reads_and_writes_back() {
    for v in variants() {
        let rules =
            Rules::from_opentafl(v.rules_string).unwrap_or_else(|e| panic!("{}: {e}", v.id));
        let written = rules.to_opentafl();
        assert_eq!(Rules::from_opentafl(&written).unwrap(), rules, "{}", v.id);
        assert_eq!(v.rules(), rules);
        assert!(!rules.summary().is_empty());
    }
}

#[test]
fn rules_strings_report_what_is_wrong() {
    let start = format!("start:{BRANDUB}");
    let cases: Vec<(String, RulesParseError)> = vec![
        (String::new(), RulesParseError::MissingDim),
        (format!("ks:w {start}"), RulesParseError::MissingDim),
        ("dim:7 ks:w".to_string(), RulesParseError::MissingStart),
        (
            "dim:5 start:/5/5/5/5/5/".to_string(),
            RulesParseError::BadDim(5),
        ),
        (
            format!("dim:7 oops {start}"),
            RulesParseError::BadEntry("oops".to_string()),
        ),
        (
            format!("dim:7 zz:y {start}"),
            RulesParseError::UnknownKey("zz".to_string()),
        ),
        (
            format!("dim:7 esc:c ks:w esc:e {start}"),
            RulesParseError::RepeatedKey("esc".to_string()),
        ),
        (
            format!("dim:9 {start}"),
            RulesParseError::DimMismatch { dim: 9, found: 7 },
        ),
        (
            "dim:7 start:/3t3/".to_string(),
            RulesParseError::Position(PositionParseError::BadSize(1)),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            Rules::from_opentafl(&text).unwrap_err(),
            expected,
            "{text:?}"
        );
    }
    for (text, key) in [
        (format!("dim:x {start}"), "dim"),
        (format!("dim:7 ks:q {start}"), "ks"),
        (format!("dim:7 esc:x {start}"), "esc"),
        (format!("dim:7 spd:0 {start}"), "spd"),
        (format!("dim:7 corh:tQ {start}"), "corh"),
        (format!("dim:7 cor:a1,z9, {start}"), "cor"),
    ] {
        match Rules::from_opentafl(&text).unwrap_err() {
            RulesParseError::BadValue { key: k, .. } => assert_eq!(k, key, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(
        Rules::from_opentafl(&format!("dim:7 kj:y {start}")),
        Err(RulesParseError::Unsupported(_))
    ));
}

#[test]
fn rules_strings_read_opentafl_forms() {
    // starti: the start position with the first row at the top.
    let inverted = Rules::from_opentafl("dim:7 starti:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/2tt3/").unwrap();
    assert_eq!(
        inverted.start_position().to_opentafl(),
        "/2tt3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
    );
    // Our own keys read and write back.
    let r = Rules::from_opentafl(&format!("dim:7 xslc:y xres:y xdf:y start:{BRANDUB}")).unwrap();
    assert!(r.slavic_capture && r.king_rescue && r.draw_forts);
    let written = r.to_opentafl();
    for key in ["xslc:y", "xres:y", "xdf:y"] {
        assert!(written.contains(key), "{written}");
    }
    // Speed limits: one for all, or per side.
    let r = Rules::from_opentafl(&format!("dim:7 spd:2,3 start:{BRANDUB}")).unwrap();
    assert_eq!(r.speed_limit(tafl_engine::Piece::Attacker), Some(2));
    assert_eq!(r.speed_limit(tafl_engine::Piece::King), Some(3));
    assert_eq!(Rules::from_opentafl(&r.to_opentafl()).unwrap(), r);
}
