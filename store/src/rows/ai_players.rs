//! The AI levels' player rows (`ai_players`): which player plays as the AI at which level, so
//! a level can be rated like a person.

use crate::{Conn, StoreError, params};

use super::*;

/// A stored level, which must fit a seat's `u8`.
pub(super) fn level_from(level: i64) -> Result<u8> {
    u8::try_from(level)
        .map_err(|_| StoreError::Corrupt(format!("AI player level {level} is out of range")))
}

/// The player who is the AI at `level`, if that level has one yet.
pub fn ai_player_of_level(c: &Conn<'_>, level: u8) -> Result<Option<PlayerId>> {
    c.query_opt(
        "SELECT player_id FROM ai_players WHERE level = ?1",
        params![i64::from(level)],
        |r| r.get(0),
    )
}

/// The AI level `player` plays as, if the player is the AI.
pub fn ai_level_of_player(c: &Conn<'_>, player: PlayerId) -> Result<Option<u8>> {
    c.query_opt(
        "SELECT level FROM ai_players WHERE player_id = ?1",
        params![player],
        |r| level_from(r.get(0)?),
    )
}

/// Marks `player` as the AI at `level`.
pub fn insert_ai_player(c: &Conn<'_>, level: u8, player: PlayerId) -> Result<()> {
    c.execute(
        "INSERT INTO ai_players (level, player_id) VALUES (?1, ?2)",
        params![i64::from(level), player],
    )?;
    Ok(())
}

/// The AI level's results per variant in its rated games (the games its ratings measure; its
/// casual games are left out), as [`results_by_variant`] counts a person's.
pub fn rated_results_of_ai_level(c: &Conn<'_>, level: u8) -> Result<Vec<ResultsRow>> {
    c.query_all(
        "SELECT variant, COUNT(*), \
         SUM(CASE WHEN (attackers_ai_level = ?1 AND winner = 'attackers') OR \
             (defenders_ai_level = ?1 AND winner = 'defenders') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN (attackers_ai_level = ?1 AND winner = 'defenders') OR \
             (defenders_ai_level = ?1 AND winner = 'attackers') THEN 1 ELSE 0 END), \
         SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END) \
         FROM games WHERE status = 'finished' AND rated = TRUE AND \
             (attackers_ai_level = ?1 OR defenders_ai_level = ?1) \
         GROUP BY variant ORDER BY variant",
        params![i64::from(level)],
        super::games::results_from,
    )
}
