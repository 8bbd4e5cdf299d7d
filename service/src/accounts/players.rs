//! Players, their handles and their API tokens.

use sha2::{Digest, Sha256};

use crate::domain::Handle;
use crate::store::rows::{self, PlayerId};

use super::Accounts;
use crate::accounts::handles;
use crate::views::{Page, PlayerView};
use crate::{AccountChange, IssuedToken, Missing, Result, ServiceError};

const MAX_NAME_CHARS: usize = 64;

/// Players listed on one page of `GET /players`.
pub const PLAYERS_PAGE_SIZE: u32 = 50;

/// SHA-256 of a token: what the store keeps.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

pub(crate) fn new_token() -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ServiceError::internal(format!("no randomness for a token: {e}")))?;
    Ok(format!("tfl_{}", hex::encode(bytes)))
}

/// The names [`clean_name`] takes.
pub fn name_schema() -> utoipa::openapi::schema::Object {
    crate::accounts::name_rule::printable_name(MAX_NAME_CHARS)
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

/// A handle prefix to search by: lowercased, and only what a handle may hold.
fn handle_prefix(text: &str) -> Result<String> {
    let prefix = text.trim().trim_start_matches('@').to_lowercase();
    if prefix.chars().count() > crate::domain::MAX_HANDLE_CHARS {
        return Err(ServiceError::Invalid(format!(
            "prefix is {} characters long; handles have at most {}",
            prefix.chars().count(),
            crate::domain::MAX_HANDLE_CHARS
        )));
    }
    if let Some(bad) = prefix
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-')))
    {
        return Err(ServiceError::Invalid(format!(
            "prefix may only hold what handles hold (letters a-z, digits, \"_\" and \"-\"), not {bad:?}"
        )));
    }
    Ok(prefix)
}

/// The row offset of page `page` (from 1) of `size`.
pub(crate) fn page_offset(page: u32, size: u32) -> u64 {
    u64::from(page.max(1) - 1) * u64::from(size)
}

/// Builds a page from `size + 1` fetched items: the extra one only says a next page exists.
pub fn page_of<T>(mut items: Vec<T>, page: u32, size: u32) -> Page<T> {
    let more = items.len() > size as usize;
    items.truncate(size as usize);
    Page {
        page: page.max(1),
        page_size: size,
        next_page: more.then_some(page.max(1) + 1),
        items,
    }
}

impl Accounts<'_> {
    /// Registers a new player and returns their first API token. Without a `handle`, the first
    /// free one made from the name is given (`ada`, `ada2`, ...).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn register(self, name: &str, handle: Option<&str>) -> Result<IssuedToken> {
        let name = clean_name(name)?;
        let handle = handle.map(handles::requested).transpose()?;
        let token = new_token()?;
        let hash = token_hash(&token);
        let player = self
            .service
            .commit(move |c, e| {
                let p = match &handle {
                    Some(h) => handles::insert_with_handle(c, &name, h, None, e.now())?,
                    None => handles::insert_with_derived_handle(
                        c,
                        &name,
                        &Handle::base_from(&name),
                        None,
                        e.now(),
                    )?,
                };
                rows::insert_token(c, p.id, &hash, "registration", e.now())?;
                Ok(p)
            })
            .await?;
        Ok(IssuedToken {
            player: player.into(),
            token,
        })
    }

    /// The player of a Discord user, created on first use with a handle made from their
    /// `username`; their display name is kept fresh.
    pub async fn player_for_discord_user(
        self,
        discord_user_id: u64,
        username: &str,
        display_name: &str,
    ) -> Result<PlayerView> {
        let name = clean_name(display_name).unwrap_or_else(|_| format!("user {discord_user_id}"));
        let base = Handle::base_from(username);
        let player = self
            .service
            .commit(move |c, e| {
                Ok(match rows::player_by_discord(c, discord_user_id)? {
                    Some(mut p) => {
                        if p.name != name {
                            rows::rename_player(c, p.id, &name)?;
                            p.name = name;
                        }
                        p
                    }
                    None => handles::insert_with_derived_handle(
                        c,
                        &name,
                        &base,
                        Some(discord_user_id),
                        e.now(),
                    )?,
                })
            })
            .await?;
        Ok(player.into())
    }

    /// Gives `player` a new handle (their old one is free for others from then on).
    pub async fn change_handle(self, player: PlayerId, handle: &str) -> Result<PlayerView> {
        let change = AccountChange {
            handle: Some(handle.to_owned()),
            board_flipped: None,
        };
        Ok(self.change_account(player, change).await?.player)
    }

    /// A new API token for `player` (e.g. a Discord user's `/token`), for the same games.
    pub async fn issue_api_token(self, player: PlayerId, label: &str) -> Result<IssuedToken> {
        let token = new_token()?;
        let hash = token_hash(&token);
        let label = label.chars().take(64).collect::<String>();
        let player = self
            .service
            .commit(move |c, e| {
                let p = rows::player(c, player)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(player)))?;
                rows::insert_token(c, p.id, &hash, &label, e.now())?;
                Ok(p)
            })
            .await?;
        Ok(IssuedToken {
            player: player.into(),
            token,
        })
    }

    pub async fn player(self, id: PlayerId) -> Result<PlayerView> {
        self.service
            .read(move |c| {
                rows::player(c, id)?
                    .map(PlayerView::from)
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(id)))
            })
            .await
    }

    /// The player with `handle` (as typed: any case, a leading `@`).
    pub async fn player_by_handle(self, handle: &str) -> Result<PlayerView> {
        let missing = || ServiceError::NotFound(Missing::Handle(handle.to_owned()));
        // A text that breaks the rule is nobody's handle.
        let parsed = Handle::parse(handle).map_err(|_| missing())?;
        let found = self
            .service
            .read(move |c| Ok(rows::player_by_handle(c, &parsed)?))
            .await?;
        found.map(PlayerView::from).ok_or_else(missing)
    }

    /// Page `page` (from 1) of the players whose handle starts with `prefix`, by handle.
    pub async fn players_by_prefix(self, prefix: &str, page: u32) -> Result<Page<PlayerView>> {
        let prefix = handle_prefix(prefix)?;
        let size = PLAYERS_PAGE_SIZE;
        let rows = self
            .service
            .read(move |c| {
                Ok(rows::players_by_handle_prefix(
                    c,
                    &prefix,
                    size + 1,
                    page_offset(page, size),
                )?)
            })
            .await?;
        Ok(page_of(
            rows.into_iter().map(PlayerView::from).collect(),
            page,
            size,
        ))
    }

    /// Up to `limit` players whose display name starts with `prefix` (any case), by name: the
    /// web client's player search. An empty prefix finds nobody.
    pub async fn players_by_name(self, prefix: &str, limit: u32) -> Result<Vec<PlayerView>> {
        let prefix = prefix.trim().to_owned();
        if prefix.is_empty() {
            return Ok(Vec::new());
        }
        if prefix.chars().count() > MAX_NAME_CHARS {
            return Err(ServiceError::Invalid(format!(
                "a name is at most {MAX_NAME_CHARS} characters"
            )));
        }
        let rows = self
            .service
            .read(move |c| Ok(rows::players_by_name_prefix(c, &prefix, limit)?))
            .await?;
        Ok(rows.into_iter().map(PlayerView::from).collect())
    }

    /// The player of a Discord user, if they have used the bot (never creates one).
    pub async fn player_of_discord_user(self, discord_user_id: u64) -> Result<Option<PlayerView>> {
        self.service
            .read(move |c| Ok(rows::player_by_discord(c, discord_user_id)?.map(PlayerView::from)))
            .await
    }

    /// Remembers that `player` was seen in the Discord guild `guild` (for its leaderboard).
    pub async fn note_guild_player(self, guild: u64, player: PlayerId) -> Result<()> {
        let now = self.service.now_ms();
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::note_guild_player(c, guild, player, now)?))
            .await
    }
}
