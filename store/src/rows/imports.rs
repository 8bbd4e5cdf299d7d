//! Imported games: the players their records name (names, not accounts) and what the record
//! said beside the moves.

use crate::{Conn, params};

use super::*;
use crate::domain::ImportedPlayerId;

/// The imported player called `name`, added the first time a record names them.
pub fn imported_player_named(c: &Conn<'_>, name: &str) -> Result<ImportedPlayerId> {
    c.execute(
        "INSERT INTO imported_players (name) VALUES (?1) ON CONFLICT (name) DO NOTHING",
        params![name],
    )?;
    c.query_one(
        "SELECT id FROM imported_players WHERE name = ?1",
        params![name],
        |r| r.get(0),
    )
}

/// The name of imported player `id`, if there is one.
pub fn imported_player_name(c: &Conn<'_>, id: ImportedPlayerId) -> Result<Option<String>> {
    c.query_opt(
        "SELECT name FROM imported_players WHERE id = ?1",
        params![id],
        |r| r.get(0),
    )
}

/// What an imported game's record said beside its moves and players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedGameRow {
    pub game_id: GameId,
    /// `otg` or `moves`.
    pub format: String,
    pub tags: Vec<(String, String)>,
    pub imported_by: Option<PlayerId>,
    pub imported_at: i64,
}

pub fn insert_imported_game(c: &Conn<'_>, row: &ImportedGameRow) -> Result<()> {
    let tags = serde_json::to_string(&row.tags).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    c.execute(
        "INSERT INTO imported_games (game_id, format, tags, imported_by, imported_at) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            row.game_id,
            row.format,
            tags,
            row.imported_by,
            row.imported_at
        ],
    )?;
    Ok(())
}

/// The import record of `game`; `None` for a game played here.
pub fn imported_game(c: &Conn<'_>, game: GameId) -> Result<Option<ImportedGameRow>> {
    c.query_opt(
        "SELECT format, tags, imported_by, imported_at FROM imported_games WHERE game_id = ?1",
        params![game],
        |r| {
            let tags: String = r.get(1)?;
            Ok(ImportedGameRow {
                game_id: game,
                format: r.get(0)?,
                tags: serde_json::from_str(&tags)
                    .map_err(|e| StoreError::Corrupt(format!("imported tags unreadable: {e}")))?,
                imported_by: r.get(2)?,
                imported_at: r.get(3)?,
            })
        },
    )
}
