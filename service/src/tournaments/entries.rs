//! A player joining or leaving a tournament, as an event (`tournament_joined`,
//! `tournament_left`): sent to the player and the organiser, on streams and webhooks, so a
//! tournament's page redraws when its list of players changes.

use crate::domain::PlayerId;
use crate::events::{EventPayload, TournamentEntry};
use crate::store::Conn;
use crate::store::rows::{self, TournamentRow};
use crate::{Emitter, Result};

/// Whether the player came in or went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EntryChange {
    Joined,
    /// Left before the start.
    Left,
    /// Withdrew from a running tournament.
    Withdrew,
}

/// Emits the change of `player`'s entry in `t`, written in the caller's transaction after the
/// change itself (the count is the one after it).
pub(super) fn emit_entry(
    c: &Conn<'_>,
    e: &mut Emitter,
    t: &TournamentRow,
    player: PlayerId,
    change: EntryChange,
) -> Result<()> {
    let players = rows::tournament_players(c, t.id)?
        .iter()
        .filter(|p| p.withdrawn_at.is_none())
        .count();
    let entry = TournamentEntry {
        tournament_id: t.id,
        name: t.name.clone(),
        player,
        players: u32::try_from(players).unwrap_or(u32::MAX),
        withdrew: change == EntryChange::Withdrew,
    };
    let payload = match change {
        EntryChange::Joined => EventPayload::TournamentJoined(entry),
        EntryChange::Left | EntryChange::Withdrew => EventPayload::TournamentLeft(entry),
    };
    let mut told = vec![player];
    if t.organiser != player {
        told.push(t.organiser);
    }
    e.emit(c, None, None, told, payload)
}
