//! A start is judged like any ply: a position the referee would already call decided, or one
//! that leaves a side nothing to play, cannot begin a game.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Game, Rules, Side, StartError, WinReason, check_start, variants};

fn rules_string(text: &str) -> Rules {
    Rules::from_opentafl(text).unwrap()
}

#[test]
fn every_preset_starts() {
    for v in variants() {
        assert_eq!(v.rules().check_start(), Ok(()), "{}", v.id);
        assert!(Game::start(v.rules()).is_ok(), "{}", v.id);
    }
}

#[test]
fn a_board_without_a_king_or_without_attackers_is_refused() {
    let empty = rules_string("dim:7 start:/7/7/7/7/7/7/7/");
    assert_eq!(empty.check_start(), Err(StartError::NoKing));
    let attackers_only = rules_string("dim:7 start:/3t3/7/7/7/7/7/7/");
    assert_eq!(attackers_only.check_start(), Err(StartError::NoKing));
    let king_alone = rules_string("dim:7 start:/7/7/7/3K3/7/7/7/");
    assert_eq!(king_alone.check_start(), Err(StartError::NoAttackers));
    // Defenders first changes nothing: the attackers would have nothing to answer with.
    let king_first = rules_string("dim:7 atkf:n start:/7/7/7/3K3/7/7/7/");
    assert_eq!(king_first.check_start(), Err(StartError::NoAttackers));
    assert_eq!(
        Game::start(king_alone).unwrap_err().to_string(),
        "the start position has no attackers"
    );
}

#[test]
fn a_king_on_a_winning_square_is_refused() {
    let corner = rules_string("dim:7 start:/K6/7/7/7/7/7/3t3/");
    assert_eq!(
        corner.check_start(),
        Err(StartError::KingEscaped { square: sq("a1") })
    );
    let edge = rules_string("dim:7 esc:e start:/3K3/7/7/7/7/7/3t3/");
    assert_eq!(
        edge.check_start(),
        Err(StartError::KingEscaped { square: sq("d1") })
    );
    assert!(
        Game::start(corner)
            .unwrap_err()
            .to_string()
            .contains("a winning square")
    );
}

#[test]
fn a_side_to_move_without_a_legal_move_is_refused() {
    // The one attacker on a2 is boxed in by defenders and the corner it may not enter.
    let boxed = rules_string("dim:7 start:/7/tT5/T6/3K3/7/7/7/");
    let refused = boxed.check_start();
    assert_eq!(
        refused,
        Err(StartError::NoLegalMove {
            side: Side::Attackers
        })
    );
    // The game the engine would have made of it is already over, which is why it is refused.
    let decided = Game::new(boxed.clone());
    assert_eq!(
        win_of(&decided),
        Some((Side::Defenders, WinReason::NoLegalMoves))
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "the attackers, who move first, have no legal move"
    );
}

#[test]
fn positions_already_won_by_capture_encirclement_or_edge_fort_are_refused() {
    let copenhagen = rules("copenhagen");
    let captured = position_on(11, "Kc3 tb3 td3 tc2 tc4 ta11", Side::Attackers);
    assert_eq!(
        check_start(&copenhagen, &captured),
        Err(StartError::KingCaptured { square: sq("c3") })
    );
    let ring = "td4 te4 tf4 tg4 th4 td8 te8 tf8 tg8 th8 td5 td6 td7 th5 th6 th7";
    let encircled = position_on(11, &format!("Kf6 {ring}"), Side::Attackers);
    assert_eq!(
        check_start(&copenhagen, &encircled),
        Err(StartError::Encircled)
    );
    let fort = position_on(
        11,
        "Ke1 Td1 Tf1 Td2 Tf2 Td3 Te3 Tf3 ta6 tk6",
        Side::Attackers,
    );
    assert_eq!(check_start(&copenhagen, &fort), Err(StartError::EdgeFort));
    assert!(Game::start_from(copenhagen, fort).is_err());
}

#[test]
fn a_playable_position_starts_from_anywhere() {
    let copenhagen = rules("copenhagen");
    let position = position_on(11, "Kf6 Tf5 ta4", Side::Attackers);
    let game = Game::start_from(copenhagen, position).unwrap();
    assert!(!game.is_over());
}

fn win_of(game: &Game) -> Option<(Side, WinReason)> {
    match game.outcome()? {
        tafl_engine::Outcome::Win { winner, reason } => Some((*winner, *reason)),
        tafl_engine::Outcome::Draw { .. } => None,
    }
}

/// A game that began at a refused start anyway (stored before the check) ends as the referee
/// would have called it: a side that cannot move loses.
#[test]
fn a_refused_start_has_the_referees_result_where_the_rules_give_one() {
    use tafl_engine::Outcome;
    let win = |winner, reason| Some(Outcome::Win { winner, reason });
    assert_eq!(StartError::NoKing.outcome(), None);
    assert_eq!(
        StartError::NoAttackers.outcome(),
        win(Side::Defenders, WinReason::NoLegalMoves)
    );
    assert_eq!(
        StartError::KingEscaped { square: sq("a1") }.outcome(),
        win(Side::Defenders, WinReason::KingEscaped)
    );
    assert_eq!(
        StartError::NoLegalMove {
            side: Side::Attackers
        }
        .outcome(),
        win(Side::Defenders, WinReason::NoLegalMoves)
    );
    assert_eq!(
        StartError::Encircled.outcome(),
        win(Side::Attackers, WinReason::Encirclement)
    );
}
