//! How each player likes their boards drawn in views only they see.

use crate::{Conn, params};

use super::*;

/// Whether `player` sees their private boards turned half a turn (false without a row).
pub fn board_flipped(c: &Conn<'_>, player: PlayerId) -> Result<bool> {
    Ok(c.query_opt(
        "SELECT board_flipped FROM player_preferences WHERE player_id = ?1",
        params![player],
        |r| r.get::<bool>(0),
    )?
    .unwrap_or(false))
}

pub fn set_board_flipped(c: &Conn<'_>, player: PlayerId, flipped: bool) -> Result<()> {
    c.execute(
        "INSERT INTO player_preferences (player_id, board_flipped) VALUES (?1, ?2) \
         ON CONFLICT(player_id) DO UPDATE SET board_flipped = excluded.board_flipped",
        params![player, flipped],
    )?;
    Ok(())
}
