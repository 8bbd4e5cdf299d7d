//! Migration 31's Rust: the games finished before the explorer existed are counted into it.
//! It reads only the columns it needs by name, so later migrations may add to `games`.

use crate::domain::{GameId, PlayerId, SideColumn};
use crate::store::rows::{FinishedGame, record_finished_explorer_game};
use crate::store::{Conn, StoreError, params};

/// Counts every finished game of a preset into the new explorer tables, in id order.
pub(super) fn record_finished_games(c: &Conn<'_>) -> Result<(), StoreError> {
    type Stored = (
        GameId,
        String,
        String,
        Option<SideColumn>,
        Option<PlayerId>,
        Option<PlayerId>,
    );
    let finished: Vec<Stored> = c.query_all(
        "SELECT id, variant, rules, winner, attackers_player, defenders_player FROM games \
         WHERE status = 'finished' AND variant IS NOT NULL ORDER BY id",
        params![],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    for (id, variant, rules, winner, attackers, defenders) in finished {
        record_finished_explorer_game(
            c,
            &FinishedGame {
                id,
                variant: &variant,
                rules: &rules,
                winner: winner.map(|w| w.0),
                attackers,
                defenders,
            },
        )?;
    }
    Ok(())
}
