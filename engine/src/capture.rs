//! Captures made by a move: custodial (with hostile squares and an armed or unarmed king),
//! the Linnaean capture against the occupied throne, the Slavic special capture, shieldwalls,
//! and the capture of the king.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::{KingStrength, Rules, Shieldwall};
use crate::side::{Piece, Side};
use crate::square::{Direction, Square};

/// Squares captured by one move; a fixed buffer so that search allocates nothing.
#[derive(Clone, Copy)]
pub struct Captures {
    squares: [Square; 64],
    len: usize,
}

impl Default for Captures {
    fn default() -> Self {
        Captures {
            squares: [Square::new(0, 0); 64],
            len: 0,
        }
    }
}

impl Captures {
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, sq: Square) {
        if self.len < self.squares.len() && !self.as_slice().contains(&sq) {
            self.squares[self.len] = sq;
            self.len += 1;
        }
    }
}

/// Is `sq` hostile to a soldier of kind `victim`: an enemy piece (the king only as an anvil,
/// or through a hostile throne), or a special square hostile to it?
#[inline]
pub(crate) fn hostile_to_soldier(
    rules: &Rules,
    position: &Position,
    sq: Square,
    victim: Piece,
) -> bool {
    let special = rules.tables.special.contains(sq);
    match position.piece_at(sq) {
        Some(occupant) if occupant.side() != victim.side() => {
            occupant != Piece::King
                || rules.king_armed.is_anvil()
                || (special && occupied_special_hostile(rules, sq, victim))
        }
        Some(_) => false,
        None => {
            special
                && rules
                    .square_rules(rules.square_kind(sq))
                    .is_some_and(|r| r.hostile_empty.contains(victim))
        }
    }
}

fn occupied_special_hostile(rules: &Rules, sq: Square, victim: Piece) -> bool {
    rules
        .square_rules(rules.square_kind(sq))
        .is_some_and(|r| r.hostile.contains(victim))
}

/// Is `sq` hostile to the king: an attacker, or an empty special square hostile to him?
#[inline]
pub(crate) fn hostile_to_king(rules: &Rules, position: &Position, sq: Square) -> bool {
    match position.piece_at(sq) {
        Some(Piece::Attacker) => true,
        Some(_) => false,
        None => {
            rules.tables.special.contains(sq)
                && rules
                    .square_rules(rules.square_kind(sq))
                    .is_some_and(|r| r.hostile_empty.contains(Piece::King))
        }
    }
}

/// Captures of soldiers made by the piece that has just moved to `to`.
pub(crate) fn soldier_captures(
    rules: &Rules,
    position: &Position,
    to: Square,
    mover: Piece,
    out: &mut Captures,
) {
    let dim = position.dim();
    let side = mover.side();
    if mover == Piece::King && !rules.king_armed.is_hammer() {
        return;
    }
    for dir in Direction::ALL {
        let Some(victim_sq) = to.step(dir, dim) else {
            continue;
        };
        let victim = match position.piece_at(victim_sq) {
            Some(p) if p.side() != side && p != Piece::King => p,
            _ => continue,
        };
        let Some(anvil) = victim_sq.step(dir, dim) else {
            continue;
        };
        if hostile_to_soldier(rules, position, anvil, victim)
            || linnaean_capture(rules, position, victim_sq, anvil, side)
            || slavic_capture(rules, position, victim_sq, anvil, dir, side)
        {
            out.push(victim_sq);
        }
    }
    if rules.shieldwall != Shieldwall::None {
        shieldwall_captures(rules, position, to, side, out);
    }
}

/// OpenTafl `linc`; docs/rules.md, R-000-last-defender (source 000): "If the king is in the castle
/// and surrounded on three sides by attackers, but protected by a defender on the last side, it is
/// possible to capture the last defender by pinning it between an attacker piece and the occupied
/// castle."
fn linnaean_capture(
    rules: &Rules,
    position: &Position,
    victim: Square,
    anvil: Square,
    side: Side,
) -> bool {
    if !rules.linnaean_capture || side != Side::Attackers || position.king() != Some(anvil) {
        return false;
    }
    rules.is_throne(anvil)
        && anvil
            .neighbours(position.dim())
            .filter(|&n| n != victim)
            .all(|n| position.piece_at(n) == Some(Piece::Attacker))
        && anvil.neighbours(position.dim()).count() == 4
}

/// docs/rules.md, R-001-special-capture (source 001): "if a black knight is between two white
/// knights ... and it has a king from the 3-rd side, then it can be killed by a white knight that
/// moves to it's 4-th side".
fn slavic_capture(
    rules: &Rules,
    position: &Position,
    victim: Square,
    beyond: Square,
    dir: Direction,
    side: Side,
) -> bool {
    if !rules.slavic_capture || side != Side::Attackers || position.king() != Some(beyond) {
        return false;
    }
    dir.perpendicular().into_iter().all(|flank| {
        victim
            .step(flank, position.dim())
            .is_some_and(|sq| position.piece_at(sq) == Some(Piece::Attacker))
    })
}

