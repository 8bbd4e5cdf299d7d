//! What taflbot keeps about a player, shown to them, and erasing it at their request
//! (`/privacy`; docs/privacy.md says what is kept, why and for how long).
//!
//! Erasing works as lichess closes an account: what is personal goes (credentials, webhooks,
//! preferences, the Discord link, the servers they were seen in), the player row stays under
//! a neutral name ("Deleted player", handle `deleted-<id>`) so that finished games keep both
//! sides for the opponent, with the moves, results and ratings. Active games are resigned
//! first, pending challenges withdrawn or declined: nobody waits on someone who is gone.

use crate::domain::{Handle, PlayerId};
use crate::store::rows::{self, PersonalDataCounts};

use super::Accounts;
use crate::{Result, ServiceError};

/// The name an erased player's games show.
pub const ERASED_NAME: &str = "Deleted player";

/// What taflbot keeps about one player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonalData {
    pub player: PlayerId,
    pub name: String,
    pub handle: Handle,
    pub discord_user_id: Option<u64>,
    /// When they first used taflbot (milliseconds since the epoch).
    pub since: i64,
    /// Direct messages on their turn (`/notify`).
    pub turn_dms: bool,
    /// Private boards turned half a turn (`/board flip:`).
    pub board_flipped: bool,
    pub counts: PersonalDataCounts,
}

/// What erasing a player did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Erased {
    pub games_resigned: usize,
    pub challenges_withdrawn: usize,
}

/// The handle of erased player `id`: unique (ids are), and valid.
fn erased_handle(id: PlayerId) -> Result<Handle> {
    Handle::parse(&format!("deleted-{id}")).map_err(ServiceError::internal)
}

impl Accounts<'_> {
    /// What taflbot keeps about `player`.
    pub async fn personal_data(self, player: PlayerId) -> Result<PersonalData> {
        self.service
            .read(move |c| {
                let row = rows::player(c, player)?
                    .ok_or(ServiceError::NotFound(crate::Missing::Player(player)))?;
                Ok(PersonalData {
                    player,
                    name: row.name,
                    handle: row.handle,
                    discord_user_id: row.discord_user_id,
                    since: row.created_at,
                    turn_dms: rows::wants_discord_dm(c, player)?,
                    board_flipped: rows::board_flipped(c, player)?,
                    counts: rows::personal_data_counts(c, player)?,
                })
            })
            .await
    }

    /// Erases what is personal about `player` (see the module's doc).
    pub async fn erase(self, player: PlayerId) -> Result<Erased> {
        let mut erased = Erased::default();
        let games = self.service.games().list_games(player).await?;
        for game in games.iter().filter(|g| g.status.is_active()) {
            match self.service.games().resign(player, game.id).await {
                Ok(_) => erased.games_resigned += 1,
                // Ended meanwhile: nothing to resign.
                Err(ServiceError::GameOver) => {}
                Err(e) => return Err(e),
            }
        }
        let challenges = self.service.challenges().list(player).await?;
        for challenge in challenges.outgoing {
            if self
                .service
                .challenges()
                .cancel(player, challenge.id)
                .await
                .is_ok()
            {
                erased.challenges_withdrawn += 1;
            }
        }
        for challenge in challenges.incoming {
            let mine = challenge
                .opponent
                .as_ref()
                .is_some_and(|o| o.player_id == Some(player));
            if mine
                && self
                    .service
                    .challenges()
                    .decline(player, challenge.id)
                    .await
                    .is_ok()
            {
                erased.challenges_withdrawn += 1;
            }
        }
        let handle = erased_handle(player)?;
        self.service
            .commit(move |c, _| {
                let row = rows::player(c, player)?
                    .ok_or(ServiceError::NotFound(crate::Missing::Player(player)))?;
                rows::erase_player(c, player, ERASED_NAME, &handle, row.discord_user_id)?;
                Ok(())
            })
            .await?;
        super::tokens::forget_tokens_of(&self.service.inner.tokens, player);
        tracing::info!(%player, ?erased, "a player's personal data was erased at their request");
        Ok(erased)
    }
}
