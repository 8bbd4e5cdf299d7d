//! Players and their API tokens.

use sha2::{Digest, Sha256};

use crate::store::rows::{self, PlayerId};

use super::{GamesService, IssuedToken, PlayerView, Result, ServiceError};

const MAX_NAME_CHARS: usize = 64;

/// SHA-256 of a token: what the store keeps.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

pub(super) fn new_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ServiceError::Internal(format!("no randomness for a token: {e}")))?;
    Ok(format!("tfl_{}", hex::encode(bytes)))
}

/// The names [`clean_name`] takes.
pub fn name_schema() -> utoipa::openapi::schema::Object {
    super::name_rule::printable_name(MAX_NAME_CHARS)
}

fn clean_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ServiceError::Invalid(
            "the player name must not be empty".into(),
        ));
    }
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(format!(
            "the player name must be at most {MAX_NAME_CHARS} printable characters"
        )));
    }
    Ok(name.to_owned())
}

impl GamesService {
    /// Registers a new player and returns their first API token.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn register_player(&self, name: &str) -> Result<IssuedToken> {
        let name = clean_name(name)?;
        let token = new_token()?;
        let hash = token_hash(&token);
        let player = self
            .commit(move |c, e| {
                let p = rows::insert_player(c, &name, None, e.now())?;
                rows::insert_token(c, p.id, &hash, "registration", e.now())?;
                Ok(p)
            })
            .await?;
        Ok(IssuedToken {
            player: player.into(),
            token,
        })
    }

    /// The player of a Discord user, created on first use; their display name is kept fresh.
    pub async fn player_for_discord_user(
        &self,
        discord_user_id: u64,
        display_name: &str,
    ) -> Result<PlayerView> {
        let name = clean_name(display_name).unwrap_or_else(|_| format!("user {discord_user_id}"));
        let player = self
            .commit(move |c, e| {
                Ok(match rows::player_by_discord(c, discord_user_id)? {
                    Some(mut p) => {
                        if p.name != name {
                            rows::rename_player(c, p.id, &name)?;
                            p.name = name;
                        }
                        p
                    }
                    None => rows::insert_player(c, &name, Some(discord_user_id), e.now())?,
                })
            })
            .await?;
        Ok(player.into())
    }

    /// A new API token for `player` (e.g. a Discord user's `/token`), for the same games.
    pub async fn issue_api_token(&self, player: PlayerId, label: &str) -> Result<IssuedToken> {
        let token = new_token()?;
        let hash = token_hash(&token);
        let label = label.chars().take(64).collect::<String>();
        let player = self
            .commit(move |c, e| {
                let p = rows::player(c, player)?
                    .ok_or_else(|| ServiceError::not_found(format!("player {player}")))?;
                rows::insert_token(c, p.id, &hash, &label, e.now())?;
                Ok(p)
            })
            .await?;
        Ok(IssuedToken {
            player: player.into(),
            token,
        })
    }

    pub async fn player(&self, id: PlayerId) -> Result<PlayerView> {
        self.read(move |c| {
            rows::player(c, id)?
                .map(PlayerView::from)
                .ok_or_else(|| ServiceError::not_found(format!("player {id}")))
        })
        .await
    }
}
