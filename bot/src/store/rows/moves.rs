//! The moves of a game, in ply order.

use rusqlite::{Connection, params};

use super::*;
use crate::store::StoreError;

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

pub fn insert_move(c: &Connection, game: GameId, m: &MoveRow) -> Result<()> {
    let captures =
        serde_json::to_string(&m.captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    c.prepare_cached(
        "INSERT INTO moves (game_id, ply, side, notation, mv, captures, position_hash, \
         played_by, played_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        game,
        m.ply,
        SideColumn(m.side),
        m.notation,
        m.mv,
        captures,
        m.position_hash as i64,
        m.played_by,
        m.played_at
    ])?;
    Ok(())
}

pub fn moves(c: &Connection, game: GameId) -> Result<Vec<MoveRow>> {
    let mut stmt = c.prepare_cached(
        "SELECT ply, side, notation, mv, captures, position_hash, played_by, played_at \
         FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok((
            MoveRow {
                ply: r.get(0)?,
                side: r.get::<_, SideColumn>(1)?.0,
                notation: r.get(2)?,
                mv: r.get(3)?,
                captures: Vec::new(),
                position_hash: r.get::<_, i64>(5)? as u64,
                played_by: r.get(6)?,
                played_at: r.get(7)?,
            },
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (mut m, captures) = row?;
        m.captures =
            serde_json::from_str(&captures).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        out.push(m);
    }
    Ok(out)
}
