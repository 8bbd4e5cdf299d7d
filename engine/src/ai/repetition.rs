//! Repetition inside the search: positions of the game so far plus those on the search path,
//! so the search sees a third occurrence coming (and what the rules make of it).

use std::collections::HashMap;

use crate::game::Game;
use crate::outcome::Outcome;
use crate::rules::Repetition;
use crate::side::Side;

pub(crate) struct RepetitionTracker {
    rule: Repetition,
    game: HashMap<u64, u32>,
    /// A 4096-bit filter of the game's hashes, so most lookups skip the map.
    filter: Vec<u64>,
    path: Vec<u64>,
}

impl RepetitionTracker {
    pub fn new(game: &Game) -> RepetitionTracker {
        let mut counts = HashMap::new();
        let mut filter = vec![0u64; 64];
        let hashes = std::iter::once(game.start_position().hash())
            .chain(game.history().iter().map(|report| report.hash));
        for hash in hashes {
            *counts.entry(hash).or_insert(0) += 1;
            filter[(hash >> 6 & 63) as usize] |= 1 << (hash & 63);
        }
        RepetitionTracker {
            rule: game.rules().repetition,
            game: counts,
            filter,
            path: Vec::with_capacity(128),
        }
    }

    /// Occurrences so far of a position, the game's and the search path's.
    #[inline]
    fn occurrences(&self, hash: u64) -> u32 {
        let in_game = if self.filter[(hash >> 6 & 63) as usize] >> (hash & 63) & 1 != 0 {
            self.game.get(&hash).copied().unwrap_or(0)
        } else {
            0
        };
        in_game + self.path.iter().filter(|&&h| h == hash).count() as u32
    }

    /// The outcome if `mover`'s move, reaching `hash`, makes its third occurrence.
    #[inline]
    pub fn outcome(&self, hash: u64, mover: Side) -> Option<Outcome> {
        if self.rule == Repetition::Ignore || self.occurrences(hash) < 2 {
            return None;
        }
        self.rule.outcome(mover)
    }

    #[inline]
    pub fn push(&mut self, hash: u64) {
        self.path.push(hash);
    }

    #[inline]
    pub fn pop(&mut self) {
        self.path.pop();
    }
}
