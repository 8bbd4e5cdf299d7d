//! Playing one move on a position: captures, then the outcomes that the position alone decides
//! (escape, king capture and rescue, edge fort, encirclement, no legal move). Repetition and
//! draw forts need the game's history and live in [`crate::game`].

use crate::bitboard::Bitboard;
use crate::capture::{self, Captures};
use crate::movegen;
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::{Piece, Side};
use crate::square::Square;

/// Plays a move already known to be legal, made by `piece`. Fills `captures` and returns the
/// outcome if the move ended the game. The position's side to move is passed to the opponent.
#[inline]
pub fn apply(
    rules: &Rules,
    position: &mut Position,
    mv: Move,
    piece: Piece,
    captures: &mut Captures,
) -> Option<Outcome> {
    let side = piece.side();
    position.shift(mv.from, mv.to, piece);
    capture::soldier_captures(rules, position, mv.to, piece, captures);
    capture::remove_captured(position, captures);
    position.set_side_to_move(side.opponent());

    if piece == Piece::King && rules.is_escape_square(mv.to) {
        position.set_king_awaits_rescue(false);
        return Some(win(Side::Defenders, WinReason::KingEscaped));
    }
    match side {
        Side::Attackers => {
            if capture::king_captured(rules, position, Some(mv.to)) {
                if rules.king_rescue {
                    position.set_king_awaits_rescue(true);
                } else {
                    return Some(win(Side::Attackers, WinReason::KingCaptured));
                }
            }
            if rules.encirclement && encircled(position) {
                return Some(win(Side::Attackers, WinReason::Encirclement));
            }
        }
        Side::Defenders => {
            if position.king_awaits_rescue() {
                if capture::king_captured(rules, position, None) {
                    return Some(win(Side::Attackers, WinReason::KingCaptured));
                }
                position.set_king_awaits_rescue(false);
            }
            if rules.edge_fort_escape && in_edge_fort(rules, position) {
                return Some(win(Side::Defenders, WinReason::EdgeFort));
            }
        }
    }
    if !movegen::has_legal_move(rules, position) {
        // A captured king whose side cannot move at all cannot be rescued (docs/rules.md,
        // R-001-rescue).
        if position.king_awaits_rescue() {
            return Some(win(Side::Attackers, WinReason::KingCaptured));
        }
        return Some(win(side, WinReason::NoLegalMoves));
    }
    None
}

fn win(winner: Side, reason: WinReason) -> Outcome {
    Outcome::Win { winner, reason }
}

/// docs/rules.md, R-003-encirclement (source 003 §7b): "If the attackers surround the king and ALL
/// remaining defenders, then they win": no defender can reach the edge through squares free of
/// attackers.
pub fn encircled(position: &Position) -> bool {
    let dim = position.dim();
    let defenders = position.pieces_of(Side::Defenders);
    if defenders.is_empty() {
        return false;
    }
    !capture::flood_reaches(dim, &defenders, position.attackers(), &Bitboard::edge(dim))
}

/// Copenhagen exit fort (OpenTafl `efe`): the king is on the edge, can move, and stands in a
/// region closed by defenders and the edge that holds no attacker, and no defender of its wall
/// can ever be captured (the wall may lean on defenders outside it that are themselves safe).
pub fn in_edge_fort(rules: &Rules, position: &Position) -> bool {
    let dim = position.dim();
    let Some(king) = position.king() else {
        return false;
    };
    if !king.is_edge(dim) {
        return false;
    }
    let mut king_moves = 0;
    movegen::for_each_destination(rules, position, king, Piece::King, |_| king_moves += 1);
    if king_moves == 0 {
        return false;
    }
    // The inside: everything reachable from the king without crossing a defending soldier.
    let mut inside = Bitboard::EMPTY;
    inside.insert(king);
    let mut stack = vec![king];
    while let Some(sq) = stack.pop() {
        for n in sq.neighbours(dim) {
            if inside.contains(n) || position.defenders().contains(n) {
                continue;
            }
            if position.attackers().contains(n) {
                return false;
            }
            inside.insert(n);
            stack.push(n);
        }
    }
    let mut wall = Bitboard::EMPTY;
    for sq in inside.squares() {
        for n in sq.neighbours(dim) {
            if position.defenders().contains(n) {
                wall.insert(n);
            }
        }
    }
    // The defenders that can never be captured: the largest set in which each member has, along
    // both lines through it, a neighbour that is the edge, the inside of the fort, or another
    // member (a capture within the set would need some member taken first).
    let mut safe = *position.defenders();
    loop {
        let mut changed = false;
        let members: Vec<Square> = safe.squares().collect();
        for w in members {
            // An empty square of the fort holds unless it is itself hostile (an empty throne).
            let holds = |sq: Option<Square>| match sq {
                None => true,
                Some(sq) => {
                    safe.contains(sq)
                        || (inside.contains(sq)
                            && !capture::hostile_to_soldier(rules, position, sq, Piece::Defender))
                }
            };
            use crate::square::Direction::{Down, Left, Right, Up};
            let firm = (holds(w.step(Left, dim)) || holds(w.step(Right, dim)))
                && (holds(w.step(Up, dim)) || holds(w.step(Down, dim)));
            if !firm {
                safe.remove(w);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    wall.squares().all(|w| safe.contains(w))
}
