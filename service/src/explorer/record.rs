//! A finished game counted into the explorer and the variant balance (the counting itself is the store's, so a
//! migration can count the games finished before the explorer existed).

use crate::domain::Seat;
use crate::games::game_ended::{EndedGame, GameEndedSubscriber, Settlement};
use crate::store::rows::{self, FinishedGame, GameRow};
use crate::store::{Conn, StoreError};

/// Counts a public game played here into the explorer and the balance when it ends, before
/// it is rated (the counts keep the ratings the players had). A private game is never
/// counted: the explorer is public. Nor is an imported one: the explorer shows how games
/// went here.
pub(crate) struct CountInExplorer;

impl GameEndedSubscriber for CountInExplorer {
    fn settle(&self, c: &Conn<'_>, ended: &EndedGame<'_>, _: &mut Settlement) -> crate::Result<()> {
        if ended.counts_in_public_statistics() {
            record_game(c, ended.row)?;
        }
        Ok(())
    }
}

/// Counts finished game `row` (its moves stored) into the explorer of its preset and into the
/// variant balance, with its players' ratings as they were before it is rated.
fn record_game(c: &Conn<'_>, row: &GameRow) -> Result<(), StoreError> {
    let Some(variant) = row.variant.as_deref() else {
        return Ok(());
    };
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
