//! Move ordering: the table move first, then captures and threats, killers, and the history
//! of quiet moves that caused cut-offs.

use crate::bitboard::Bitboard;
use crate::capture;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::side::{Piece, Side};
use crate::square::{Direction, MAX_DIM, Square};

const SQUARES: usize = MAX_DIM as usize * MAX_DIM as usize;

pub(crate) const TABLE_MOVE: i32 = 1 << 30;
pub(crate) const CAPTURE: i32 = 1 << 24;
pub(crate) const THREAT: i32 = 1 << 23;

#[derive(Clone, Copy, Debug)]
pub(crate) struct ScoredMove {
    pub mv: Move,
    pub piece: Piece,
    pub score: i32,
}

/// Killer moves per ply and the history table, kept by a searcher across its searches.
pub(crate) struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl Ordering {
    pub fn new(max_ply: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; max_ply + 2],
            history: vec![0; 2 * SQUARES * SQUARES],
        }
    }

    /// Between searches: forget killers, age history.
    pub fn age(&mut self) {
        for k in &mut self.killers {
            *k = [None; 2];
        }
        for h in &mut self.history {
            *h /= 8;
        }
    }

    #[inline]
    fn history_index(side: Side, mv: Move) -> usize {
        (side as usize) * SQUARES * SQUARES + mv.from.index() * SQUARES + mv.to.index()
    }

    #[inline]
    pub fn history(&self, side: Side, mv: Move) -> i32 {
        self.history[Self::history_index(side, mv)]
    }

    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// A quiet move caused a cut-off at `ply` with `depth` plies left.
    pub fn reward(&mut self, side: Side, mv: Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let h = &mut self.history[Self::history_index(side, mv)];
        *h += depth * depth;
        if *h > 1 << 20 {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }
}

/// Empty squares where a piece of the side to move would capture at least one enemy soldier
/// by the custodial rule (shieldwalls and special captures are left to the referee).
pub(crate) fn capture_squares(rules: &Rules, position: &Position) -> Bitboard {
    let side = position.side_to_move();
    let dim = position.dim();
    let (victims, victim) = match side {
        Side::Attackers => (position.defenders(), Piece::Defender),
        Side::Defenders => (position.attackers(), Piece::Attacker),
    };
    let mut out = Bitboard::EMPTY;
    for v in victims.squares() {
        for dir in [Direction::Up, Direction::Right] {
            let (Some(a), Some(b)) = (v.step(dir, dim), v.step(dir.opposite(), dim)) else {
                continue;
            };
            for (land, anvil) in [(a, b), (b, a)] {
                if !position.is_occupied(land)
                    && capture::hostile_to_soldier(rules, position, anvil, victim)
                {
                    out.insert(land);
                }
            }
        }
    }
    out
}

/// Empty squares next to the king where an attacker landing might capture him: beside a
/// king taken by two men, the squares opposite a hostile one; beside a king taken by four, the
/// last open side.
pub(crate) fn king_capture_squares(rules: &Rules, position: &Position) -> Bitboard {
    use crate::rules::KingStrength;
    let mut out = Bitboard::EMPTY;
    let Some(king) = position.king() else {
        return out;
    };
    let dim = position.dim();
    let weak = rules.king_strength_on(king) == KingStrength::Weak;
    if weak {
        for dir in [Direction::Up, Direction::Right] {
            let (Some(a), Some(b)) = (king.step(dir, dim), king.step(dir.opposite(), dim)) else {
                continue;
            };
            for (land, anvil) in [(a, b), (b, a)] {
                if !position.is_occupied(land) && capture::hostile_to_king(rules, position, anvil) {
                    out.insert(land);
                }
            }
        }
        return out;
    }
    let mut sides = 0;
    let mut hostile = 0;
    for n in king.neighbours(dim) {
        sides += 1;
        if capture::hostile_to_king(rules, position, n) {
            hostile += 1;
        } else if !position.is_occupied(n) {
            out.insert(n);
        }
    }
    let needed = if rules.king_strength == KingStrength::Middleweight {
        sides
    } else {
        4
    };
    if sides >= needed && hostile + 1 == needed && out.count() == 1 {
        out
    } else {
        Bitboard::EMPTY
    }
}

/// The squares of the king's open lines (from the king, exclusive, to the winning square,
/// inclusive): where an attacker must land to block an escape.
pub(crate) fn escape_paths(rules: &Rules, position: &Position, king: Square) -> Bitboard {
    paths_to(rules, position, king, rules.escape_squares())
}

/// The squares of the king's moves onto `targets` (from the king, exclusive, to the target,
/// inclusive): where an attacker may land to keep him from them.
pub(crate) fn paths_to(
    rules: &Rules,
    position: &Position,
    king: Square,
    targets: &Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let dim = position.dim();
    crate::movegen::for_each_destination(rules, position, king, Piece::King, |to| {
        if targets.contains(to)
            && let Some(dir) = Direction::between(king, to)
        {
            let mut sq = king;
            while sq != to {
                match sq.step(dir, dim) {
                    Some(next) => sq = next,
                    None => break,
                }
                out.insert(sq);
            }
        }
    });
    out
}

/// Squares from which the king could move straight onto one of `targets` (the king's own
/// square counted empty): a king move there threatens to reach them next. Also those from
/// which he could reach targets in two directions, "forks": no single attacker move closes
/// both ways (g3-b3 with b1 and b11 in reach).
pub(crate) fn lines_towards(
    rules: &Rules,
    position: &Position,
    targets: &Bitboard,
) -> (Bitboard, Bitboard) {
    let dim = position.dim();
    let king = position.king();
    let impassable = &rules.tables.impassable_rows[Piece::King.index()];
    // Per direction of the king's move: the squares from which a target is reached that way.
    let mut by_direction = [Bitboard::EMPTY; 4];
    for target in targets.squares() {
        for (i, dir) in Direction::ALL.into_iter().enumerate() {
            let mut sq = target;
            while let Some(next) = sq.step(dir, dim) {
                if (position.is_occupied(next) && Some(next) != king) || impassable.contains(next) {
                    break;
                }
                by_direction[i].insert(next);
                sq = next;
            }
        }
    }
    let [a, b, c, d] = by_direction;
    let any = a.union(&b).union(&c).union(&d);
    let forks = a
        .intersection(&b.union(&c).union(&d))
        .union(&b.intersection(&c.union(&d)))
        .union(&c.intersection(&d));
    (any, forks)
}

/// Does the king of this position have an open line to a winning square?
#[inline]
pub(crate) fn king_can_escape(rules: &Rules, position: &Position) -> bool {
    let Some(king) = position.king() else {
        return false;
    };
    if position.king_awaits_rescue() {
        return false;
    }
    let escape = rules.escape_squares();
    let mut found = false;
    crate::movegen::for_each_destination(rules, position, king, Piece::King, |to| {
        found |= escape.contains(to);
    });
    found
}
