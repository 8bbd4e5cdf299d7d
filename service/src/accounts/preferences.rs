//! Per-player preferences: how a player likes the boards only they see.

use crate::domain::PlayerId;
use crate::store::rows;

use super::Accounts;
use crate::Result;

impl Accounts<'_> {
    /// Whether `player` wants the boards shown only to them turned half a turn.
    pub async fn board_flipped(self, player: PlayerId) -> Result<bool> {
        self.service
            .read(move |c| Ok(rows::board_flipped(c, player)?))
            .await
    }

    /// Remembers whether `player` wants their private boards turned half a turn.
    pub async fn set_board_flipped(self, player: PlayerId, flipped: bool) -> Result<()> {
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::set_board_flipped(c, player, flipped)?))
            .await
    }
}
