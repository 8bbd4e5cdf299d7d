//! The eight symmetries of a square board (rotations and mirrors), and a position's key
//! folded over them: an opening played from another edge, or mirrored, is the same opening.
//!
//! A symmetry counts for a rule set only when it maps the rules' corners onto its corners and
//! its thrones onto its thrones; every other rule (edges, captures, the king's strength) is
//! the same seen from any side. Every preset keeps all eight; a rules string with an
//! off-centre throne keeps fewer.

use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::side::{Piece, Side};
use crate::square::Square;
use crate::zobrist;

/// One of the eight symmetries of a square board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    /// A quarter turn anticlockwise.
    Rotate90,
    Rotate180,
    Rotate270,
    /// Files reversed (a mirror through the vertical middle line).
    MirrorFiles,
    /// Ranks reversed (a mirror through the horizontal middle line).
    MirrorRanks,
    /// Across the a1-to-corner diagonal: file and rank swapped.
    MirrorDiagonal,
    /// Across the other diagonal.
    MirrorAntiDiagonal,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::MirrorDiagonal,
        Symmetry::MirrorAntiDiagonal,
    ];

    /// Where `sq` goes on a board of side `dim`.
    pub fn square(self, sq: Square, dim: u8) -> Square {
        let (f, r, last) = (sq.file(), sq.rank(), dim - 1);
        let (file, rank) = match self {
            Symmetry::Identity => (f, r),
            Symmetry::Rotate90 => (last - r, f),
            Symmetry::Rotate180 => (last - f, last - r),
            Symmetry::Rotate270 => (r, last - f),
            Symmetry::MirrorFiles => (last - f, r),
            Symmetry::MirrorRanks => (f, last - r),
            Symmetry::MirrorDiagonal => (r, f),
            Symmetry::MirrorAntiDiagonal => (last - r, last - f),
        };
        Square::new(file, rank)
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    pub fn apply_to_move(self, mv: Move, dim: u8) -> Move {
        Move::new(self.square(mv.from, dim), self.square(mv.to, dim))
    }

    pub fn apply_to_bitboard(self, board: &Bitboard, dim: u8) -> Bitboard {
        board.squares().map(|sq| self.square(sq, dim)).collect()
    }

    /// The position seen through this symmetry (the same side to move).
    pub fn apply_to_position(self, position: &Position) -> Position {
        let dim = position.dim();
        let mut image = Position::empty(dim);
        for (sq, piece) in position.pieces() {
            image.put(self.square(sq, dim), piece);
        }
        image.set_side_to_move(position.side_to_move());
        image.set_king_awaits_rescue(position.king_awaits_rescue());
        image
    }

    /// Whether the rules look the same through this symmetry (corners onto corners, thrones
    /// onto thrones).
    pub fn keeps(self, rules: &Rules) -> bool {
        let dim = rules.dim;
        self.apply_to_bitboard(&rules.corners, dim) == rules.corners
            && self.apply_to_bitboard(&rules.thrones, dim) == rules.thrones
    }

    /// The symmetries `rules` keep: always the identity, all eight for every preset.
    pub fn of_rules(rules: &Rules) -> Vec<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(|s| s.keeps(rules))
            .collect()
    }

    /// The hash `position` would have seen through this symmetry, without building it.
    #[cfg(test)]
    fn hash_of_image(self, position: &Position) -> u64 {
        image_hashes(position, &[self])[0]
    }
}

/// The pieces of `position` with their squares, from its bitboards (no square-by-square scan).
fn pieces_of(position: &Position) -> impl Iterator<Item = (Square, Piece)> + '_ {
    let attackers = position
        .attackers()
        .squares()
        .map(|sq| (sq, Piece::Attacker));
    let defenders = position
        .defenders()
        .squares()
        .map(|sq| (sq, Piece::Defender));
    let king = position.king().map(|sq| (sq, Piece::King));
    attackers.chain(defenders).chain(king)
}

/// The hashes `position` would have seen through each of `symmetries` (at most eight), in one
/// pass over its pieces.
fn image_hashes(position: &Position, symmetries: &[Symmetry]) -> [u64; 8] {
    let dim = position.dim();
    let mut fixed = 0;
    if position.side_to_move() == Side::Defenders {
        fixed ^= zobrist::DEFENDERS_TO_MOVE;
    }
    if position.king_awaits_rescue() {
        fixed ^= zobrist::KING_AWAITS_RESCUE;
    }
    let mut hashes = [fixed; 8];
    for (sq, piece) in pieces_of(position) {
        for (hash, symmetry) in hashes.iter_mut().zip(symmetries) {
            *hash ^= zobrist::piece_key(piece, symmetry.square(sq, dim));
        }
    }
    hashes
}

/// A position's key with its symmetric images folded together: the smallest image hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoldedKey {
    pub key: u64,
    /// The symmetry that turns the position into the image whose hash is `key`.
    pub to_canonical: Symmetry,
}

