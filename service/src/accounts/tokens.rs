//! API tokens: authentication (with an in-memory cache of token hashes), and a player's own
//! list, creation and revocation. A revoked token leaves the cache at once, so its next
//! request is refused.

use std::sync::{PoisonError, RwLock};

use crate::store::rows::{self, PlayerId, TokenId};

use super::Credentials;
use crate::accounts::players::{new_token, token_hash};
use crate::{CreatedToken, Missing, Result, ServiceError, TokenView};

const MAX_TOKEN_NAME_CHARS: usize = 64;
/// Tokens one player may hold at once.
pub const MAX_TOKENS_PER_PLAYER: usize = 20;
/// `last_used_at` is written at most this often per token.
const TOUCH_EVERY_MS: i64 = 60_000;

/// Tokens held in memory at most; past that, the ones least used make room.
const CACHED_TOKENS: usize = 100_000;

/// Tokens seen lately, by SHA-256 of the token.
pub(crate) struct TokenCache {
    entries: quick_cache::unsync::Cache<[u8; 32], Cached>,
    /// Bumped by every revocation: a lookup that started before one does not cache its answer
    /// (it may have read the row just before it was deleted).
    revocations: u64,
}

impl Default for TokenCache {
    fn default() -> Self {
        TokenCache {
            entries: quick_cache::unsync::Cache::new(CACHED_TOKENS),
            revocations: 0,
        }
    }
}

#[derive(Clone)]
struct Cached {
    player: PlayerId,
    id: TokenId,
    last_used_at: Option<i64>,
}

/// The names [`clean_token_name`] takes.
pub fn token_name_schema() -> utoipa::openapi::schema::Object {
    crate::accounts::name_rule::printable_name(MAX_TOKEN_NAME_CHARS)
}

fn clean_token_name(name: &str) -> Result<String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_TOKEN_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(format!(
            "a token name must be 1 to {MAX_TOKEN_NAME_CHARS} printable characters"
        )));
    }
    Ok(name.to_owned())
}

fn cache(lock: &RwLock<TokenCache>) -> std::sync::RwLockWriteGuard<'_, TokenCache> {
    // Every update leaves the map whole, so a panic elsewhere does not spoil it.
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

/// Forgets every cached token of `player` (their tokens were deleted).
pub(crate) fn forget_tokens_of(lock: &RwLock<TokenCache>, player: PlayerId) {
    let mut c = cache(lock);
    c.entries.retain(|_, e| e.player != player);
    c.revocations += 1;
}

