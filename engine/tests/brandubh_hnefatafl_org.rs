//! The `brandubh-hnefatafl-org` preset: 7x7 Brandubh as hnefatafl.org's engine
//! (hnefatafl-copenhagen 6.4) plays it. Each test names the behaviour of that engine it
//! mirrors; `tafl match` against it compares boards after every ply.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Game, Piece, Side, WinReason};

const ID: &str = "brandubh-hnefatafl-org";

/// On 7x7 the defenders move first; 8 attackers, 4 defenders, the king on the throne d4.
#[test]
fn defenders_move_first() {
    let g = Game::new(rules(ID));
    assert_eq!(g.side_to_move(), Side::Defenders);
    assert_eq!(g.position().count(Piece::Attacker), 8);
    assert_eq!(g.position().count(Piece::Defender), 4);
    assert_eq!(g.position().king(), Some(sq("d4")));
}

/// On the throne the king is captured only by four attackers.
#[test]
fn king_on_the_throne_needs_four() {
    let mut g = game(ID, "Kd4 tc4 te4 td5 ta3 Tg7", Side::Attackers);
    assert_eq!(play(&mut g, "a3-b3").outcome, None);
    let mut g = game(ID, "Kd4 tc4 te4 td5 td1 Tg7", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "d1-d3")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

/// Off the throne, even beside it, two attackers on opposite sides capture the king, and the
/// empty throne does not stand in for an attacker against him.
#[test]
fn king_off_the_throne_is_weak_and_the_throne_spares_him() {
    let mut g = game(ID, "Kd5 tc5 tg5 Ta1", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "g5-e5")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
    let mut g = game(ID, "Kd5 tg6 Ta1", Side::Attackers);
    assert_eq!(
        play(&mut g, "g6-d6").outcome,
        None,
        "d4 is the empty throne"
    );
}

/// A corner captures the king with one attacker, as it captures soldiers.
#[test]
fn a_corner_is_hostile_to_the_king() {
    let mut g = game(ID, "Kb1 tc7 Tg4", Side::Attackers);
    assert_eq!(
        win(&play(&mut g, "c7-c1")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

/// The empty throne is hostile to soldiers of both sides; occupied by the king, only to
/// attackers.
#[test]
fn the_throne_is_hostile_to_soldiers() {
    let mut g = game(ID, "Kg6 Td5 td7 Ta1", Side::Attackers);
    assert_eq!(captured(&play(&mut g, "d7-d6")), vec!["d5"]);
    let mut g = game(ID, "Kg6 td5 Tb6 ta1", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "b6-d6")), vec!["d5"]);
}

/// The king captures, moving or as the anvil.
#[test]
fn the_king_is_armed() {
    let mut g = game(ID, "Kb3 tc3 Td1 ta7", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "d1-d3")), vec!["c3"]);
    let mut g = game(ID, "Kb5 tc3 Td3 ta7", Side::Defenders);
    assert_eq!(captured(&play(&mut g, "b5-b3")), vec!["c3"]);
}

/// hnefatafl-copenhagen refuses the defenders any move that recreates an earlier board; the
/// game lists such moves so that a host can keep to that rule.
#[test]
fn moves_recreating_a_board_are_listed() {
    let mut g = game(ID, "Kd4 Tc5 tb2 tf6", Side::Defenders);
    play_all(&mut g, &["c5-c6", "b2-b3", "c6-c5"]);
    // Whoever is to move: b3-b2 gives back the board after the first move.
    assert_eq!(
        g.moves_recreating_a_board(),
        vec![tafl_engine::Move::parse("b3-b2", 7).unwrap()]
    );
    play(&mut g, "b3-b2");
    // c5-c6 now recreates the board after the first move; nothing else does.
    assert_eq!(
        g.moves_recreating_a_board(),
        vec![tafl_engine::Move::parse("c5-c6", 7).unwrap()]
    );
}

/// Its move generator never lets a soldier cross the empty throne; the king may.
#[test]
fn only_the_king_crosses_the_throne() {
    let g = game(ID, "td6 Kb4 Tg2", Side::Attackers);
    assert_eq!(
        refused(&g, "d6-d2"),
        tafl_engine::MoveError::Restricted {
            square: sq("d4"),
            piece: Piece::Attacker,
            action: tafl_engine::RestrictedAction::PassThrough
        }
    );
    assert!(legal(&g, "d6-d5"));
    let g = game(ID, "td7 Kb4 Tg2", Side::Defenders);
    assert!(legal(&g, "b4-f4"));
}
