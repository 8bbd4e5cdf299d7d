//! Migrations 31's and 36's Rust: the games finished before the explorer (31) and the
//! variant balance (36) existed are counted into them. They read only the columns they need
//! by name, so later migrations may add to `games`.

use crate::domain::{GameId, PlayerId, SideColumn};
use crate::store::rows::{
    FinishedGame, average, players_average_rating, rating, rating_before_game, record_balance_game,
    record_finished_explorer_game,
};
use crate::store::{Conn, StoreError, params};

/// Counts every finished game of a preset into the new explorer tables, in id order.
pub(super) fn record_finished_games(c: &Conn<'_>) -> Result<(), StoreError> {
    for_each_finished_game(c, |game| {
        let average_rating = players_average_rating(c, game)?;
        record_finished_explorer_game(c, game, average_rating)
    })
}

/// Counts every finished game of a preset into the variant balance, each in the band of its
/// players' ratings before it was rated (a game that was not: their present ratings).
pub(super) fn count_balance_of_finished_games(c: &Conn<'_>) -> Result<(), StoreError> {
    for_each_finished_game(c, |game| {
        let rating = |player: Option<PlayerId>| -> Result<Option<f64>, StoreError> {
            let Some(p) = player else {
                return Ok(None);
            };
            Ok(match rating_before_game(c, p, game.id)? {
                Some(before) => Some(before),
                None => rating(c, p, game.variant)?.map(|r| r.glicko.rating),
            })
        };
        let average_rating = average(rating(game.attackers)?, rating(game.defenders)?);
        record_balance_game(c, game.variant, game.winner, average_rating)
    })
}

/// Runs `count` on every finished game of a preset, in id order.
fn for_each_finished_game(
    c: &Conn<'_>,
    mut count: impl FnMut(&FinishedGame<'_>) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
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
        count(&FinishedGame {
            id,
            variant: &variant,
            rules: &rules,
            winner: winner.map(|w| w.0),
            attackers,
            defenders,
        })?;
    }
    Ok(())
}
