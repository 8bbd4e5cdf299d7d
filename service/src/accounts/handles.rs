//! Giving players handles: the one a person asks for, or the first free one made from a name.
//! The store's UNIQUE index decides who gets a handle; the service only proposes, and when a
//! write is refused because the handle was just taken, proposes the next.

use std::collections::HashSet;

use crate::store::Conn;

use crate::domain::{Handle, PlayerId};
use crate::store::rows::{self, PlayerRow};

use crate::{Result, ServiceError};

/// How many taken handles a derivation steps over after its look at the index (handles taken by
/// a suffix cutting the base short are only found by trying).
const MAX_RETRIES: u32 = 1_000;

/// A handle someone asked to hold, read by the rule, or the refusal in their terms.
pub(crate) fn requested(text: &str) -> Result<Handle> {
    Handle::parse_for_person(text).map_err(|e| ServiceError::Invalid(e.to_string()))
}

fn taken(handle: &Handle) -> ServiceError {
    ServiceError::Conflict {
        message: format!("the handle {:?} is taken; choose another", handle.as_str()),
        game: None,
    }
}

/// Inserts a player with exactly `handle`, or says it is taken.
pub(crate) fn insert_with_handle(
    c: &Conn<'_>,
    name: &str,
    handle: &Handle,
    discord_user_id: Option<u64>,
    now: i64,
) -> Result<PlayerRow> {
    rows::insert_player(c, name, handle, discord_user_id, now).map_err(|e| {
        if rows::handle_taken(&e) {
            taken(handle)
        } else {
            e.into()
        }
    })
}

/// Inserts a player with the first free handle of `base`, `base2`, `base3`...
pub(crate) fn insert_with_derived_handle(
    c: &Conn<'_>,
    name: &str,
    base: &str,
    discord_user_id: Option<u64>,
    now: i64,
) -> Result<PlayerRow> {
    let candidates = (1u32..).filter_map(|n| Handle::with_suffix(base, n));
    insert_with_first_free(c, name, base, candidates, discord_user_id, now)
}

/// Inserts a player with the first of `candidates` (handles starting with `base`) nobody holds.
pub(crate) fn insert_with_first_free(
    c: &Conn<'_>,
    name: &str,
    base: &str,
    candidates: impl Iterator<Item = Handle>,
    discord_user_id: Option<u64>,
    now: i64,
) -> Result<PlayerRow> {
    let seen: HashSet<String> = rows::handles_starting_with(c, base)?.into_iter().collect();
    let mut retries = 0;
    for handle in candidates.filter(|h| !seen.contains(h.as_str())) {
        match rows::insert_player(c, name, &handle, discord_user_id, now) {
            Ok(player) => return Ok(player),
            Err(e) if rows::handle_taken(&e) && retries < MAX_RETRIES => retries += 1,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ServiceError::internal(format!(
        "no free handle made from {base:?}"
    )))
}

/// Gives `player` the handle `handle`, or says it is taken.
pub fn change(c: &Conn<'_>, player: PlayerId, handle: &Handle) -> Result<()> {
    rows::set_handle(c, player, handle).map_err(|e| {
        if rows::handle_taken(&e) {
            taken(handle)
        } else {
            e.into()
        }
    })
}
