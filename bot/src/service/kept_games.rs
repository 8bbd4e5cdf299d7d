//! The games this instance last moved in, as committed. A move in one of them is checked
//! against the kept row and written guarded by its version (`rows::write_guarded_move`), so
//! it needs no read: on a shared database that read is a round trip, and the statement
//! that spends the server's time most after the move's own. A row goes in only once its
//! transaction committed, and every change to a game counts its version up, so a kept row
//! whose version is still the stored one is the stored row.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::domain::GameId;
use crate::store::rows::GameRow;

pub(crate) struct KeptGames {
    rows: Mutex<HashMap<GameId, GameRow>>,
    /// At most this many rows (0: none kept, where the store cannot write without a read).
    capacity: usize,
}

impl KeptGames {
    pub(crate) fn new(capacity: usize) -> KeptGames {
        KeptGames {
            rows: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    pub(crate) fn get(&self, id: GameId) -> Option<GameRow> {
        self.rows.lock().ok()?.get(&id).cloned()
    }

    /// Keeps `row`, committed; an active game only (an ended one takes no more moves).
    pub(crate) fn put(&self, row: &GameRow) {
        let Ok(mut rows) = self.rows.lock() else {
            return;
        };
        if !row.status.is_active() || self.capacity == 0 {
            rows.remove(&row.id);
            return;
        }
        if rows.len() >= self.capacity && !rows.contains_key(&row.id) {
            rows.clear();
        }
        rows.insert(row.id, row.clone());
    }

    pub(crate) fn forget(&self, id: GameId) {
        if let Ok(mut rows) = self.rows.lock() {
            rows.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{GameStatus, PlayerId};

    fn row(id: i64) -> GameRow {
        let mut row = GameRow::sample(PlayerId(1), PlayerId(2), 0);
        row.id = GameId(id);
        row
    }

    #[test]
    fn an_active_game_is_kept_as_put_and_an_ended_one_forgotten() {
        let kept = KeptGames::new(10);
        let mut game = row(1);
        kept.put(&game);
        game.version += 1;
        kept.put(&game);
        assert_eq!(kept.get(GameId(1)), Some(game.clone()));
        game.status = GameStatus::Finished;
        kept.put(&game);
        assert_eq!(kept.get(GameId(1)), None);
    }

    #[test]
    fn no_more_than_the_capacity_is_kept_and_none_at_zero() {
        let kept = KeptGames::new(2);
        for id in 1..=3 {
            kept.put(&row(id));
        }
        let held = (1..=3).filter(|&id| kept.get(GameId(id)).is_some()).count();
        assert!((1..=2).contains(&held), "{held} kept");
        assert!(kept.get(GameId(3)).is_some(), "the newest is kept");
        let none = KeptGames::new(0);
        none.put(&row(1));
        assert_eq!(none.get(GameId(1)), None);
    }
}
