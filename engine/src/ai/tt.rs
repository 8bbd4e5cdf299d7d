//! The transposition table: bounded memory, lock-free, shareable between threads.
//!
//! Each slot is two `AtomicU64`: the entry's data and the position's key XOR that data. A slot
//! torn by two threads writing at once fails the XOR check and reads as empty, so no lock is
//! needed (the "lockless hashing" of Hyatt and Mann).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::moves::Move;
use crate::square::{MAX_DIM, Square};

use super::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least the score (a cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A transposition table. `Send + Sync`: wrap it in an `Arc` to share it.
pub struct SharedTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: AtomicU64,
}

const MOVE_BITS: u64 = 18;
const HAS_MOVE: u64 = 1 << MOVE_BITS;
const SCORE_SHIFT: u64 = 19;
const DEPTH_SHIFT: u64 = 35;
const BOUND_SHIFT: u64 = 43;
const GEN_SHIFT: u64 = 45;

impl SharedTable {
    /// A table of at most `mib` MiB (at least a few thousand slots, at most 64 GiB).
    pub fn new(mib: usize) -> SharedTable {
        let bytes = mib.clamp(1, 1 << 16).saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Slot>()).max(1 << 12);
        // Round down to a power of two so a slot is found with a mask.
        let count = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        let slots = (0..count)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        SharedTable {
            slots,
            mask: count - 1,
            generation: AtomicU64::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search, so older entries give way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & self.mask]
    }

    /// The entry for `key`; mate scores come back relative to `ply`.
    #[inline]
    pub(crate) fn probe(&self, key: u64, ply: i32) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(unpack(data, ply))
    }

    /// Stores an entry; a deeper entry of the same search for another position is kept.
    #[inline]
    pub(crate) fn store(&self, key: u64, ply: i32, entry: Entry) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed) & 0xFF;
        let old = slot.data.load(Ordering::Relaxed);
        let old_key = slot.check.load(Ordering::Relaxed) ^ old;
        if old != 0 {
            let old_gen = (old >> GEN_SHIFT) & 0xFF;
            let old_depth = ((old >> DEPTH_SHIFT) & 0xFF) as i32;
            // Of this search and much deeper: kept, for another position; for the same
            // position unless the new entry is exact (a helper thread a few iterations behind
            // must not wipe what a deeper one found).
            let keep = if old_key == key {
                old_depth > entry.depth + 2 && entry.bound != Bound::Exact
            } else {
                old_depth > entry.depth + 2
            };
            if old_gen == generation && keep {
                return;
            }
        }
        let mut entry = entry;
        if entry.mv.is_none() && old_key == key && old & HAS_MOVE != 0 {
            entry.mv = unpack(old, ply).mv;
        }
        let data = pack(entry, ply, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }
}

fn square_index(sq: Square) -> u64 {
    sq.rank() as u64 * MAX_DIM as u64 + sq.file() as u64
}

fn index_square(index: u64) -> Square {
    Square::new(
        (index % MAX_DIM as u64) as u8,
        (index / MAX_DIM as u64) as u8,
    )
}

fn pack(entry: Entry, ply: i32, generation: u64) -> u64 {
    let mv = entry.mv.map_or(0, |mv| {
        HAS_MOVE | square_index(mv.from) | square_index(mv.to) << 9
    });
    // Mate scores are stored relative to this node, so they stay right wherever it recurs.
    let score = if entry.score > MATE_BOUND {
        entry.score + ply
    } else if entry.score < -MATE_BOUND {
        entry.score - ply
    } else {
        entry.score
    };
    let score = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let depth = entry.depth.clamp(0, 255) as u64;
    let bound = match entry.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | score << SCORE_SHIFT
        | depth << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | generation << GEN_SHIFT
}

fn unpack(data: u64, ply: i32) -> Entry {
    let mv = (data & HAS_MOVE != 0).then(|| {
        Move::new(
            index_square(data & 0x1FF),
            index_square((data >> 9) & 0x1FF),
        )
    });
    let score = ((data >> SCORE_SHIFT) & 0xFFFF) as u16 as i16 as i32;
    let score = if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    };
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    Entry {
        mv,
        score,
        depth: ((data >> DEPTH_SHIFT) & 0xFF) as i32,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::MATE;

    #[test]
    fn stores_and_finds_entries_and_adjusts_mate_scores() {
        let table = SharedTable::new(1);
        assert!(table.bytes() <= 1 << 20);
        let mv = Move::new(Square::new(3, 18), Square::new(18, 3));
        let entry = Entry {
            mv: Some(mv),
            score: MATE - 7,
            depth: 5,
            bound: Bound::Lower,
        };
        table.store(0xDEAD_BEEF, 3, entry);
        let found = table.probe(0xDEAD_BEEF, 5);
        let found = found.unwrap();
        assert_eq!(found.mv, Some(mv));
        assert_eq!(found.score, MATE - 9);
        assert_eq!(found.depth, 5);
        assert_eq!(found.bound, Bound::Lower);
        assert!(table.probe(0xDEAD_BEEE, 5).is_none());
        table.store(
            0x1234,
            0,
            Entry {
                mv: None,
                score: -250,
                depth: 0,
                bound: Bound::Upper,
            },
        );
        assert_eq!(table.probe(0x1234, 9).unwrap().score, -250);
        table.clear();
        assert!(table.probe(0xDEAD_BEEF, 0).is_none());
    }

    #[test]
    fn table_is_shareable() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<SharedTable>();
    }
}
