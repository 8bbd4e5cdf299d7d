//! Helpers shared by the rule-sentence tests: positions written as piece lists, moves played
//! with a clear message when the referee refuses them.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::{
    Game, MoveError, MoveReport, Outcome, Piece, Position, Rules, Side, Square, WarningKind,
    WinReason, variant,
};

pub const A: Side = Side::Attackers;
pub const D: Side = Side::Defenders;

pub fn rules(id: &str) -> Rules {
    variant(id)
        .unwrap_or_else(|| panic!("no variant {id}"))
        .rules()
}

/// A board of `dim` holding only the listed pieces, written `Ke5 Td5 tc5` (K king, T defender,
/// t attacker), read through an OpenTafl position record so the record reader is exercised too.
pub fn position_on(dim: u8, pieces: &str, to_move: Side) -> Position {
    let mut grid = vec![vec!['.'; dim as usize]; dim as usize];
    for item in pieces.split_whitespace() {
        let letter = item.chars().next().unwrap();
        assert!(matches!(letter, 'K' | 'T' | 't'), "bad piece {item}");
        let sq = Square::parse(&item[1..], dim).unwrap();
        let cell = &mut grid[sq.rank() as usize][sq.file() as usize];
        assert_eq!(*cell, '.', "two pieces on {sq}");
        *cell = letter;
    }
    let mut record = String::from("/");
    for row in &grid {
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    record.push_str(&empty.to_string());
                    empty = 0;
                }
                record.push(c);
            }
        }
        if empty > 0 {
            record.push_str(&empty.to_string());
        }
        record.push('/');
    }
    Position::from_opentafl(&record, to_move).unwrap()
}

/// A game of preset `id` from a position holding only the listed pieces.
pub fn game(id: &str, pieces: &str, to_move: Side) -> Game {
    let rules = rules(id);
    let position = position_on(rules.dim(), pieces, to_move);
    Game::from_position(rules, position)
}

pub fn sq(name: &str) -> Square {
    Square::parse(name, 19).unwrap()
}

/// Name of the square at 0-based (file, rank).
pub fn at(file: u8, rank: u8) -> String {
    Square::new(file, rank).to_string()
}

/// Plays a move the referee must accept.
pub fn play(game: &mut Game, mv: &str) -> MoveReport {
    match game.play_str(mv) {
        Ok(report) => report,
        Err(e) => panic!("{mv} refused: {e}\n{:?}", game.position()),
    }
}

/// Plays several moves the referee must accept; returns the last report.
pub fn play_all(game: &mut Game, moves: &[&str]) -> MoveReport {
    let mut last = None;
    for mv in moves {
        last = Some(play(game, mv));
    }
    last.expect("at least one move")
}

/// The reason the referee refuses a move it must refuse.
pub fn refused(game: &Game, mv: &str) -> MoveError {
    let parsed = tafl_engine::Move::parse(mv, game.rules().dim()).unwrap();
    match game.check(parsed) {
        Err(e) => e,
        Ok(_) => panic!("{mv} was accepted\n{:?}", game.position()),
    }
}

/// Is the move legal (and listed by the move generator)?
pub fn legal(game: &Game, mv: &str) -> bool {
    let parsed = tafl_engine::Move::parse(mv, game.rules().dim()).unwrap();
    let checked = game.check(parsed).is_ok();
    let listed = game.legal_moves().contains(&parsed);
    assert_eq!(checked, listed, "checker and generator disagree on {mv}");
    checked
}

/// Captured squares of a report, sorted, as names.
pub fn captured(report: &MoveReport) -> Vec<String> {
    let mut names: Vec<String> = report.captures.iter().map(ToString::to_string).collect();
    names.sort();
    names
}

pub fn win(report: &MoveReport) -> Option<(Side, WinReason)> {
    match report.outcome {
        Some(Outcome::Win { winner, reason }) => Some((winner, reason)),
        _ => None,
    }
}

pub fn piece(game: &Game, name: &str) -> Option<Piece> {
    game.position().piece_at(sq(name))
}

pub fn warning_kind(report: &MoveReport) -> Option<WarningKind> {
    report.warning.as_ref().map(|w| w.kind)
}
