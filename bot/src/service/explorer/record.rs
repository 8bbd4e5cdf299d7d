//! A finished game counted into the explorer (the counting itself is the store's, so a
//! migration can count the games finished before the explorer existed).

use crate::domain::{GameStatus, Seat};
use crate::store::rows::{self, FinishedGame, GameRow};
use crate::store::{Conn, StoreError};

/// Counts finished game `row` (its moves stored) into the explorer of its preset. A game of
/// a rules string of its own or an aborted game is left out.
pub(crate) fn record_game(c: &Conn<'_>, row: &GameRow) -> Result<(), StoreError> {
    let Some(variant) = row.variant.as_deref() else {
        return Ok(());
    };
    if row.status != GameStatus::Finished {
        return Ok(());
    }
    let person = |seat: Seat| match seat {
        Seat::Player(p) => Some(p),
        Seat::Ai(_) | Seat::Imported(_) => None,
    };
    rows::record_finished_explorer_game(
        c,
        &FinishedGame {
            id: row.id,
            variant,
            rules: &row.rules,
            winner: row.winner,
            attackers: person(row.attackers),
            defenders: person(row.defenders),
        },
    )
}