/// A row of two or more enemy pieces along the edge, bracketed at both ends by the mover's
/// pieces (or a corner, with strong shieldwalls) and each faced by one of the mover's pieces
/// on the square in front of it, is captured; the king in such a row survives.
fn shieldwall_captures(
    rules: &Rules,
    position: &Position,
    to: Square,
    side: Side,
    out: &mut Captures,
) {
    let dim = position.dim();
    let last = dim - 1;
    // Each edge: a line along it and the inward direction.
    let edges: [(bool, u8, Direction); 4] = [
        (true, 0, Direction::Up),
        (true, last, Direction::Down),
        (false, 0, Direction::Right),
        (false, last, Direction::Left),
    ];
    let friendly = |sq: Square| -> bool {
        match position.piece_at(sq) {
            Some(Piece::King) => side == Side::Defenders && rules.king_armed.is_hammer(),
            Some(p) => p.side() == side,
            None => false,
        }
    };
    let bracket = |sq: Square| -> bool {
        friendly(sq)
            || (rules.shieldwall == Shieldwall::Strong
                && rules.corners.contains(sq)
                && !position.is_occupied(sq))
    };
    for (horizontal, line, inward) in edges {
        let at = |i: u8| {
            if horizontal {
                Square::new(i, line)
            } else {
                Square::new(line, i)
            }
        };
        let mut i = 0;
        while i < dim {
            let enemy = |sq: Square| position.piece_at(sq).is_some_and(|p| p.side() != side);
            if !enemy(at(i)) {
                i += 1;
                continue;
            }
            let start = i;
            while i < dim && enemy(at(i)) {
                i += 1;
            }
            let end = i; // exclusive
            if end - start < 2 || start == 0 || end >= dim {
                continue;
            }
            let (left, right) = (at(start - 1), at(end));
            if !(bracket(left) && bracket(right)) {
                continue;
            }
            if rules.shieldwall_flank_required && to != left && to != right {
                continue;
            }
            let faced = (start..end).all(|j| at(j).step(inward, dim).is_some_and(friendly));
            if faced {
                for j in start..end {
                    if position.piece_at(at(j)) != Some(Piece::King) {
                        out.push(at(j));
                    }
                }
            }
        }
    }
}

/// Is the king captured, as the rules define it? With `hammer`, only a capture that the piece
/// on `hammer` takes part in counts (a capture is made by the capturing side's move).
pub(crate) fn king_captured(rules: &Rules, position: &Position, hammer: Option<Square>) -> bool {
    let Some(king) = position.king() else {
        return false;
    };
    let dim = position.dim();
    if let Some(h) = hammer
        && !h.neighbours(dim).any(|n| n == king)
    {
        return false;
    }
    let strength = rules.king_strength_on(king);
    match strength {
        KingStrength::Weak => {
            let axes: &[Direction] = match hammer.and_then(|h| Direction::between(h, king)) {
                Some(dir) => &[dir][..],
                None => &[Direction::Up, Direction::Right][..],
            };
            axes.iter().any(|&dir| {
                let ahead = king.step(dir, dim);
                let behind = king.step(dir.opposite(), dim);
                match (ahead, behind) {
                    (Some(a), Some(b)) => {
                        hostile_to_king(rules, position, a) && hostile_to_king(rules, position, b)
                    }
                    _ => false,
                }
            })
        }
        KingStrength::Strong | KingStrength::StrongNearThrone => {
            Direction::ALL.iter().all(|&dir| {
                king.step(dir, dim)
                    .is_some_and(|sq| hostile_to_king(rules, position, sq))
            })
        }
        KingStrength::Middleweight => Direction::ALL.iter().all(|&dir| {
            king.step(dir, dim)
                .is_none_or(|sq| hostile_to_king(rules, position, sq))
        }),
    }
}

/// Removes the captured pieces from the board.
pub(crate) fn remove_captured(position: &mut Position, captures: &Captures) {
    for &sq in captures.as_slice() {
        position.remove(sq);
    }
}

/// Squares reachable from `seeds` through squares not in `walls`, stopping early once `goal`
/// is touched. Returns whether `goal` was reached.
pub(crate) fn flood_reaches(dim: u8, seeds: &Bitboard, walls: &Bitboard, goal: &Bitboard) -> bool {
    let full = Bitboard::full(dim);
    let open = full.difference(walls);
    let mut reached = seeds.intersection(&open);
    if reached.intersects(goal) {
        return true;
    }
    loop {
        let mut grown = reached;
        for rank in 0..dim {
            let row = reached.row(rank);
            let mut spread = row | (row << 1) | (row >> 1);
            if rank > 0 {
                spread |= reached.row(rank - 1);
            }
            if rank + 1 < dim {
                spread |= reached.row(rank + 1);
            }
            grown.set_row(rank, spread & open.row(rank));
        }
        if grown == reached {
            return false;
        }
        if grown.intersects(goal) {
            return true;
        }
        reached = grown;
    }
}
