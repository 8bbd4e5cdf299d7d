//! How a player wants to hear that it is their turn, beyond the ping in the game's channel.

use crate::domain::PlayerId;
use crate::store::rows;

use super::Accounts;
use crate::Result;

impl Accounts<'_> {
    /// Turns `player`'s direct messages on their turn (and reminders) on or off.
    pub async fn set_turn_dms(self, player: PlayerId, on: bool) -> Result<()> {
        self.service
            .commit(move |c, _| Ok(rows::set_discord_dm(c, player, on)?))
            .await
    }

    /// Whether `player` gets a direct message on their turn.
    pub async fn turn_dms(self, player: PlayerId) -> Result<bool> {
        self.service
            .read(move |c| Ok(rows::wants_discord_dm(c, player)?))
            .await
    }
}
