//! Which positions can begin a game. Capture is active in every rule set (docs/rules.md,
//! `R-default-custodial`): a piece that already stands between enemies is not taken, so such a
//! position is playable. Only a start with no king, a king already on a winning square, or no
//! legal move for the side to move is refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use tafl_engine::{Game, Rules, Side, StartError, WinReason, check_start, perft::perft, variants};

fn rules_string(text: &str) -> Rules {
    Rules::from_opentafl(text).unwrap()
}

/// The start must be accepted, and after `quiet`, a move that closes no trap, every piece named
/// in `standing` must still be on the board and the game still on: nothing was captured for
/// standing where it stood.
fn playable_and_nothing_taken(
    id: &str,
    pieces: &str,
    to_move: Side,
    quiet: &str,
    standing: &[&str],
) {
    let rules = rules(id);
    let position = position_on(rules.dim(), pieces, to_move);
    assert_eq!(check_start(&rules, &position), Ok(()), "{id}: {pieces}");
    let mut game = Game::start_from(rules, position).unwrap();
    assert!(!game.is_over(), "{id}: {pieces}");
    let report = play(&mut game, quiet);
    assert!(
        report.captures.is_empty(),
        "{id}: {quiet} captured {:?}",
        captured(&report)
    );
    assert_eq!(report.outcome, None, "{id}: {quiet}");
    for name in standing {
        assert!(
            piece(&game, name).is_some(),
            "{id}: the piece on {name} was taken"
        );
    }
}

#[test]
fn every_preset_starts() {
    for v in variants() {
        assert_eq!(v.rules().check_start(), Ok(()), "{}", v.id);
        assert!(Game::start(v.rules()).is_ok(), "{}", v.id);
    }
}

/// The position of the regression: a weak king on f5 between attackers on e5 and g5 (edge
/// escape, armed king). OpenTafl counts 70, 723 and 41,357 moves from it.
#[test]
fn a_king_between_two_attackers_starts_and_has_opentafls_move_counts() {
    let rules = rules_string(
        "dim:7 esc:e atkf:y ka:y ks:w cor: cen: surf:n start:/1t1tt2/1t5/3tT2/6t/2t1tKt/2t4/tt2t2/",
    );
    assert_eq!(rules.check_start(), Ok(()));
    let position = rules.start_position();
    let counts: Vec<u64> = (1..=3)
        .map(|depth| perft(&rules, &position, depth))
        .collect();
    assert_eq!(counts, [70, 723, 41_357]);
    let game = Game::start(rules).unwrap();
    assert!(!game.is_over());
}

