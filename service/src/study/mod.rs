//! Study: games brought in from records (import) and notes on finished games (annotations).
//! `service.study().import(...)`, `service.study().annotate(...)`, `.board_notes(...)` (a
//! game's notes on the analysis board).

pub mod annotations;
mod board_notes;
mod record_import;
mod record_text;

use crate::domain::{AnnotationId, GameId, PlayerId};
use crate::games::game_state;
use crate::store::rows;
use crate::{GamesService, Missing, Result, ServiceError};

pub use annotations::{
    AnnotateRequest, AnnotationView, AnnotatorRole, MAX_ANNOTATIONS_PER_GAME, MAX_COMMENT_CHARS,
    MAX_VARIATION_PLIES, VariationMove,
};
pub use board_notes::{BoardNote, BoardNotes};
pub use record_import::{ImportRequest, ImportedGameView, MAX_RECORD_BYTES, RecordFormat};

/// Importing records and annotating finished games.
#[derive(Clone, Copy)]
pub struct Study<'s> {
    pub(super) service: &'s GamesService,
}

/// Where an imported game came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct ImportedFrom {
    pub format: RecordFormat,
    /// The record's tags but the players and the rules (event, site, date...).
    pub tags: Vec<(String, String)>,
    pub imported_at: i64,
}

impl Study<'_> {
    /// Reads `request`'s record, checks every move with the referee and stores the game:
    /// finished, unrated, public, its players the names the record gives.
    pub async fn import(
        self,
        by: Option<PlayerId>,
        request: ImportRequest,
    ) -> Result<ImportedGameView> {
        self.service
            .commit(move |c, e| record_import::import(c, e, &request, by))
            .await
    }

    /// Where game `id` was imported from; `None` for a game played here.
    pub async fn imported_from(self, id: GameId) -> Result<Option<ImportedFrom>> {
        self.service
            .read(move |c| {
                Ok(rows::imported_game(c, id)?.map(|row| ImportedFrom {
                    format: match row.format.as_str() {
                        "otg" => RecordFormat::Otg,
                        _ => RecordFormat::Moves,
                    },
                    tags: row.tags,
                    imported_at: row.imported_at,
                }))
            })
            .await
    }

    /// The annotations of a game `viewer` may see, by move.
    pub async fn annotations(
        self,
        viewer: Option<PlayerId>,
        id: GameId,
    ) -> Result<Vec<AnnotationView>> {
        self.service
            .read(move |c| {
                game_state::load_visible(c, id, viewer)?;
                rows::annotations(c, id)?
                    .into_iter()
                    .map(|row| annotations::view(c, row))
                    .collect()
            })
            .await
    }

    /// Whether `who` may annotate game `id`, and as what.
    pub async fn may_annotate(self, who: PlayerId, id: GameId) -> Result<AnnotatorRole> {
        self.service
            .read(move |c| {
                let row = game_state::load_visible(c, id, Some(who))?;
                annotations::role_of(c, &row, who)
            })
            .await
    }

    /// Adds a comment or a variation to finished game `id`.
    pub async fn annotate(
        self,
        who: PlayerId,
        id: GameId,
        request: AnnotateRequest,
    ) -> Result<AnnotationView> {
        self.service
            .commit(move |c, e| annotations::annotate(c, id, who, &request, e.now()))
            .await
    }

    /// Removes one of `who`'s annotations of game `id`.
    pub async fn remove_annotation(
        self,
        who: PlayerId,
        id: GameId,
        annotation: AnnotationId,
    ) -> Result<()> {
        self.service
            .commit(move |c, _| {
                game_state::load_visible(c, id, Some(who))?;
                if rows::delete_annotation(c, id, annotation, who)? {
                    Ok(())
                } else {
                    Err(ServiceError::NotFound(Missing::Annotation(annotation)))
                }
            })
            .await
    }
}
