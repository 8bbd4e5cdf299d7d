//! A set of piece kinds, as in OpenTafl's piece-type lists (`tTK`).

use crate::side::Piece;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PieceSet(u8);

impl PieceSet {
    pub const NONE: PieceSet = PieceSet(0);
    pub const ALL: PieceSet = PieceSet(0b111);
    pub const KING: PieceSet = PieceSet(0b100);
    pub const ATTACKERS: PieceSet = PieceSet(0b001);
    pub const DEFENDERS: PieceSet = PieceSet(0b110);
    pub const SOLDIERS: PieceSet = PieceSet(0b011);

    pub const fn of(pieces: &[Piece]) -> PieceSet {
        let mut bits = 0;
        let mut i = 0;
        while i < pieces.len() {
            bits |= 1 << pieces[i] as u8;
            i += 1;
        }
        PieceSet(bits)
    }

    #[inline]
    pub const fn contains(self, piece: Piece) -> bool {
        self.0 >> piece as u8 & 1 != 0
    }

    pub const fn with(self, piece: Piece) -> PieceSet {
        PieceSet(self.0 | 1 << piece as u8)
    }

    /// OpenTafl letters: `t` for attackers, `T` defenders, `K` king.
    pub fn to_opentafl(self) -> String {
        Piece::ALL
            .into_iter()
            .filter(|&p| self.contains(p))
            .map(Piece::opentafl_letter)
            .collect()
    }

    /// Reads OpenTafl letters. Special attacker kinds (`c n m g`) count as attackers, their
    /// defender forms (`C N M G`) as defenders; the attackers' king `k` does not exist here.
    pub fn from_opentafl(text: &str) -> Option<PieceSet> {
        let mut set = PieceSet::NONE;
        for letter in text.chars() {
            set = match letter {
                't' | 'c' | 'n' | 'm' | 'g' => set.with(Piece::Attacker),
                'T' | 'C' | 'N' | 'M' | 'G' => set.with(Piece::Defender),
                'K' => set.with(Piece::King),
                'k' => set,
                _ => return None,
            };
        }
        Some(set)
    }
}

impl std::fmt::Debug for PieceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PieceSet({:?})", self.to_opentafl())
    }
}
