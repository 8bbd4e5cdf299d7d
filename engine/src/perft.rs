//! Perft: the number of legal move sequences of exactly `depth` plies in which no earlier move
//! ended the game. Repetition cannot arise in so few plies from a fresh position and is not
//! tracked; every other ending is.

use crate::capture::Captures;
use crate::movegen;
use crate::moves::Move;
use crate::position::Position;
use crate::referee;
use crate::rules::Rules;

pub fn perft(rules: &Rules, position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count_legal_moves(rules, position),
        _ => {
            let mut nodes = 0;
            for (from, piece) in position.movers(position.side_to_move()) {
                movegen::for_each_destination(rules, position, from, piece, |to| {
                    let mut child = *position;
                    let mut captures = Captures::default();
                    let ended = referee::apply(
                        rules,
                        &mut child,
                        Move::new(from, to),
                        piece,
                        &mut captures,
                    );
                    if ended.is_none() {
                        nodes += perft(rules, &child, depth - 1);
                    }
                });
            }
            nodes
        }
    }
}

/// Perft split by first move, as `(move, count)` in generation order.
pub fn divide(rules: &Rules, position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for (from, piece) in position.movers(position.side_to_move()) {
        movegen::for_each_destination(rules, position, from, piece, |to| {
            let mv = Move::new(from, to);
            let mut child = *position;
            let mut captures = Captures::default();
            let ended = referee::apply(rules, &mut child, mv, piece, &mut captures);
            let count = if depth <= 1 {
                1
            } else if ended.is_some() {
                0
            } else {
                perft(rules, &child, depth - 1)
            };
            out.push((mv, count));
        });
    }
    out
}
