//! Every reason the referee gives for refusing a move, with its readable sentence.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{
    Game, Move, MoveError, NotationError, Piece, PlayError, RestrictedAction, Side, Square,
};

#[test]
fn game_over() {
    let mut g = game("tablut", "Kc3 Th8 tb8", D);
    play(&mut g, "c3-c1");
    assert!(g.is_over());
    assert_eq!(refused(&g, "h8-h7"), MoveError::GameOver);
    assert_eq!(MoveError::GameOver.to_string(), "the game is over");
    assert!(g.legal_moves().is_empty());
}

#[test]
fn off_board() {
    let g = Game::new(rules("brandubh"));
    let mv = Move::new(sq("d1"), Square::new(3, 7));
    let e = g.check(mv).unwrap_err();
    assert_eq!(
        e,
        MoveError::OffBoard {
            square: Square::new(3, 7)
        }
    );
    assert_eq!(e.to_string(), "d8 is off the board");
    let mut g = g;
    assert!(matches!(
        g.play_str("d1-d8"),
        Err(PlayError::Notation(NotationError::OffBoard { .. }))
    ));
}

#[test]
fn no_piece() {
    let g = Game::new(rules("tablut"));
    let e = refused(&g, "b2-b3");
    assert_eq!(e, MoveError::NoPiece { square: sq("b2") });
    assert_eq!(e.to_string(), "there is no piece on b2");
}

#[test]
fn not_your_piece() {
    let g = Game::new(rules("tablut"));
    let e = refused(&g, "e3-b3");
    assert_eq!(
        e,
        MoveError::NotYourPiece {
            square: sq("e3"),
            piece: Piece::Defender,
            to_move: Side::Attackers
        }
    );
    assert!(e.to_string().contains("not yours"), "{e}");
}

#[test]
fn not_a_move() {
    let g = Game::new(rules("tablut"));
    assert_eq!(refused(&g, "a4-a4"), MoveError::NotAMove);
}

#[test]
fn not_straight() {
    let g = Game::new(rules("tablut"));
    let e = refused(&g, "a4-b3");
    assert_eq!(
        e,
        MoveError::NotStraight {
            from: sq("a4"),
            to: sq("b3")
        }
    );
    assert!(e.to_string().contains("not a straight line"), "{e}");
}

#[test]
fn blocked() {
    let g = Game::new(rules("tablut"));
    let e = refused(&g, "a5-d5");
    assert_eq!(e, MoveError::Blocked { at: sq("b5") });
    assert_eq!(e.to_string(), "the way is blocked at b5");
}

#[test]
fn restricted() {
    let g = game("copenhagen", "tb1 Kh9 Th8", A);
    let e = refused(&g, "b1-a1");
    assert_eq!(
        e,
        MoveError::Restricted {
            square: sq("a1"),
            piece: Piece::Attacker,
            action: RestrictedAction::StopOn
        }
    );
    assert!(e.to_string().contains("restricted square"), "{e}");
}

#[test]
fn speed_limit() {
    let g = game("slavic-9", "Kc2 Th8 tg8", D);
    let e = refused(&g, "c2-c6");
    assert_eq!(
        e,
        MoveError::SpeedLimit {
            piece: Piece::King,
            limit: 3,
            distance: 4
        }
    );
    assert!(e.to_string().contains("at most 3"), "{e}");
}

#[test]
fn fortress() {
    let g = game("slavic-9", "Tb3 Kc2 th8", D);
    let e = refused(&g, "b3-b5");
    assert_eq!(
        e,
        MoveError::Fortress {
            square: sq("b5"),
            piece: Piece::Defender,
            action: RestrictedAction::StopOn
        }
    );
    assert!(e.to_string().contains("fortress"), "{e}");
}

#[test]
fn notation_errors_are_reported_not_played() {
    let mut g = Game::new(rules("tablut"));
    for bad in [
        "",
        "e",
        "e5",
        "zz-e5",
        "e5-",
        "e0-e1",
        "e5-e8 junk",
        "a4-j4",
    ] {
        assert!(
            matches!(g.play_str(bad), Err(PlayError::Notation(_))),
            "{bad:?}"
        );
    }
    assert_eq!(g.ply(), 0);
}
