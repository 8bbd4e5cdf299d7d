use super::*;
use crate::outcome::WinReason;
use crate::{Position, variant};

fn limits() -> SearchLimits {
    SearchLimits::nodes(20_000).with_table_mib(4)
}

/// The example game's first two plies (see `example`): a blunder, then a missed win.
fn scripted_game() -> Game {
    let rules = variant("brandubh").unwrap().rules();
    let start = Position::from_opentafl(example::START, Side::Attackers).unwrap();
    let mut game = Game::from_position(rules, start);
    for mv in &example::MOVES[..2] {
        game.play_str(mv).unwrap();
    }
    game
}

#[test]
fn the_planted_blunder_and_the_missed_win_are_found() {
    let game = scripted_game();
    let mut heard = Vec::new();
    let plies = analyse(&game, &limits(), &mut |p| heard.push(p.ply));
    assert_eq!(heard, vec![1, 2]);
    let [blunder, missed] = &plies[..] else {
        panic!("expected two plies, got {plies:?}");
    };
    assert_eq!(blunder.side, Side::Attackers);
    assert_eq!(blunder.mark, Mark::Blunder, "{blunder:?}");
    assert_eq!(blunder.after, WinningChance::DEFENDERS_WIN);
    assert!(blunder.loss >= BLUNDER_FLOOR, "{blunder:?}");

    assert_eq!(missed.side, Side::Defenders);
    assert_eq!(missed.mark, Mark::MissedWin, "{missed:?}");
    let forced = missed.forced.as_ref().expect("the escape was forced");
    assert_eq!(forced.winner, Side::Defenders);
    assert_eq!(forced.reason, Some(WinReason::KingEscaped));
    assert_eq!(forced.describe(), "escape in 1");
    assert_eq!(missed.best.map(|m| m.to_string()).as_deref(), Some("a3-a1"));
    // After a3-b3 the attackers capture the king at once (b6-b4).
    assert_eq!(missed.after, WinningChance::ATTACKERS_WIN);

    let summary = summarize(&plies);
    assert_eq!(summary.attackers.blunders, 1);
    assert_eq!(summary.defenders.missed_wins, 1);
    assert_eq!(summary.worst[0].ply, 2, "a missed win is listed first");
    assert!(summary.defenders.accuracy < 5.0, "{summary:?}");
}

/// The smallest loss the scripted blunder gives away (a forced escape from an unclear game).
const BLUNDER_FLOOR: f64 = 30.0;

#[test]
fn the_best_move_is_marked_best_and_costs_nothing() {
    let rules = variant("brandubh").unwrap().rules();
    let start = Position::from_opentafl(example::START, Side::Defenders).unwrap();
    let mut game = Game::from_position(rules, start);
    // The king is not yet free (a2 blocks): any search move; then the analysis of that ply.
    let mut searcher = Searcher::new(4);
    let before = evaluate(&mut searcher, &game, &limits());
    let best = before.best.unwrap();
    game.play(best).unwrap();
    let after = evaluate(&mut searcher, &game, &limits());
    let ply = judge(1, Side::Defenders, best, &before, &after);
    assert_eq!(ply.mark, Mark::Best);
}

#[test]
fn winning_chance_follows_the_score_and_the_side() {
    let even = WinningChance::from_score(0, Side::Attackers);
    assert!((even.defenders() - 50.0).abs() < 1e-9);
    let up = WinningChance::from_score(100, Side::Defenders);
    let down = WinningChance::from_score(100, Side::Attackers);
    assert!(up.defenders() > 58.0 && up.defenders() < 62.0, "{up:?}");
    assert!((up.defenders() + down.defenders() - 100.0).abs() < 1e-9);
    assert!((down.for_side(Side::Attackers) - up.defenders()).abs() < 1e-9);
    let mate = WinningChance::from_score(crate::ai::MATE - 3, Side::Attackers);
    assert_eq!(mate, WinningChance::ATTACKERS_WIN);
}

#[test]
fn accuracy_falls_with_the_chance_given_away() {
    assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
    assert!(move_accuracy(5.0) > move_accuracy(15.0));
    assert_eq!(move_accuracy(100.0), 0.0);
}

#[test]
fn calibration_bins_positions_by_predicted_chance_and_scores_their_games() {
    let game = scripted_game();
    // The attackers won this game (the king is taken after a3-b3).
    let mut finished = game.clone();
    finished.play_str("b6-b4").unwrap();
    let bins = calibrate(&[finished], 0, 1, &limits());
    assert_eq!(bins.len(), 10);
    let positions: u32 = bins.iter().map(|b| b.positions).sum();
    // Positions after plies 1 and 2 (the last, after ply 3, is over and not searched).
    assert_eq!(positions, 2, "{bins:?}");
    // After a2-b2 the defenders have a forced escape: the top bin, in a game they lost.
    assert_eq!(bins[9].positions, 1, "{bins:?}");
    assert_eq!(bins[9].observed, 0.0);
    assert!(bins[9].predicted > 99.0);
    // After a3-b3 the attackers take the king: the bottom bin.
    assert_eq!(bins[0].positions, 1, "{bins:?}");
}

#[test]
fn chances_are_counted_from_the_start_of_the_game() {
    // The evaluation scores most starts for the attackers; the start itself reads as even.
    let start = WinningChance::from_defenders_score(-600, -600);
    assert!((start.defenders() - 50.0).abs() < 1e-9);
    let better = WinningChance::from_defenders_score(-350, -600);
    assert!(better.defenders() > 70.0, "{better:?}");
    let proved = WinningChance::from_defenders_score(crate::ai::MATE - 5, -600);
    assert_eq!(proved, WinningChance::DEFENDERS_WIN);
    let game = Game::new(variant("copenhagen").unwrap().rules());
    let mut searcher = Searcher::new(4);
    let evals = rebased(vec![evaluate(&mut searcher, &game, &limits())]);
    assert!(
        (evals[0].chance.defenders() - 50.0).abs() < 1e-9,
        "{:?}",
        evals[0]
    );
}
