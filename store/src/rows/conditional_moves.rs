//! Conditional moves: a player's queued answers to their opponent's next moves in one game,
//! anchored at the ply they were queued at.

use crate::{Conn, params};

use super::*;

/// One player's queued lines in one game: each line the opponent's move, the player's answer,
/// and so on, from the position at `ply`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionalMovesRow {
    pub game_id: GameId,
    pub player_id: PlayerId,
    pub ply: u32,
    pub lines: Vec<Vec<String>>,
}

pub(super) fn lines_from_json(text: &str) -> Result<Vec<Vec<String>>> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::Corrupt(format!("conditional moves unreadable: {e}")))
}

/// The lines `player` queued in `game`, at whatever ply they were queued.
pub fn conditional_moves(
    c: &Conn<'_>,
    game: GameId,
    player: PlayerId,
) -> Result<Option<ConditionalMovesRow>> {
    c.query_opt(
        "SELECT ply, lines FROM conditional_moves WHERE game_id = ?1 AND player_id = ?2",
        params![game, player],
        |r| {
            Ok(ConditionalMovesRow {
                game_id: game,
                player_id: player,
                ply: r.get(0)?,
                lines: lines_from_json(&r.get::<String>(1)?)?,
            })
        },
    )
}

/// Replaces the lines of `row`'s player in `row`'s game.
pub fn set_conditional_moves(c: &Conn<'_>, row: &ConditionalMovesRow, now: i64) -> Result<()> {
    let lines =
        serde_json::to_string(&row.lines).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    c.execute(
        "INSERT INTO conditional_moves (game_id, player_id, ply, lines, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT(game_id, player_id) DO UPDATE SET ply = excluded.ply, \
         lines = excluded.lines, updated_at = excluded.updated_at",
        params![row.game_id, row.player_id, row.ply, lines, now],
    )?;
    Ok(())
}

/// Drops `player`'s lines in `game`; whether there were any.
pub fn delete_conditional_moves(c: &Conn<'_>, game: GameId, player: PlayerId) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM conditional_moves WHERE game_id = ?1 AND player_id = ?2",
        params![game, player],
    )? > 0)
}

/// Drops every player's lines in `game` (it ended).
pub fn delete_conditional_moves_of_game(c: &Conn<'_>, game: GameId) -> Result<()> {
    c.execute(
        "DELETE FROM conditional_moves WHERE game_id = ?1",
        params![game],
    )?;
    Ok(())
}
