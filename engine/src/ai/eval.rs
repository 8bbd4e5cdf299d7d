//! The evaluation: a weighted sum of tafl features, each counted from the defenders' side.
//!
//! Being linear, it can be fitted to game results (Texel's method, see `tafl tune`): the
//! features of a position are a plain vector and the weights another.

use crate::bitboard::{BitIter, Bitboard, row_mask};
use crate::capture;
use crate::movegen;
use crate::position::Position;
use crate::rules::{Escape, KingStrength, Rules};
use crate::side::{Piece, Side};
use crate::square::Square;

/// Number of features.
pub const FEATURES: usize = 13;

/// Feature values of a position, from the defenders' point of view (before weighting).
pub type Features = [i32; FEATURES];

/// Names of the features, in order (for the tuner and the docs).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "defenders",
    "attackers",
    "king_open_lines",
    "king_routes",
    "king_mobility",
    "king_hostile_neighbours",
    "king_guards",
    "corner_guards",
    "open_squares",
    "king_distance",
    "attacker_chains",
    "tempo",
    "king_decisive_routes",
];

const DEFENDERS: usize = 0;
const ATTACKERS: usize = 1;
const KING_OPEN_LINES: usize = 2;
const KING_ROUTES: usize = 3;
const KING_MOBILITY: usize = 4;
const KING_HOSTILE: usize = 5;
const KING_GUARDS: usize = 6;
const CORNER_GUARDS: usize = 7;
const OPEN_SQUARES: usize = 8;
const KING_DISTANCE: usize = 9;
const ATTACKER_CHAINS: usize = 10;
const TEMPO: usize = 11;
const KING_DECISIVE: usize = 12;

/// What a captured king awaiting rescue costs the defenders (docs/rules.md, R-001-rescue).
const KING_TAKEN: i32 = 2_000;

/// Feature weights; the evaluation is their dot product with the features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// Corner-escape games on boards of 9x9 and up (Copenhagen, Fetlar, Slavic 9x9...).
    /// Fitted by `tafl tune` on self-play records (the last, decisive routes, set by
    /// hand: see docs/ai.md, "Corner threats").
    pub const CORNER_LARGE: Weights =
        Weights([130, -90, 500, 60, 4, -45, 8, -22, 3, -10, -3, 12, 150]);
    /// Corner-escape games on 7x7 (Brandubh).
    pub const CORNER_SMALL: Weights =
        Weights([110, -100, 500, 50, 5, -50, 6, -20, 4, -12, -2, 12, 120]);
    /// Edge-escape games (Tablut family, Ard Ri, Sea Battle...).
    pub const EDGE: Weights = Weights([110, -100, 500, 70, 6, -50, 6, 0, 3, -18, -3, 12, 120]);

    /// The weights of the family a rule set belongs to.
    pub fn for_rules(rules: &Rules) -> Weights {
        let mut weights = match rules.escape {
            Escape::Corner if rules.dim() <= 7 => Weights::CORNER_SMALL,
            Escape::Corner => Weights::CORNER_LARGE,
            Escape::Edge => Weights::EDGE,
        };
        // A king taken by two men is in danger from each hostile neighbour.
        if rules.king_strength == KingStrength::Weak {
            weights.0[KING_HOSTILE] *= 2;
        }
        weights
    }
}

/// Precomputed per rule set: what the features need besides the position.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    pub weights: Weights,
    dim: u8,
    escape_cols: Bitboard,
    king_blocks_rows: Bitboard,
    king_blocks_cols: Bitboard,
    corner_guards: Bitboard,
    /// Squares beside a winning square that no attacker may stand on (beside a corner), where
    /// the king would be safe from capture: a king there wins next move whatever the attackers
    /// do, for nothing can be put between him and that square.
    beside_unblockable: Bitboard,
    /// Manhattan distance from each square to the nearest winning square.
    distance: Vec<u8>,
}

