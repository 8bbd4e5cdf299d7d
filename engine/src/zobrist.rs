//! Zobrist keys: one random number per (piece kind, square), XORed into a position's hash.

use crate::side::Piece;
use crate::square::{MAX_DIM, Square};

const SQUARES: usize = MAX_DIM as usize * MAX_DIM as usize;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn build_keys() -> [[u64; SQUARES]; 3] {
    let mut keys = [[0u64; SQUARES]; 3];
    let mut state = 0x7AF1_7AF1_0000_0001u64;
    let mut piece = 0;
    while piece < 3 {
        let mut sq = 0;
        while sq < SQUARES {
            let (next, value) = splitmix(state);
            state = next;
            keys[piece][sq] = value;
            sq += 1;
        }
        piece += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; SQUARES]; 3] = build_keys();

/// XORed in when the defenders are to move.
pub const DEFENDERS_TO_MOVE: u64 = 0x3C6E_F372_FE94_F82B;
/// XORed in while a captured king awaits rescue (docs/rules.md, R-001-rescue).
pub const KING_AWAITS_RESCUE: u64 = 0x5BE0_CD19_137E_2179;

#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_KEYS[piece.index()][sq.index()]
}