#[test]
fn a_weak_king_between_two_attackers_at_the_edge_is_not_captured_by_standing_there() {
    // brandub-opentafl: weak king, corner escape; d1 is an edge square, not a winning one.
    playable_and_nothing_taken(
        "brandub-opentafl",
        "Kd1 tc1 te1 Td4 ta4",
        Side::Attackers,
        "a4-a5",
        &["d1"],
    );
    playable_and_nothing_taken(
        "brandub-opentafl",
        "Kd1 tc1 te1 Td4 ta4",
        Side::Defenders,
        "d4-d5",
        &["d1"],
    );
    // The trap still works when a move closes it.
    let mut game = game("brandub-opentafl", "Kd1 tc1 tf1 Tf4 ta4", Side::Attackers);
    assert_eq!(
        win(&play(&mut game, "f1-e1")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

#[test]
fn a_strong_king_surrounded_on_the_throne_or_beside_it_is_not_captured_by_standing_there() {
    // Copenhagen: the king on the throne f6 with four attackers around him.
    playable_and_nothing_taken(
        "copenhagen",
        "Kf6 te6 tg6 tf5 tf7 Tb2 ta5",
        Side::Attackers,
        "a5-a4",
        &["f6"],
    );
    // Tablut: beside the throne (e5) the empty throne makes the fourth side of three attackers.
    playable_and_nothing_taken(
        "tablut",
        "Kd5 tc5 td4 td6 Tb2 ta8",
        Side::Defenders,
        "b2-b3",
        &["d5"],
    );
    // On the throne with three attackers, the fourth closing the trap captures.
    let mut game = game("copenhagen", "Kf6 te6 tg6 tf5 tf9 Tb2", Side::Attackers);
    assert_eq!(
        win(&play(&mut game, "f9-f7")),
        Some((Side::Attackers, WinReason::KingCaptured))
    );
}

#[test]
fn a_king_against_the_edge_under_the_linnaeus_edge_option_is_not_captured_by_standing_there() {
    playable_and_nothing_taken(
        "tablut-linnaeus-edge",
        "Kc1 tb1 td1 tc2 Th8 ta5",
        Side::Defenders,
        "h8-h7",
        &["c1"],
    );
}

#[test]
fn an_ordinary_piece_between_enemies_or_against_a_hostile_square_is_not_captured_by_standing_there()
{
    // Between two attackers, either side to move.
    for (side, quiet) in [(Side::Attackers, "a8-a9"), (Side::Defenders, "f6-f7")] {
        playable_and_nothing_taken("copenhagen", "Tc3 tb3 td3 Kf6 ta8", side, quiet, &["c3"]);
    }
    // Against a hostile corner (Copenhagen) and the empty throne (Tablut).
    playable_and_nothing_taken(
        "copenhagen",
        "Tb1 tc1 Kf6 ta8",
        Side::Attackers,
        "a8-a9",
        &["b1"],
    );
    playable_and_nothing_taken(
        "tablut",
        "Td5 tc5 Kb2 ta8",
        Side::Attackers,
        "a8-a9",
        &["d5"],
    );
    // An attacker between two defenders.
    playable_and_nothing_taken(
        "copenhagen",
        "tc3 Tb3 Td3 Kf6 ta8",
        Side::Defenders,
        "f6-f7",
        &["c3"],
    );
    // A shieldwall already bracketed at both ends with enemies in front.
    playable_and_nothing_taken(
        "copenhagen",
        "Tc1 Td1 tc2 td2 tb1 te1 Kh9 Th8 ta6",
        Side::Attackers,
        "a6-a7",
        &["c1", "d1"],
    );
}

#[test]
fn encirclement_and_edge_forts_are_judged_after_a_move_not_at_the_start() {
    let copenhagen = rules("copenhagen");
    let ring = "td4 te4 tf4 tg4 th4 td8 te8 tf8 tg8 th8 td5 td6 td7 th5 th6 th7 tb10";
    let encircled = position_on(11, &format!("Kf6 {ring}"), Side::Defenders);
    assert_eq!(check_start(&copenhagen, &encircled), Ok(()));
    let mut game = Game::start_from(copenhagen.clone(), encircled).unwrap();
    assert_eq!(play(&mut game, "f6-f5").outcome, None);
    assert_eq!(
        win(&play(&mut game, "b10-b9")),
        Some((Side::Attackers, WinReason::Encirclement))
    );

    let fort = position_on(
        11,
        "Ke1 Td1 Tf1 Td2 Tf2 Td3 Te3 Tf3 ta6 tk6",
        Side::Attackers,
    );
    assert_eq!(check_start(&copenhagen, &fort), Ok(()));
    let mut game = Game::start_from(copenhagen, fort).unwrap();
    // Standing in the fort wins nothing; the defenders' move back into it does.
    for quiet in ["a6-a7", "e1-e2", "a7-a6"] {
        assert_eq!(play(&mut game, quiet).outcome, None, "{quiet}");
    }
    assert_eq!(
        win(&play(&mut game, "e2-e1")),
        Some((Side::Defenders, WinReason::EdgeFort))
    );
}

#[test]
fn a_board_without_a_king_is_refused() {
    let empty = rules_string("dim:7 start:/7/7/7/7/7/7/7/");
    assert_eq!(empty.check_start(), Err(StartError::NoKing));
    let attackers_only = rules_string("dim:7 start:/3t3/7/7/7/7/7/7/");
    assert_eq!(attackers_only.check_start(), Err(StartError::NoKing));
    assert_eq!(
        Game::start(attackers_only).unwrap_err().to_string(),
        "the start position has no king"
    );
}

#[test]
fn a_king_alone_is_refused_only_when_the_attackers_must_move() {
    let attackers_first = rules_string("dim:7 start:/7/7/7/3K3/7/7/7/");
    assert_eq!(
        attackers_first.check_start(),
        Err(StartError::NoLegalMove {
            side: Side::Attackers
        })
    );
    // Defenders first: their move leaves the attackers nothing to play, and they lose by it.
    let defenders_first = rules_string("dim:7 atkf:n start:/7/7/7/3K3/7/7/7/");
    assert_eq!(defenders_first.check_start(), Ok(()));
    let mut game = Game::start(defenders_first).unwrap();
    assert_eq!(
        win(&play(&mut game, "d4-d5")),
        Some((Side::Defenders, WinReason::NoLegalMoves))
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
}
