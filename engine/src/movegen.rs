//! Legal moves: a fast bit-mask generator for the common case, and a square-by-square checker
//! that names the reason a move is refused. Both follow the same path rules:
//! - no piece passes over another;
//! - a special square may be passed only by the kinds in its `pass` list, or by a piece whose
//!   move started on a square of the same kind and has not left such squares yet (moving
//!   within its fortress: docs/rules.md, R-001-fortress);
//! - a move may end on a special square only for kinds in its `stop` list, and, when it did not
//!   stay on squares of that kind all the way from its start, in its `reenter` list;
//! - a piece moves at most its speed limit.

use crate::bitboard::{BitIter, row_mask};
use crate::error::{MoveError, RestrictedAction};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{Rules, SquareKind};
use crate::side::Piece;
use crate::square::{Direction, Square};

/// Checks a move fully and returns the moving piece, or the reason it is illegal.
pub fn check_move(rules: &Rules, position: &Position, mv: Move) -> Result<Piece, MoveError> {
    let dim = position.dim();
    for sq in [mv.from, mv.to] {
        if !sq.on_board(dim) {
            return Err(MoveError::OffBoard { square: sq });
        }
    }
    let piece = position
        .piece_at(mv.from)
        .ok_or(MoveError::NoPiece { square: mv.from })?;
    if piece.side() != position.side_to_move() {
        return Err(MoveError::NotYourPiece {
            square: mv.from,
            piece,
            to_move: position.side_to_move(),
        });
    }
    if mv.from == mv.to {
        return Err(MoveError::NotAMove);
    }
    let dir = Direction::between(mv.from, mv.to).ok_or(MoveError::NotStraight {
        from: mv.from,
        to: mv.to,
    })?;
    let from_kind = rules.square_kind(mv.from);
    // Still on squares of the starting kind (moving within one's fortress, docs/rules.md
    // R-001-fortress)? Once a move has left them, coming back onto that kind is entering again.
    let mut inside = true;
    let mut sq = mv.from;
    while sq != mv.to {
        sq = sq
            .step(dir, dim)
            .ok_or(MoveError::OffBoard { square: mv.to })?;
        if position.is_occupied(sq) {
            return Err(MoveError::Blocked { at: sq });
        }
        let kind = rules.square_kind(sq);
        inside = inside && kind == from_kind;
        let Some(square_rules) = rules.square_rules(kind) else {
            continue;
        };
        let refuse = |action| {
            if matches!(
                kind,
                SquareKind::AttackerFortress | SquareKind::DefenderFortress
            ) {
                MoveError::Fortress {
                    square: sq,
                    piece,
                    action,
                }
            } else {
                MoveError::Restricted {
                    square: sq,
                    piece,
                    action,
                }
            }
        };
        if sq == mv.to {
            if !square_rules.stop.contains(piece) {
                return Err(refuse(RestrictedAction::StopOn));
            }
            if !inside && !square_rules.reenter.contains(piece) {
                return Err(refuse(RestrictedAction::ReEnter));
            }
        } else if !inside && !square_rules.pass.contains(piece) {
            return Err(refuse(RestrictedAction::PassThrough));
        }
    }
    if let Some(limit) = rules.speed_limit(piece) {
        let distance = mv.distance();
        if distance > limit {
            return Err(MoveError::SpeedLimit {
                piece,
                limit,
                distance,
            });
        }
    }
    Ok(piece)
}

/// Calls `f` with every destination of the piece on `from`, in a fixed order.
#[inline]
pub(crate) fn for_each_destination(
    rules: &Rules,
    position: &Position,
    from: Square,
    piece: Piece,
    mut f: impl FnMut(Square),
) {
    if rules.tables.special.contains(from) {
        slow_destinations(rules, position, from, piece, &mut f);
        return;
    }
    let (row_dests, col_dests) = fast_destinations(rules, position, from, piece);
    for file in BitIter(row_dests) {
        f(Square::new(file as u8, from.rank()));
    }
    for rank in BitIter(col_dests) {
        f(Square::new(from.file(), rank as u8));
    }
}

/// How many destinations the piece on `from` has.
#[inline]
pub(crate) fn count_destinations(
    rules: &Rules,
    position: &Position,
    from: Square,
    piece: Piece,
) -> u32 {
    if rules.tables.special.contains(from) {
        let mut count = 0;
        slow_destinations(rules, position, from, piece, &mut |_| count += 1);
        return count;
    }
    let (row_dests, col_dests) = fast_destinations(rules, position, from, piece);
    row_dests.count_ones() + col_dests.count_ones()
}

