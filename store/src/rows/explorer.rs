//! The opening explorer's counts: per folded position, and per move out of it (named by the
//! folded position it leads to).

use tafl_engine::{Move, Rules, folded_path};

use crate::{Conn, Row, params};

use super::*;

/// How the games through a position or a move ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExplorerCounts {
    pub games: u64,
    pub attackers_won: u64,
    pub defenders_won: u64,
    pub draws: u64,
}

/// A move out of a position: the folded position it leads to, its counts and ratings, and
/// the engine's chance there once searched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExplorerMoveRow {
    pub next_key: u64,
    pub counts: ExplorerCounts,
    pub rating_sum: i64,
    pub rated_games: u64,
    /// The defenders' winning chance in the position the move leads to
    /// (`explorer_evaluations`), `None` until the engine searched it.
    pub engine_chance: Option<f64>,
}

/// One finished game for the explorer: the folded keys of the positions it passed through
/// (its start first), who won, and its players' average rating when both had one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplorerGame<'a> {
    pub variant: &'a str,
    pub keys: &'a [u64],
    pub winner: Option<Side>,
    pub average_rating: Option<i64>,
}

/// Adds `game` to every position and move it passed through. A position reached twice in
/// one game (a repetition) counts it once, and so does a move played twice.
pub fn record_explorer_game(c: &Conn<'_>, game: &ExplorerGame<'_>) -> Result<()> {
    let (attackers, defenders, draw) = match game.winner {
        Some(Side::Attackers) => (1, 0, 0),
        Some(Side::Defenders) => (0, 1, 0),
        None => (0, 0, 1),
    };
    let (rating, rated) = game.average_rating.map_or((0, 0), |r| (r, 1));
    let mut seen = std::collections::HashSet::new();
    for (i, &key) in game.keys.iter().enumerate() {
        if !seen.insert(key) {
            continue;
        }
        c.execute(
            "INSERT INTO explorer_positions (variant, position_key, games, attackers_won, \
             defenders_won, draws) VALUES (?1, ?2, 1, ?3, ?4, ?5) \
             ON CONFLICT (variant, position_key) DO UPDATE SET games = explorer_positions.games + 1, \
             attackers_won = explorer_positions.attackers_won + excluded.attackers_won, \
             defenders_won = explorer_positions.defenders_won + excluded.defenders_won, \
             draws = explorer_positions.draws + excluded.draws",
            params![game.variant, key as i64, attackers, defenders, draw],
        )?;
        let Some(&next) = game.keys.get(i + 1) else {
            continue;
        };
        c.execute(
            "INSERT INTO explorer_moves (variant, position_key, next_key, games, attackers_won, \
             defenders_won, draws, rating_sum, rated_games) \
             VALUES (?1, ?2, ?3, 1, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (variant, position_key, next_key) DO UPDATE SET \
             games = explorer_moves.games + 1, \
             attackers_won = explorer_moves.attackers_won + excluded.attackers_won, \
             defenders_won = explorer_moves.defenders_won + excluded.defenders_won, \
             draws = explorer_moves.draws + excluded.draws, \
             rating_sum = explorer_moves.rating_sum + excluded.rating_sum, \
             rated_games = explorer_moves.rated_games + excluded.rated_games",
            params![
                game.variant,
                key as i64,
                next as i64,
                attackers,
                defenders,
                draw,
                rating,
                rated
            ],
        )?;
    }
    Ok(())
}

fn counts_from(r: &Row<'_>, first: usize) -> Result<ExplorerCounts> {
    Ok(ExplorerCounts {
        games: r.get::<i64>(first)? as u64,
        attackers_won: r.get::<i64>(first + 1)? as u64,
        defenders_won: r.get::<i64>(first + 2)? as u64,
        draws: r.get::<i64>(first + 3)? as u64,
    })
}

/// The counts of the games through a folded position; `None` when none reached it.
pub fn explorer_position(c: &Conn<'_>, variant: &str, key: u64) -> Result<Option<ExplorerCounts>> {
    c.query_opt(
        "SELECT games, attackers_won, defenders_won, draws FROM explorer_positions \
         WHERE variant = ?1 AND position_key = ?2",
        params![variant, key as i64],
        |r| counts_from(r, 0),
    )
}

/// The moves played out of a folded position, most played first, each with the engine's
/// chance where it leads (one keyed look-up per move, in the same query).
pub fn explorer_moves(c: &Conn<'_>, variant: &str, key: u64) -> Result<Vec<ExplorerMoveRow>> {
    c.query_all(
        "SELECT m.next_key, m.games, m.attackers_won, m.defenders_won, m.draws, m.rating_sum, \
         m.rated_games, e.chance FROM explorer_moves m LEFT JOIN explorer_evaluations e \
         ON e.variant = m.variant AND e.position_key = m.next_key \
         WHERE m.variant = ?1 AND m.position_key = ?2 \
         ORDER BY m.games DESC, m.next_key",
        params![variant, key as i64],
        |r| {
            Ok(ExplorerMoveRow {
                next_key: r.get::<i64>(0)? as u64,
                counts: counts_from(r, 1)?,
                rating_sum: r.get(5)?,
                rated_games: r.get::<i64>(6)? as u64,
                engine_chance: r.get(7)?,
            })
        },
    )
}

/// How deep the explorer follows a game: the opening and early middle game, where games
/// still share positions.
pub const EXPLORED_PLIES: usize = 30;

/// A finished game as the explorer needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame<'a> {
    pub id: GameId,
    pub variant: &'a str,
    pub rules: &'a str,
    pub winner: Option<Side>,
    /// The people who played it (an AI or an imported name has no rating to average).
    pub attackers: Option<PlayerId>,
    pub defenders: Option<PlayerId>,
}

/// The average of `game`'s players' present ratings in its variant, when both have one.
pub fn players_average_rating(c: &Conn<'_>, game: &FinishedGame<'_>) -> Result<Option<i64>> {
    let rating = |player: Option<PlayerId>| -> Result<Option<f64>> {
        Ok(match player {
            Some(p) => rating(c, p, game.variant)?.map(|r| r.glicko.rating),
            None => None,
        })
    };
    Ok(average(rating(game.attackers)?, rating(game.defenders)?))
}

/// Two ratings' average, rounded; `None` unless both are known.
pub fn average(attackers: Option<f64>, defenders: Option<f64>) -> Option<i64> {
    match (attackers, defenders) {
        (Some(a), Some(d)) => Some(((a + d) / 2.0).round() as i64),
        _ => None,
    }
}

/// Counts `game` (its moves stored, its players' `average_rating`) into the explorer; one
/// whose stored moves no longer replay is left out (logged).
pub fn record_finished_explorer_game(
    c: &Conn<'_>,
    game: &FinishedGame<'_>,
    average_rating: Option<i64>,
) -> Result<()> {
    let Some(keys) = keys_of(c, game.id, game.rules)? else {
        return Ok(());
    };
    record_explorer_game(
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
fn keys_of(c: &Conn<'_>, id: GameId, rules: &str) -> Result<Option<Vec<u64>>> {
    let Ok(rules) = Rules::from_opentafl(rules) else {
        tracing::warn!(game = %id, "left out of the explorer: its rules string does not read");
        return Ok(None);
    };
    let dim = rules.dim();
    let moves: Option<Vec<Move>> = moves(c, id)?
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
