//! A finished game counted into the explorer and the variant balance (the counting itself is the store's, so a
//! migration can count the games finished before the explorer existed).

use crate::domain::{GameStatus, Seat};
use crate::store::rows::{self, FinishedGame, GameRow};
use crate::store::{Conn, StoreError};

/// Counts finished game `row` (its moves stored) into the explorer of its preset and into the
/// variant balance, with its players' ratings as they were before it is rated. A game of a
/// rules string of its own or an aborted game is left out.
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
    let game = FinishedGame {
        id: row.id,
        variant,
        rules: &row.rules,
        winner: row.winner,
        attackers: person(row.attackers),
        defenders: person(row.defenders),
    };
    let average_rating = rows::players_average_rating(c, &game)?;
    rows::record_finished_explorer_game(c, &game, average_rating)?;
    rows::record_balance_game(c, variant, row.winner, average_rating)
}
