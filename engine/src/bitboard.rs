//! A set of squares stored as one bit mask per rank, for boards up to 19x19.

use crate::square::{MAX_DIM, Square};

/// Bit `f` of `rows[r]` is the square on file `f`, rank `r`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard {
    rows: [u32; MAX_DIM as usize],
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard {
        rows: [0; MAX_DIM as usize],
    };

    /// Every square of a board of side `dim`.
    pub fn full(dim: u8) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        let row = row_mask(dim);
        for rank in 0..dim as usize {
            board.rows[rank] = row;
        }
        board
    }

    /// The squares on the edge of a board of side `dim`.
    pub fn edge(dim: u8) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        let row = row_mask(dim);
        let ends = 1 | (1 << (dim - 1));
        for rank in 0..dim as usize {
            board.rows[rank] = if rank == 0 || rank == dim as usize - 1 {
                row
            } else {
                ends
            };
        }
        board
    }

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.rows[sq.rank() as usize] >> sq.file() & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.rows[sq.rank() as usize] |= 1 << sq.file();
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.rows[sq.rank() as usize] &= !(1 << sq.file());
    }

    #[inline]
    pub fn row(&self, rank: u8) -> u32 {
        self.rows[rank as usize]
    }

    #[inline]
    pub fn set_row(&mut self, rank: u8, bits: u32) {
        self.rows[rank as usize] = bits;
    }

    pub fn count(&self) -> u32 {
        self.rows.iter().map(|row| row.count_ones()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&row| row == 0)
    }

    pub fn union(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (a, b) in out.rows.iter_mut().zip(other.rows.iter()) {
            *a |= b;
        }
        out
    }

    pub fn intersection(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (a, b) in out.rows.iter_mut().zip(other.rows.iter()) {
            *a &= b;
        }
        out
    }

    pub fn difference(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (a, b) in out.rows.iter_mut().zip(other.rows.iter()) {
            *a &= !b;
        }
        out
    }

    pub fn intersects(&self, other: &Bitboard) -> bool {
        self.rows
            .iter()
            .zip(other.rows.iter())
            .any(|(a, b)| a & b != 0)
    }

    /// The same set with files and ranks swapped, so columns can be read as rows.
    pub fn transposed(&self, dim: u8) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for sq in self.squares() {
            if sq.on_board(dim) {
                out.insert(Square::new(sq.rank(), sq.file()));
            }
        }
        out
    }

    /// Every square in the set, rank by rank from a1.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.rows.iter().enumerate().flat_map(|(rank, &row)| {
            BitIter(row).map(move |file| Square::new(file as u8, rank as u8))
        })
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut board = Bitboard::EMPTY;
        for sq in iter {
            board.insert(sq);
        }
        board
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

/// The low `dim` bits set.
#[inline]
pub const fn row_mask(dim: u8) -> u32 {
    if dim >= 32 {
        u32::MAX
    } else {
        (1u32 << dim) - 1
    }
}

/// Iterates the set bit positions of a row, lowest first.
pub struct BitIter(pub u32);

impl Iterator for BitIter {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }
}
