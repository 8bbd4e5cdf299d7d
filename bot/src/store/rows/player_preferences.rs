//! How each player likes their boards drawn in views only they see.

use rusqlite::{Connection, OptionalExtension, params};

use super::*;

/// Whether `player` sees their private boards turned half a turn (false without a row).
pub fn board_flipped(c: &Connection, player: PlayerId) -> Result<bool> {
    Ok(
        c.prepare_cached("SELECT board_flipped FROM player_preferences WHERE player_id = ?1")?
            .query_row(params![player], |r| r.get::<_, bool>(0))
            .optional()?
            .unwrap_or(false),
    )
}

pub fn set_board_flipped(c: &Connection, player: PlayerId, flipped: bool) -> Result<()> {
    c.prepare_cached(
        "INSERT INTO player_preferences (player_id, board_flipped) VALUES (?1, ?2) \
         ON CONFLICT(player_id) DO UPDATE SET board_flipped = excluded.board_flipped",
    )?
    .execute(params![player, flipped])?;
    Ok(())
}
