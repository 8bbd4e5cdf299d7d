//! Annotations of finished games: comments on moves and variations instead of them.

use crate::{Conn, params};

use super::*;
use crate::domain::AnnotationId;

/// One annotation as stored; `variation` is the service's JSON of the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotationRow {
    pub id: AnnotationId,
    pub game_id: GameId,
    pub ply: u32,
    pub author: Option<PlayerId>,
    /// `player`, `importer`, `commentator` or `record`.
    pub role: String,
    pub comment: Option<String>,
    pub variation: Option<String>,
    pub created_at: i64,
}

/// Adds `row` (its id is ignored) and returns the new id.
pub fn insert_annotation(c: &Conn<'_>, row: &AnnotationRow) -> Result<AnnotationId> {
    c.insert_returning_id(
        "INSERT INTO game_annotations (game_id, ply, author, role, comment, variation, \
         created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        params![
            row.game_id,
            row.ply,
            row.author,
            row.role,
            row.comment,
            row.variation,
            row.created_at
        ],
    )
    .map(AnnotationId)
}

/// The annotations of `game`, by ply then in the order they were written.
pub fn annotations(c: &Conn<'_>, game: GameId) -> Result<Vec<AnnotationRow>> {
    c.query_all(
        "SELECT id, ply, author, role, comment, variation, created_at FROM game_annotations \
         WHERE game_id = ?1 ORDER BY ply, id",
        params![game],
        |r| {
            Ok(AnnotationRow {
                id: r.get(0)?,
                game_id: game,
                ply: r.get(1)?,
                author: r.get(2)?,
                role: r.get(3)?,
                comment: r.get(4)?,
                variation: r.get(5)?,
                created_at: r.get(6)?,
            })
        },
    )
}

/// How many annotations `game` has.
pub fn annotation_count(c: &Conn<'_>, game: GameId) -> Result<u32> {
    c.query_one(
        "SELECT COUNT(*) FROM game_annotations WHERE game_id = ?1",
        params![game],
        |r| r.get(0),
    )
}

/// Removes annotation `id` of `game` written by `author`; whether there was one.
pub fn delete_annotation(
    c: &Conn<'_>,
    game: GameId,
    id: AnnotationId,
    author: PlayerId,
) -> Result<bool> {
    Ok(c.execute(
        "DELETE FROM game_annotations WHERE id = ?1 AND game_id = ?2 AND author = ?3",
        params![id, game, author],
    )? > 0)
}
