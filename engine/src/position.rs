//! A position: where the pieces stand and who is to move. Copy-make; under 256 bytes.

use crate::bitboard::{BitIter, Bitboard};
use crate::side::{Piece, Side};
use crate::square::{MAX_DIM, Square};
use crate::zobrist;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) attackers: Bitboard,
    /// Defending soldiers; the king is kept apart.
    pub(crate) defenders: Bitboard,
    /// Every occupied square, transposed: bit `r` of `occupied_cols[f]` is (f, r).
    pub(crate) occupied_cols: [u32; MAX_DIM as usize],
    pub(crate) hash: u64,
    pub(crate) king: Option<Square>,
    pub(crate) dim: u8,
    pub(crate) side_to_move: Side,
    /// docs/rules.md, R-001-rescue: the king was captured and the defenders' next move must free
    /// him.
    pub(crate) king_awaits_rescue: bool,
}

impl Position {
    /// An empty board of side `dim`, attackers to move.
    pub fn empty(dim: u8) -> Position {
        Position {
            attackers: Bitboard::EMPTY,
            defenders: Bitboard::EMPTY,
            occupied_cols: [0; MAX_DIM as usize],
            hash: 0,
            king: None,
            dim,
            side_to_move: Side::Attackers,
            king_awaits_rescue: false,
        }
    }

    pub fn dim(&self) -> u8 {
        self.dim
    }

    pub fn side_to_move(&self) -> Side {
        self.side_to_move
    }

    pub fn king(&self) -> Option<Square> {
        self.king
    }

    /// Zobrist hash of pieces, side to move and a pending rescue.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn king_awaits_rescue(&self) -> bool {
        self.king_awaits_rescue
    }

    pub fn attackers(&self) -> &Bitboard {
        &self.attackers
    }

    pub fn defenders(&self) -> &Bitboard {
        &self.defenders
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if !sq.on_board(self.dim) {
            None
        } else if self.attackers.contains(sq) {
            Some(Piece::Attacker)
        } else if self.defenders.contains(sq) {
            Some(Piece::Defender)
        } else if self.king == Some(sq) {
            Some(Piece::King)
        } else {
            None
        }
    }

    #[inline]
    pub fn is_occupied(&self, sq: Square) -> bool {
        self.occupied_cols[sq.file() as usize] >> sq.rank() & 1 != 0
    }

    /// Occupied squares of one rank as a bit mask of files.
    #[inline]
    pub(crate) fn occupied_row(&self, rank: u8) -> u32 {
        let mut row = self.attackers.row(rank) | self.defenders.row(rank);
        if let Some(king) = self.king
            && king.rank() == rank
        {
            row |= 1 << king.file();
        }
        row
    }

    #[inline]
    pub(crate) fn occupied_col(&self, file: u8) -> u32 {
        self.occupied_cols[file as usize]
    }

    pub fn count(&self, piece: Piece) -> u32 {
        match piece {
            Piece::Attacker => self.attackers.count(),
            Piece::Defender => self.defenders.count(),
            Piece::King => u32::from(self.king.is_some()),
        }
    }

    /// Squares of the pieces of `side` (the king included for the defenders).
    pub fn pieces_of(&self, side: Side) -> Bitboard {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => {
                let mut set = self.defenders;
                if let Some(king) = self.king {
                    set.insert(king);
                }
                set
            }
        }
    }

    /// Every piece with its square, rank by rank from a1.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..self.dim).flat_map(move |rank| {
            (0..self.dim).filter_map(move |file| {
                let sq = Square::new(file, rank);
                self.piece_at(sq).map(|piece| (sq, piece))
            })
        })
    }

    pub(crate) fn set_side_to_move(&mut self, side: Side) {
        if self.side_to_move != side {
            self.hash ^= zobrist::DEFENDERS_TO_MOVE;
            self.side_to_move = side;
        }
    }

    pub(crate) fn set_king_awaits_rescue(&mut self, value: bool) {
        if self.king_awaits_rescue != value {
            self.hash ^= zobrist::KING_AWAITS_RESCUE;
            self.king_awaits_rescue = value;
        }
    }

    /// Puts `piece` on the empty square `sq`.
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.is_occupied(sq));
        match piece {
            Piece::Attacker => self.attackers.insert(sq),
            Piece::Defender => self.defenders.insert(sq),
            Piece::King => {
                if let Some(old) = self.king {
                    self.remove(old);
                }
                self.king = Some(sq);
            }
        }
        self.occupied_cols[sq.file() as usize] |= 1 << sq.rank();
        self.hash ^= zobrist::piece_key(piece, sq);
    }

    /// Takes whatever stands on `sq` off the board.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        match piece {
            Piece::Attacker => self.attackers.remove(sq),
            Piece::Defender => self.defenders.remove(sq),
            Piece::King => self.king = None,
        }
        self.occupied_cols[sq.file() as usize] &= !(1 << sq.rank());
        self.hash ^= zobrist::piece_key(piece, sq);
        Some(piece)
    }

    /// Moves the piece on `from` to the empty square `to`, with no rule checks.
    #[inline]
    pub(crate) fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        match piece {
            Piece::Attacker => {
                self.attackers.remove(from);
                self.attackers.insert(to);
            }
            Piece::Defender => {
                self.defenders.remove(from);
                self.defenders.insert(to);
            }
            Piece::King => self.king = Some(to),
        }
        self.occupied_cols[from.file() as usize] &= !(1 << from.rank());
        self.occupied_cols[to.file() as usize] |= 1 << to.rank();
        self.hash ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
    }

    pub fn with_side_to_move(mut self, side: Side) -> Position {
        self.set_side_to_move(side);
        self
    }

    /// Pieces on one rank of this side's soldiers, as a file mask.
    pub(crate) fn soldiers_row(&self, piece: Piece, rank: u8) -> u32 {
        match piece {
            Piece::Attacker => self.attackers.row(rank),
            Piece::Defender => self.defenders.row(rank),
            Piece::King => 0,
        }
    }

    /// The squares of one side's movable pieces, in a fixed order.
    pub(crate) fn movers(&self, side: Side) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let soldier = match side {
            Side::Attackers => Piece::Attacker,
            Side::Defenders => Piece::Defender,
        };
        let king = match side {
            Side::Defenders => self.king.map(|k| (k, Piece::King)),
            Side::Attackers => None,
        };
        (0..self.dim)
            .flat_map(move |rank| {
                BitIter(self.soldiers_row(soldier, rank))
                    .map(move |file| (Square::new(file as u8, rank), soldier))
            })
            .chain(king)
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{} to move", self.side_to_move)?;
        for rank in (0..self.dim).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..self.dim {
                let c = self
                    .piece_at(Square::new(file, rank))
                    .map_or('.', Piece::opentafl_letter);
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
