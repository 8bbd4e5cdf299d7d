//! How many event streams may be open at once: per player (all of a player's tokens together),
//! per client address for streams opened without a token, and in total, so idle streams cannot
//! use up the server. A slot is freed when its stream ends.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::domain::PlayerId;

/// Who holds a stream: a player (by token), or a client address (no token; `None` when the
/// server has no connection info, and every such stream shares one count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamOwner {
    Player(PlayerId),
    Address(Option<std::net::IpAddr>),
}

#[derive(Debug)]
pub struct StreamSlots {
    per_player: usize,
    total: usize,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_player: HashMap<StreamOwner, usize>,
}

/// Why no slot was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSlot {
    /// This player (or address) has `limit` streams open already.
    Player { limit: usize },
    /// The server has `limit` streams open already.
    Server { limit: usize },
}

/// An open stream's place; dropping it frees the place.
#[derive(Debug)]
pub struct StreamSlot {
    slots: Arc<StreamSlots>,
    player: StreamOwner,
}

impl StreamSlots {
    pub fn new(per_player: usize, total: usize) -> StreamSlots {
        StreamSlots {
            per_player,
            total,
            open: Mutex::default(),
        }
    }

    fn open(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more stream of `player`, if the limits allow it.
    pub fn take(self: &Arc<Self>, player: StreamOwner) -> Result<StreamSlot, NoSlot> {
        let mut open = self.open();
        if open.total >= self.total {
            return Err(NoSlot::Server { limit: self.total });
        }
        let mine = open.by_player.entry(player).or_default();
        if *mine >= self.per_player {
            return Err(NoSlot::Player {
                limit: self.per_player,
            });
        }
        *mine += 1;
        open.total += 1;
        Ok(StreamSlot {
            slots: Arc::clone(self),
            player,
        })
    }

    /// Streams open now.
    pub fn open_now(&self) -> usize {
        self.open().total
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open();
        open.total = open.total.saturating_sub(1);
        if let Some(mine) = open.by_player.get_mut(&self.player) {
            *mine = mine.saturating_sub(1);
            if *mine == 0 {
                open.by_player.remove(&self.player);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::PlayerId;

    #[test]
    fn slots_are_capped_per_player_and_in_total_and_freed_on_drop() {
        let slots = Arc::new(StreamSlots::new(2, 3));
        let a1 = slots.take(StreamOwner::Player(PlayerId(1))).unwrap();
        let _a2 = slots.take(StreamOwner::Player(PlayerId(1))).unwrap();
        assert_eq!(
            slots.take(StreamOwner::Player(PlayerId(1))).unwrap_err(),
            NoSlot::Player { limit: 2 }
        );
        let _b1 = slots.take(StreamOwner::Player(PlayerId(2))).unwrap();
        assert_eq!(
            slots.take(StreamOwner::Player(PlayerId(3))).unwrap_err(),
            NoSlot::Server { limit: 3 }
        );
        drop(a1);
        assert_eq!(slots.open_now(), 2);
        assert!(
            slots.take(StreamOwner::Player(PlayerId(1))).is_ok(),
            "a freed place can be taken again"
        );
    }
}
