//! Migration 4's Rust: players stored before handles existed get one.

use std::collections::HashSet;

use crate::domain::Handle;
use crate::{Conn, StoreError, params};

/// Each stored player gets a handle made from their name, in id order, the first free of
/// `name`, `name2`, `name3`... (the same rule as a new registration), so the oldest keeps the
/// plain one.
pub(super) fn give_stored_players_handles(c: &Conn<'_>) -> Result<(), StoreError> {
    let players: Vec<(i64, String)> = c.query_all(
        "SELECT id, name FROM players WHERE handle IS NULL ORDER BY id",
        params![],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let mut taken: HashSet<String> = c
        .query_all(
            "SELECT handle FROM players WHERE handle IS NOT NULL",
            params![],
            |r| r.get(0),
        )?
        .into_iter()
        .collect();
    for (id, name) in players {
        let base = Handle::base_from(&name);
        let handle = (1..)
            .filter_map(|n: u32| Handle::with_suffix(&base, n))
            .find(|h| !taken.contains(h.as_str()))
            .ok_or_else(|| StoreError::Setup(format!("no free handle for player {id}")))?;
        c.execute(
            "UPDATE players SET handle = ?2 WHERE id = ?1",
            params![id, handle],
        )?;
        taken.insert(handle.to_string());
    }
    Ok(())
}