impl Credentials<'_> {
    /// The player a bearer token belongs to, if any. Notes the use (at most once a minute).
    pub async fn authenticate(self, token: &str) -> Result<Option<PlayerId>> {
        Ok(self.identify(token).await?.map(|(player, _)| player))
    }

    /// The player a bearer token belongs to and the token's id, if any. Notes the use.
    pub async fn identify(self, token: &str) -> Result<Option<(PlayerId, TokenId)>> {
        let hash = token_hash(token);
        let lock = &self.service.inner.tokens;
        let cached = {
            let c = lock.read().unwrap_or_else(PoisonError::into_inner);
            match c.entries.get(&hash) {
                Some(e) => Ok((e.player, e.id, e.last_used_at)),
                None => Err(c.revocations),
            }
        };
        let (player, id, last_used_at) = match cached {
            Ok(hit) => hit,
            Err(revocations_before) => {
                let Some(row) = self
                    .service
                    .read(move |c| Ok::<_, ServiceError>(rows::token_by_hash(c, &hash)?))
                    .await?
                else {
                    return Ok(None);
                };
                let mut c = cache(lock);
                if c.revocations == revocations_before {
                    c.entries.insert(
                        hash,
                        Cached {
                            player: row.player_id,
                            id: row.id,
                            last_used_at: row.last_used_at,
                        },
                    );
                }
                (row.player_id, row.id, row.last_used_at)
            }
        };
        self.note_use(hash, id, last_used_at);
        Ok(Some((player, id)))
    }

    /// Writes `last_used_at` when the stored one is a minute old, off the request's path.
    fn note_use(self, hash: [u8; 32], id: TokenId, last_used_at: Option<i64>) {
        let now = self.service.now_ms();
        let stale = |at: Option<i64>| at.is_none_or(|t| now.saturating_sub(t) >= TOUCH_EVERY_MS);
        let due = match cache(&self.service.inner.tokens).entries.get_mut(&hash) {
            // Decided under the lock, so concurrent requests write once.
            Some(mut entry) if stale(entry.last_used_at) => {
                entry.last_used_at = Some(now);
                true
            }
            Some(_) => false,
            None => stale(last_used_at),
        };
        if due {
            let store = self.service.inner.store.clone();
            tokio::spawn(async move {
                let touched = store
                    .write(move |c| Ok::<_, ServiceError>(rows::touch_token(c, id, now)?))
                    .await;
                if let Err(e) = touched {
                    tracing::debug!(token = %id, "last use not recorded: {e}");
                }
            });
        }
    }

    /// `player`'s tokens, oldest first.
    pub async fn tokens(self, player: PlayerId) -> Result<Vec<TokenView>> {
        self.service
            .read(move |c| {
                Ok(rows::tokens_of(c, player)?
                    .into_iter()
                    .map(TokenView::from)
                    .collect())
            })
            .await
    }

    /// A new named token for `player`; the token is in the answer and nowhere else.
    #[tracing::instrument(level = "debug", skip(self, name))]
    pub async fn create_token(self, player: PlayerId, name: &str) -> Result<CreatedToken> {
        let name = clean_token_name(name)?;
        let token = new_token()?;
        let hash = token_hash(&token);
        let row = self
            .service
            .commit(move |c, e| {
                if rows::token_count(c, player)? >= MAX_TOKENS_PER_PLAYER {
                    return Err(ServiceError::Invalid(format!(
                        "at most {MAX_TOKENS_PER_PLAYER} tokens per player; revoke one first"
                    )));
                }
                Ok(rows::insert_token(c, player, &hash, &name, e.now())?)
            })
            .await?;
        Ok(CreatedToken {
            view: row.into(),
            token,
        })
    }

    /// Revokes `player`'s token `id`: from the store, then from the cache, before answering.
    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn revoke_token(self, player: PlayerId, id: TokenId) -> Result<()> {
        self.service
            .commit(move |c, _| {
                if rows::delete_token(c, player, id)? {
                    Ok(())
                } else {
                    Err(ServiceError::NotFound(Missing::Token(id)))
                }
            })
            .await?;
        let mut c = cache(&self.service.inner.tokens);
        c.entries.retain(|_, e| e.id != id);
        c.revocations += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_cache_stays_bounded() {
        let mut cache = TokenCache::default();
        for i in 0..(CACHED_TOKENS as u64 + 5_000) {
            let mut hash = [0u8; 32];
            hash[..8].copy_from_slice(&i.to_le_bytes());
            cache.entries.insert(
                hash,
                Cached {
                    player: PlayerId(1),
                    id: TokenId(i64::try_from(i).unwrap()),
                    last_used_at: None,
                },
            );
        }
        assert!(
            cache.entries.len() <= CACHED_TOKENS,
            "{}",
            cache.entries.len()
        );
    }

    #[test]
    fn token_names_are_one_to_64_printable_characters() {
        assert_eq!(
            clean_token_name("  laptop ").ok().as_deref(),
            Some("laptop")
        );
        assert!(clean_token_name("").is_err());
        assert!(clean_token_name("   ").is_err());
        assert!(clean_token_name("a\u{7}b").is_err());
        assert!(clean_token_name(&"é".repeat(64)).is_ok());
        assert!(clean_token_name(&"é".repeat(65)).is_err());
    }
}