/// Folds `position` over `symmetries` (those of its rules: [`Symmetry::of_rules`]).
pub fn folded_key(position: &Position, symmetries: &[Symmetry]) -> FoldedKey {
    let hashes = image_hashes(position, symmetries);
    let mut best = FoldedKey {
        key: position.hash(),
        to_canonical: Symmetry::Identity,
    };
    for (&key, &symmetry) in hashes.iter().zip(symmetries) {
        if key < best.key {
            best = FoldedKey {
                key,
                to_canonical: symmetry,
            };
        }
    }
    best
}

/// The folded keys of the positions a game passes through: its start, then after each of
/// its first `max_plies` moves. Fails with the index of the first move the referee refuses.
pub fn folded_path(
    rules: Rules,
    moves: &[Move],
    max_plies: usize,
) -> Result<Vec<u64>, (usize, crate::error::MoveError)> {
    let symmetries = Symmetry::of_rules(&rules);
    let mut game = crate::game::Game::new(rules);
    let mut keys = Vec::with_capacity(moves.len().min(max_plies) + 1);
    keys.push(folded_key(game.position(), &symmetries).key);
    for (i, &mv) in moves.iter().take(max_plies).enumerate() {
        game.play(mv).map_err(|e| (i, e))?;
        keys.push(folded_key(game.position(), &symmetries).key);
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variants::variant;

    fn brandubh() -> Game {
        Game::start(variant("brandubh").expect("a preset").rules()).expect("a start")
    }

    #[test]
    fn each_symmetry_is_undone_by_its_inverse_and_keeps_the_board() {
        for dim in [7, 11, 13] {
            for s in Symmetry::ALL {
                for file in 0..dim {
                    for rank in 0..dim {
                        let sq = Square::new(file, rank);
                        let image = s.square(sq, dim);
                        assert!(image.on_board(dim), "{s:?} moved {sq:?} off the board");
                        assert_eq!(s.inverse().square(image, dim), sq, "{s:?} on {sq:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_eight_symmetries_are_eight_different_maps() {
        let sq = Square::new(1, 0);
        let images: std::collections::HashSet<Square> =
            Symmetry::ALL.iter().map(|s| s.square(sq, 7)).collect();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn an_image_hash_is_the_hash_of_the_built_image() {
        let mut game = brandubh();
        game.play_str("d1-c1").expect("legal");
        game.play_str("d3-f3").expect("legal");
        for s in Symmetry::ALL {
            let built = s.apply_to_position(game.position());
            assert_eq!(s.hash_of_image(game.position()), built.hash(), "{s:?}");
        }
    }

    #[test]
    fn a_mirrored_opening_folds_into_the_same_key_and_another_does_not() {
        let mut left = brandubh();
        left.play_str("d1-c1").expect("legal");
        let mut mirrored = brandubh();
        mirrored.play_str("d1-e1").expect("legal");
        let mut across_the_diagonal = brandubh();
        across_the_diagonal.play_str("a4-a3").expect("legal");
        let mut other = brandubh();
        other.play_str("d2-c2").expect("legal");
        let all = Symmetry::ALL;
        let key = |g: &Game| folded_key(g.position(), &all).key;
        assert_ne!(left.position().hash(), mirrored.position().hash());
        assert_eq!(key(&left), key(&mirrored));
        assert_eq!(key(&left), key(&across_the_diagonal));
        assert_ne!(key(&left), key(&other));
        // Through its symmetry a position becomes the image the key names.
        let folded = folded_key(mirrored.position(), &all);
        assert_eq!(
            folded
                .to_canonical
                .apply_to_position(mirrored.position())
                .hash(),
            folded.key
        );
    }

    #[test]
    fn an_off_centre_throne_keeps_only_the_symmetries_that_fix_it() {
        let mut rules = variant("brandubh").expect("a preset").rules();
        assert_eq!(Symmetry::of_rules(&rules).len(), 8);
        rules.thrones = [Square::new(1, 1)].into_iter().collect();
        assert_eq!(
            Symmetry::of_rules(&rules),
            vec![Symmetry::Identity, Symmetry::MirrorDiagonal]
        );
    }

    #[test]
    fn a_path_keys_the_start_and_each_move_up_to_its_limit_and_names_a_refused_move() {
        let rules = variant("brandubh").expect("a preset").rules();
        let mv = |a: &str, b: &str| {
            Move::new(
                Square::parse(a, 7).expect("a square"),
                Square::parse(b, 7).expect("a square"),
            )
        };
        let left =
            folded_path(rules.clone(), &[mv("d1", "c1"), mv("d3", "c3")], 10).expect("legal moves");
        let right =
            folded_path(rules.clone(), &[mv("d1", "e1"), mv("d3", "e3")], 1).expect("legal moves");
        assert_eq!(left.len(), 3);
        assert_eq!(right.len(), 2, "cut at one ply");
        assert_eq!(left[..2], right[..]);
        let refused = folded_path(rules, &[mv("d1", "c1"), mv("d1", "d2")], 10);
        assert_eq!(refused.map_err(|(i, _)| i), Err(1));
    }
}
