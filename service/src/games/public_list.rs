//! The public games anyone may watch: those being played and the last finished, the most
//! recently changed first (the web client's `/games`).

use super::Games;
use crate::Result;
use crate::domain::GameStatus;
use crate::games::game_state;
use crate::store::rows;
use crate::views::GameSummary;

/// Games listed of each kind at most: a page to look through, not an archive.
pub const PUBLIC_GAMES_LISTED: u32 = 30;

/// Public games being played and the last finished ones.
#[derive(Debug, Clone)]
pub struct PublicGames {
    pub live: Vec<GameSummary>,
    pub recent: Vec<GameSummary>,
}

impl Games<'_> {
    /// Public games being played and the last finished, [`PUBLIC_GAMES_LISTED`] of each, as a
    /// visitor without a seat in them sees them.
    pub async fn public_games(self) -> Result<PublicGames> {
        self.service
            .read(|c| {
                let of = |status| {
                    rows::public_games(c, status, PUBLIC_GAMES_LISTED)?
                        .iter()
                        .map(|g| game_state::game_summary(c, g, None))
                        .collect::<Result<Vec<_>>>()
                };
                Ok(PublicGames {
                    live: of(GameStatus::Active)?,
                    recent: of(GameStatus::Finished)?,
                })
            })
            .await
    }
}
