//! A finished game counted into the explorer.

use tafl_engine::{Move, Rules, folded_path};

use crate::domain::{GameId, GameStatus, PlayerId, Seat, Side};
use crate::store::rows::{self, ExplorerGame, GameRow};
use crate::store::{Conn, StoreError};

use super::EXPLORED_PLIES;

/// A finished game as the explorer needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FinishedGame<'a> {
    pub id: GameId,
    pub variant: &'a str,
    pub rules: &'a str,
    pub winner: Option<Side>,
    /// The people who played it (an AI or an imported name has no rating to average).
    pub attackers: Option<PlayerId>,
    pub defenders: Option<PlayerId>,
}

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
    record_finished(
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

/// Counts `game` (its moves stored) into the explorer; one whose stored moves no longer replay
/// is left out (logged).
pub(crate) fn record_finished(c: &Conn<'_>, game: &FinishedGame<'_>) -> Result<(), StoreError> {
    let Some(keys) = keys_of(c, game.id, game.rules)? else {
        return Ok(());
    };
    let rating = |player: Option<PlayerId>| -> Result<Option<f64>, StoreError> {
        Ok(match player {
            Some(p) => rows::rating(c, p, game.variant)?.map(|r| r.glicko.rating),
            None => None,
        })
    };
    let average_rating = match (rating(game.attackers)?, rating(game.defenders)?) {
        (Some(a), Some(d)) => Some(((a + d) / 2.0).round() as i64),
        _ => None,
    };
    rows::record_explorer_game(
        c,
        &ExplorerGame {
            variant: game.variant,
            keys: &keys,
            winner: game.winner,
            average_rating,
        },
    )
}

/// The folded keys of game `id`'s first positions, or `None` (logged) when its stored moves
/// do not replay under its rules.
fn keys_of(c: &Conn<'_>, id: GameId, rules: &str) -> Result<Option<Vec<u64>>, StoreError> {
    let Ok(rules) = Rules::from_opentafl(rules) else {
        tracing::warn!(game = %id, "left out of the explorer: its rules string does not read");
        return Ok(None);
    };
    let dim = rules.dim();
    let moves: Option<Vec<Move>> = rows::moves(c, id)?
        .iter()
        .take(EXPLORED_PLIES)
        .map(|m| Move::parse(&m.mv, dim).ok())
        .collect();
    let Some(moves) = moves else {
        tracing::warn!(game = %id, "left out of the explorer: a stored move does not read");
        return Ok(None);
    };
    match folded_path(rules, &moves, EXPLORED_PLIES) {
        Ok(keys) => Ok(Some(keys)),
        Err((i, e)) => {
            tracing::warn!(game = %id, ply = i + 1, "left out of the explorer: {e}");
            Ok(None)
        }
    }
}
