//! A player's games, finished or not, in pages; and every finished public game of a player as
//! one `.otg` file, record after record.

use crate::domain::{GameId, GameStatus, PlayerId};
use crate::store::rows::{self, GameFilter};

use super::Games;
use crate::accounts::players::{page_of, page_offset};
use crate::games::game_state;
use crate::ratings::preset;
use crate::views::{GameSummary, Page};
use crate::{Result, ServiceError};

/// Games listed on one page of `GET /players/{handle}/games`.
pub const GAMES_PAGE_SIZE: u32 = 50;

/// Which of a player's games to list (each given field narrows the list).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryQuery {
    pub status: Option<GameStatus>,
    /// A preset id.
    pub variant: Option<String>,
    pub page: u32,
    /// Games per page (the HTTP API's: [`GAMES_PAGE_SIZE`]).
    pub page_size: u32,
}

impl Games<'_> {
    /// `player`'s games as `viewer` may see them (private ones only when `viewer` plays in
    /// them), the most recently finished or changed first.
    pub async fn games_of_player(
        self,
        player: PlayerId,
        viewer: Option<PlayerId>,
        query: HistoryQuery,
    ) -> Result<Page<GameSummary>> {
        let variant = query
            .variant
            .as_deref()
            .map(|v| {
                preset(v).map(str::to_owned).map_err(|_| {
                    ServiceError::Invalid(format!(
                        "variant must be a preset id (see /variants), not {v:?}"
                    ))
                })
            })
            .transpose()?;
        let size = query.page_size.max(1);
        let page = query.page.max(1);
        let filter = GameFilter {
            status: query.status,
            variant,
            viewer,
        };
        let summaries = self
            .service
            .read(move |c| {
                rows::games_of(c, player, &filter, size + 1, page_offset(page, size))?
                    .iter()
                    .map(|g| game_state::game_summary(c, g, viewer))
                    .collect::<Result<Vec<_>>>()
            })
            .await?;
        Ok(page_of(summaries, page, size))
    }

    /// Ids of `player`'s finished public games after `after`, in order, `limit` at most.
    pub async fn finished_public_games(
        self,
        player: PlayerId,
        after: GameId,
        limit: u32,
    ) -> Result<Vec<GameId>> {
        self.service
            .read(move |c| Ok(rows::finished_public_games_of(c, player, after, limit)?))
            .await
    }
}
