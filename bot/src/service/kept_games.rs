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
        if !row.status.is_active() {
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