impl Evaluator {
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator::with_weights(rules, Weights::for_rules(rules))
    }

    pub fn with_weights(rules: &Rules, weights: Weights) -> Evaluator {
        let dim = rules.dim();
        let escape = rules.escape_squares();
        let king = Piece::King.index();
        let mut corner_guards = Bitboard::EMPTY;
        if rules.escape == Escape::Corner {
            for corner in rules.corners.squares() {
                let toward = |v: u8, d: u8| if v == 0 { d } else { v.saturating_sub(d) };
                for (df, dr) in [(1, 1), (1, 2), (2, 1)] {
                    let sq = Square::new(toward(corner.file(), df), toward(corner.rank(), dr));
                    if sq.on_board(dim) {
                        corner_guards.insert(sq);
                    }
                }
            }
        }
        let attacker_may_stop = rules.tables.stoppable_rows[Piece::Attacker.index()];
        let mut beside_unblockable = Bitboard::EMPTY;
        for target in escape.squares() {
            if attacker_may_stop.contains(target) {
                continue;
            }
            // A king taken by two men beside a corner hostile to him is taken by one attacker
            // landing on his other side: that square is no sure thing.
            let hostile_target = rules
                .square_rules(rules.square_kind(target))
                .is_some_and(|r| r.hostile_empty.contains(Piece::King));
            for n in target.neighbours(dim) {
                let weak = rules.king_strength_on(n) == KingStrength::Weak;
                let capturable = weak && hostile_target;
                if !escape.contains(n) && !capturable {
                    beside_unblockable.insert(n);
                }
            }
        }
        let targets: Vec<Square> = escape.squares().collect();
        let mut distance =
            vec![0u8; crate::square::MAX_DIM as usize * crate::square::MAX_DIM as usize];
        for rank in 0..dim {
            for file in 0..dim {
                let sq = Square::new(file, rank);
                let nearest = targets
                    .iter()
                    .map(|t| t.file().abs_diff(file) + t.rank().abs_diff(rank))
                    .min()
                    .unwrap_or(dim);
                distance[sq.index()] = nearest;
            }
        }
        Evaluator {
            weights,
            dim,
            escape_cols: escape.transposed(dim),
            king_blocks_rows: rules.tables.impassable_rows[king],
            king_blocks_cols: rules.tables.impassable_cols[king],
            corner_guards,
            beside_unblockable,
            distance,
        }
    }

    /// The score for the side to move.
    #[inline]
    pub fn evaluate(&self, rules: &Rules, position: &Position) -> i32 {
        self.evaluate_with(rules, position, &self.lines(rules, position))
    }

    /// The score for the side to move, the king's lines already found (the search needs them
    /// for its threats too).
    #[inline]
    pub fn evaluate_with(&self, rules: &Rules, position: &Position, lines: &Lines) -> i32 {
        let f = self.features_with(rules, position, lines);
        let mut score: i32 = self
            .weights
            .0
            .iter()
            .zip(f.iter())
            .map(|(w, x)| w * x)
            .sum();
        if position.king_awaits_rescue() || position.king().is_none() {
            score -= KING_TAKEN;
        }
        match position.side_to_move() {
            Side::Defenders => score,
            Side::Attackers => -score,
        }
    }

    /// Squares (the king's own excepted) from which the king would see a winning square along
    /// an open line.
    #[cfg(test)]
    pub fn open_squares(&self, rules: &Rules, position: &Position) -> Bitboard {
        self.lines(rules, position).open
    }

    /// Where the king would see winning squares along open lines: once, or along two lines
    /// (which no single attacker move can both close).
    pub fn lines(&self, rules: &Rules, position: &Position) -> Lines {
        let dim = self.dim;
        let escape = rules.escape_squares();
        let king_bit = |line: u8, along_rank: bool| -> u32 {
            match position.king() {
                Some(k) if along_rank && k.rank() == line => 1 << k.file(),
                Some(k) if !along_rank && k.file() == line => 1 << k.rank(),
                _ => 0,
            }
        };
        let mut open = Bitboard::EMPTY;
        let mut twice = Bitboard::EMPTY;
        for rank in 0..dim {
            let targets = escape.row(rank);
            if targets == 0 {
                continue;
            }
            let occupied = position.occupied_row(rank) & !king_bit(rank, true);
            let (once, two) = runs_from(
                targets,
                occupied,
                occupied | self.king_blocks_rows.row(rank),
                dim,
            );
            open.set_row(rank, once);
            twice.set_row(rank, two);
        }
        for file in 0..dim {
            let targets = self.escape_cols.row(file);
            if targets == 0 {
                continue;
            }
            let occupied = position.occupied_col(file) & !king_bit(file, false);
            let (once, two) = runs_from(
                targets,
                occupied,
                occupied | self.king_blocks_cols.row(file),
                dim,
            );
            for rank in BitIter(once) {
                let sq = Square::new(file, rank as u8);
                // Open along its rank too: two lines.
                if open.contains(sq) || two >> rank & 1 != 0 {
                    twice.insert(sq);
                }
                open.insert(sq);
            }
        }
        Lines { open, twice }
    }

    /// Squares from which the king would have a threat no single attacker move stops: two
    /// open lines, or one to a corner beside him where he cannot be taken. From the lines
    /// already found.
    pub fn decisive_from(&self, lines: &Lines) -> Bitboard {
        lines
            .twice
            .union(&lines.open.intersection(&self.beside_unblockable))
    }

    /// The decisive squares (see [`Evaluator::decisive_from`]) the king can move to now.
    pub fn decisive_routes(&self, rules: &Rules, position: &Position, lines: &Lines) -> Bitboard {
        let mut routes = Bitboard::EMPTY;
        let Some(king) = position.king() else {
            return routes;
        };
        if position.king_awaits_rescue() {
            return routes;
        }
        let decisive = self.decisive_from(lines);
        if decisive.is_empty() {
            return routes;
        }
        movegen::for_each_destination(rules, position, king, Piece::King, |to| {
            if decisive.contains(to) {
                routes.insert(to);
            }
        });
        routes
    }

    /// The feature vector of a position (defenders' point of view).
    pub fn features(&self, rules: &Rules, position: &Position) -> Features {
        self.features_with(rules, position, &self.lines(rules, position))
    }

    /// The feature vector, the king's lines already found.
    fn features_with(&self, rules: &Rules, position: &Position, lines: &Lines) -> Features {
        let mut f = [0i32; FEATURES];
        f[TEMPO] = match position.side_to_move() {
            Side::Defenders => 1,
            Side::Attackers => -1,
        };
        let attackers = position.attackers();
        let defenders = position.defenders();
        let (mut attacker_count, mut defender_count, mut guards, mut chains) = (0, 0, 0, 0);
        let mut below = 0u32;
        for rank in 0..self.dim {
            // Most of these masks are empty: skip the (software) bit counts then.
            let row = attackers.row(rank);
            if row != 0 {
                attacker_count += row.count_ones();
                let guarded = row & self.corner_guards.row(rank);
                if guarded != 0 {
                    guards += guarded.count_ones();
                }
                let (left, right) = (below & (row << 1), below & (row >> 1));
                if left | right != 0 {
                    chains += left.count_ones() + right.count_ones();
                }
            }
            let row_defenders = defenders.row(rank);
            if row_defenders != 0 {
                defender_count += row_defenders.count_ones();
            }
            below = row;
        }
        f[DEFENDERS] = defender_count as i32;
        f[ATTACKERS] = attacker_count as i32;
        f[CORNER_GUARDS] = guards as i32;
        f[ATTACKER_CHAINS] = chains as i32;
        let Some(king) = position.king() else {
            return f;
        };
        if position.king_awaits_rescue() {
            return f;
        }
        let (open, decisive) = (lines.open, self.decisive_from(lines));
        f[OPEN_SQUARES] = (0..self.dim)
            .map(|rank| open.row(rank))
            .filter(|&row| row != 0)
            .map(u32::count_ones)
            .sum::<u32>() as i32;
        f[KING_DISTANCE] = self.distance[king.index()] as i32;
        let escape = rules.escape_squares();
        let (mut lines, mut routes, mut decisive_routes, mut mobility) = (0, 0, 0, 0);
        movegen::for_each_destination(rules, position, king, Piece::King, |to| {
            mobility += 1;
            if escape.contains(to) {
                lines += 1;
            } else if open.contains(to) {
                routes += 1;
                if decisive.contains(to) {
                    decisive_routes += 1;
                }
            }
        });
        f[KING_OPEN_LINES] = lines;
        f[KING_ROUTES] = routes;
        f[KING_DECISIVE] = decisive_routes;
        f[KING_MOBILITY] = mobility;
        let (mut hostile, mut guards) = (0, 0);
        for n in king.neighbours(self.dim) {
            if capture::hostile_to_king(rules, position, n) {
                hostile += 1;
            } else if position.defenders().contains(n) {
                guards += 1;
            }
        }
        f[KING_HOSTILE] = hostile;
        f[KING_GUARDS] = guards;
        f
    }
}