/// Destinations along the rank (as a file mask) and along the file (as a rank mask).
#[inline]
fn fast_destinations(rules: &Rules, position: &Position, from: Square, piece: Piece) -> (u32, u32) {
    let t = &rules.tables;
    let p = piece.index();
    let dim = position.dim();
    let limit = rules.speed_limits[p];
    let row = ray_pair(
        from.file(),
        dim,
        position.occupied_row(from.rank()),
        t.impassable_rows[p].row(from.rank()),
        t.stoppable_rows[p].row(from.rank()),
        limit,
    );
    let col = ray_pair(
        from.rank(),
        dim,
        position.occupied_col(from.file()),
        t.impassable_cols[p].row(from.file()),
        t.stoppable_cols[p].row(from.file()),
        limit,
    );
    (row, col)
}

/// Destinations both ways along one line, as a bit mask of positions on the line.
#[inline]
fn ray_pair(
    at: u8,
    dim: u8,
    occupied: u32,
    impassable: u32,
    stoppable: u32,
    limit: Option<u8>,
) -> u32 {
    let blockers = occupied | impassable;
    let at = at as u32;
    let line = row_mask(dim);
    // Upwards (towards higher positions).
    let above = blockers & line & !((2u32 << at) - 1);
    let up_end = if above == 0 {
        dim as u32
    } else {
        above.trailing_zeros()
    };
    let mut dests = ((1u32 << up_end) - 1) & !((2u32 << at) - 1);
    if above != 0 {
        dests |= (1 << up_end) & !occupied;
    }
    // Downwards.
    let below = blockers & ((1u32 << at) - 1);
    if below == 0 {
        dests |= (1u32 << at) - 1;
    } else {
        let down_end = 31 - below.leading_zeros();
        dests |= ((1u32 << at) - 1) & !((2u32 << down_end) - 1);
        dests |= (1 << down_end) & !occupied;
    }
    dests &= stoppable;
    if let Some(limit) = limit {
        let lo = at.saturating_sub(limit as u32);
        let hi = (at + limit as u32).min(31);
        let window = ((2u64 << hi) - 1) as u32 & !((1u32 << lo) - 1);
        dests &= window;
    }
    dests
}

fn slow_destinations(
    rules: &Rules,
    position: &Position,
    from: Square,
    piece: Piece,
    f: &mut impl FnMut(Square),
) {
    let dim = position.dim();
    let from_kind = rules.square_kind(from);
    let limit = rules.speed_limit(piece).unwrap_or(u8::MAX);
    for dir in [
        Direction::Left,
        Direction::Right,
        Direction::Down,
        Direction::Up,
    ] {
        let mut sq = from;
        let mut distance = 0;
        let mut inside = true;
        while let Some(next) = sq.step(dir, dim) {
            sq = next;
            distance += 1;
            if distance > limit || position.is_occupied(sq) {
                break;
            }
            let kind = rules.square_kind(sq);
            inside = inside && kind == from_kind;
            match rules.square_rules(kind) {
                None => f(sq),
                Some(square_rules) => {
                    let may_stop = square_rules.stop.contains(piece)
                        && (inside || square_rules.reenter.contains(piece));
                    if may_stop {
                        f(sq);
                    }
                    if !inside && !square_rules.pass.contains(piece) {
                        break;
                    }
                }
            }
        }
    }
}

/// Every legal move of the side to move (ignoring whether the game is already over).
pub fn legal_moves(rules: &Rules, position: &Position) -> Vec<Move> {
    let mut moves = Vec::with_capacity(128);
    for (from, piece) in position.movers(position.side_to_move()) {
        for_each_destination(rules, position, from, piece, |to| {
            moves.push(Move::new(from, to));
        });
    }
    moves
}

/// Legal moves of the piece on `from`, if it belongs to the side to move.
pub fn legal_moves_from(rules: &Rules, position: &Position, from: Square) -> Vec<Move> {
    let mut moves = Vec::new();
    if let Some(piece) = position.piece_at(from)
        && piece.side() == position.side_to_move()
    {
        for_each_destination(rules, position, from, piece, |to| {
            moves.push(Move::new(from, to));
        });
    }
    moves
}

/// Number of legal moves of the side to move.
pub fn count_legal_moves(rules: &Rules, position: &Position) -> u64 {
    position
        .movers(position.side_to_move())
        .map(|(from, piece)| u64::from(count_destinations(rules, position, from, piece)))
        .sum()
}

/// Does the side to move have any legal move?
pub fn has_legal_move(rules: &Rules, position: &Position) -> bool {
    position
        .movers(position.side_to_move())
        .any(|(from, piece)| count_destinations(rules, position, from, piece) > 0)
}
