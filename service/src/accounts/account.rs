//! A player's own account (`GET` and `PATCH /me`): what everyone sees of them, their Discord
//! account, and their preferences, changed together in one transaction.

use crate::domain::PlayerId;
use crate::store::rows;

use super::Accounts;
use crate::accounts::handles;
use crate::views::{AccountView, PlayerView};
use crate::{Missing, Result, ServiceError};

/// What to change about an account; what is `None` stays as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountChange {
    /// A new handle, as typed (any case, a leading `@`).
    pub handle: Option<String>,
    /// Whether the boards shown only to this player are turned half a turn.
    pub board_flipped: Option<bool>,
}

impl Accounts<'_> {
    /// `player`'s account as they see it.
    pub async fn account(self, player: PlayerId) -> Result<AccountView> {
        self.service
            .read(move |c| {
                let p = rows::player(c, player)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(player)))?;
                let board_flipped = rows::board_flipped(c, player)?;
                Ok(AccountView::new(PlayerView::from(p), board_flipped))
            })
            .await
    }

    /// Applies `change` to `player`'s account, all of it or (when any part is refused) none.
    pub async fn change_account(
        self,
        player: PlayerId,
        change: AccountChange,
    ) -> Result<AccountView> {
        let handle = change
            .handle
            .as_deref()
            .map(handles::requested)
            .transpose()?;
        self.service
            .commit(move |c, _| {
                let mut p = rows::player(c, player)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(player)))?;
                if let Some(handle) = handle
                    && p.handle != handle
                {
                    handles::change(c, player, &handle)?;
                    p.handle = handle;
                }
                if let Some(flipped) = change.board_flipped {
                    rows::set_board_flipped(c, player, flipped)?;
                }
                let board_flipped = rows::board_flipped(c, player)?;
                Ok(AccountView::new(PlayerView::from(p), board_flipped))
            })
            .await
    }
}
