//! The moves of a game, in ply order.

use crate::{Conn, params};

use super::*;
use crate::StoreError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: u32,
    pub side: Side,
    pub notation: String,
    pub mv: String,
    pub captures: Vec<String>,
    pub position_hash: u64,
    pub played_by: Option<PlayerId>,
    pub played_at: i64,
}

pub fn insert_move(c: &Conn<'_>, game: GameId, m: &MoveRow) -> Result<()> {
    let captures =
        serde_json::to_string(&m.captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    c.execute(
        "INSERT INTO moves (game_id, ply, side, notation, mv, captures, position_hash, \
         played_by, played_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            game,
            m.ply,
            SideColumn(m.side),
            m.notation,
            m.mv,
            captures,
            m.position_hash as i64,
            m.played_by,
            m.played_at
        ],
    )?;
    Ok(())
}

pub fn moves(c: &Conn<'_>, game: GameId) -> Result<Vec<MoveRow>> {
    c.query_all(
        "SELECT ply, side, notation, mv, captures, position_hash, played_by, played_at \
         FROM moves WHERE game_id = ?1 ORDER BY ply",
        params![game],
        |r| {
            Ok(MoveRow {
                ply: r.get(0)?,
                side: r.get::<SideColumn>(1)?.0,
                notation: r.get(2)?,
                mv: r.get(3)?,
                captures: serde_json::from_str(&r.get::<String>(4)?)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                position_hash: r.get::<i64>(5)? as u64,
                played_by: r.get(6)?,
                played_at: r.get(7)?,
            })
        },
    )
}