/// Where the king would see winning squares (see [`Evaluator::lines`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lines {
    /// Along at least one open line.
    pub open: Bitboard,
    /// Along two open lines.
    pub twice: Bitboard,
}

/// Along one line: the empty squares joined by empty squares to an empty target square, and
/// those joined so to two targets (one either way). `occupied` holds the pieces, `blocked` also
/// the squares the king may not cross.
#[inline]
fn runs_from(targets: u32, occupied: u32, blocked: u32, dim: u8) -> (u32, u32) {
    let line = row_mask(dim);
    let (mut once, mut twice) = (0, 0);
    for t in BitIter(targets & !occupied) {
        let above = blocked & line & !((2u32 << t) - 1);
        let end = if above == 0 {
            dim as u32
        } else {
            above.trailing_zeros()
        };
        let mut run = ((1u32 << end) - 1) & !((2u32 << t) - 1);
        let below = blocked & ((1u32 << t) - 1);
        let start = if below == 0 {
            0
        } else {
            32 - below.leading_zeros()
        };
        run |= ((1u32 << t) - 1) & !((1u32 << start) - 1);
        twice |= once & run;
        once |= run;
    }
    (once & !targets, twice & !targets)
}

/// The features of a position under the rules' default evaluator (for tuning tools).
pub fn features(rules: &Rules, position: &Position) -> Features {
    Evaluator::new(rules).features(rules, position)
}

