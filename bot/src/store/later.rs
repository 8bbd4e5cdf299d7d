//! An answer a write job does not wait for. On PostgreSQL a statement whose answer is only
//! needed once the batch commits travels with the next round trip (at the latest the commit's),
//! so a batch of such jobs costs one round trip instead of one each (see
//! [`Conn::postgres_row_later`](super::Conn::postgres_row_later)): the writer holds the
//! cluster-wide write lock meanwhile, and round trips are where its time goes.

use std::sync::{Arc, OnceLock};

/// Filled when the statement's answer comes; empty when it never came (the batch failed, and
/// its callers were told so).
pub struct Later<T> {
    slot: Arc<OnceLock<T>>,
}

impl<T> Clone for Later<T> {
    fn clone(&self) -> Self {
        Later {
            slot: self.slot.clone(),
        }
    }
}

impl<T> Later<T> {
    pub(super) fn pending() -> Later<T> {
        Later {
            slot: Arc::new(OnceLock::new()),
        }
    }

    pub(super) fn fill(&self, value: T) {
        let _ = self.slot.set(value);
    }

    /// The answer, once it came.
    pub fn get(&self) -> Option<&T> {
        self.slot.get()
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Later<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Later").field(&self.slot.get()).finish()
    }
}