/// The static evaluation of a position for the side to move, with the rules' default weights.
pub fn evaluate(rules: &Rules, position: &Position) -> i32 {
    Evaluator::new(rules).evaluate(rules, position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::variant;

    fn rules(id: &str) -> Rules {
        variant(id).unwrap().rules()
    }

    #[test]
    fn start_positions_are_near_balance_and_symmetric_in_sign() {
        for v in crate::variants::variants() {
            let rules = v.rules();
            let start = rules.start_position();
            let a = evaluate(&rules, &start.with_side_to_move(Side::Attackers));
            let d = evaluate(&rules, &start.with_side_to_move(Side::Defenders));
            assert!(a.abs() < 2_000 && d.abs() < 2_000, "{}: {a} {d}", v.id);
        }
    }

    #[test]
    fn open_lines_to_a_corner_are_seen() {
        let rules = rules("copenhagen");
        // King on c1 (rank 1 reads first): open to a1 and, along rank 1, to k1.
        let position =
            Position::from_opentafl("/2K8/11/11/11/11/11/11/11/11/11/5t5/", Side::Attackers)
                .unwrap();
        let f = features(&rules, &position);
        assert_eq!(f[KING_OPEN_LINES], 2);
        let open = Evaluator::new(&rules).open_squares(&rules, &position);
        assert!(open.contains(Square::new(1, 0)));
        assert!(open.contains(Square::new(5, 0)));
        assert!(open.contains(Square::new(0, 5)));
        assert!(!open.contains(Square::new(5, 5)));
        // An attacker on f11 closes nothing on rank 1, but the file f line to f11 is not an escape.
        assert!(!open.contains(Square::new(5, 9)));
    }

    #[test]
    fn more_attackers_around_the_king_is_worse_for_the_defenders() {
        let rules = rules("tablut");
        let free = Position::from_opentafl("/9/9/9/9/4K4/9/9/9/t8/", Side::Defenders).unwrap();
        let hemmed =
            Position::from_opentafl("/9/9/9/4t4/3tK4/4t4/9/9/9/", Side::Defenders).unwrap();
        assert!(evaluate(&rules, &free) > evaluate(&rules, &hemmed));
    }

    #[test]
    fn a_king_that_can_reach_a_square_beside_a_corner_is_seen() {
        // Copenhagen: the king on b3, the b file open both ways: b1 and b11, each beside a
        // corner, are decisive (nothing can be put between him and the corner, and he cannot be
        // taken on the edge), and he reaches both.
        let rules = rules("copenhagen");
        let open =
            Position::from_opentafl("/11/t10/1K9/t10/11/11/11/11/11/11/11/", Side::Attackers)
                .unwrap();
        let eval = Evaluator::new(&rules);
        let routes = eval.decisive_routes(&rules, &open, &eval.lines(&rules, &open));
        assert!(routes.contains(Square::new(1, 0)), "b1");
        assert!(routes.contains(Square::new(1, 10)), "b11");
        assert_eq!(
            features(&rules, &open)[KING_DECISIVE],
            routes.count() as i32
        );
        // An attacker on b7 closes the way to b11: one decisive route left, and a lower score
        // for the defenders.
        let closed =
            Position::from_opentafl("/11/t10/1K9/t10/11/11/1t9/11/11/11/11/", Side::Attackers)
                .unwrap();
        let routes = eval.decisive_routes(&rules, &closed, &eval.lines(&rules, &closed));
        assert!(routes.contains(Square::new(1, 0)));
        assert!(!routes.contains(Square::new(1, 10)));
        assert!(evaluate(&rules, &closed) > evaluate(&rules, &open));
        // A square with open lines to two corners is decisive too: c1, with rank 1 empty.
        let lines = eval.lines(&rules, &open);
        assert!(eval.decisive_from(&lines).contains(Square::new(2, 0)));
    }

    #[test]
    fn beside_a_hostile_corner_a_weak_king_is_no_sure_thing() {
        // Brandubh: away from the throne the king is taken by two, a corner counting as one,
        // so b1 (an attacker may land on c1) is not decisive while e1 closes the way to g1;
        // with rank 1 empty, c1 is (one move cannot close the ways to a1 and g1 both).
        let rules = rules("brandubh");
        let eval = Evaluator::new(&rules);
        let decisive = |record: &str| {
            let position = Position::from_opentafl(record, Side::Attackers).unwrap();
            eval.decisive_from(&eval.lines(&rules, &position))
        };
        let e1_taken = decisive("/4t2/7/1K5/7/7/7/7/");
        assert!(!e1_taken.contains(Square::new(1, 0)), "b1");
        assert!(!e1_taken.contains(Square::new(2, 0)), "c1");
        let empty = decisive("/7/7/1K5/7/7/7/5t1/");
        assert!(empty.contains(Square::new(2, 0)), "c1");
    }
}
