//! Signing in to the web client without a password: a one-time sign-in link (asked for with an
//! API token, printed by `taflbot login-link`, or sent privately by Discord's `/web`) or an
//! API token pasted into a form opens a browser session. A session carries a CSRF token that
//! every state-changing request of it must send back. Secrets are stored as their SHA-256.

use crate::domain::{PlayerId, SessionOpening, TokenId, WebSessionId};
use crate::store::rows::{self, NewWebSessionRow};

use super::Credentials;
use super::web_sessions::{SEEN_EVERY_MS, kept_user_agent};
use crate::accounts::players::token_hash;
use crate::ratings::ai_players::refuse_ai_player;
use crate::views::{LoginLink, PlayerView};
use crate::{Missing, Result, ServiceError};

/// Where a sign-in link points, under the server's address.
pub const LOGIN_PATH: &str = "/login/";

/// A browser session, just opened: the cookie's secret and its CSRF token.
#[derive(Debug, Clone)]
pub struct NewWebSession {
    pub player: PlayerId,
    /// The cookie's value: only its hash is stored.
    pub secret: String,
    pub csrf_token: String,
    pub expires_at: i64,
}

/// An open browser session, as a request finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebSession {
    pub id: WebSessionId,
    pub player: PlayerId,
    pub csrf_token: String,
}

/// 32 random bytes as hex after `prefix`.
fn random_secret(prefix: &str) -> Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| ServiceError::internal(format!("no randomness for a secret: {e}")))?;
    Ok(format!("{prefix}{}", hex::encode(bytes)))
}

/// The sign-in link of `token` on the server at `base_url` (no trailing slash).
pub fn login_url(base_url: &str, token: &str) -> String {
    format!("{base_url}{LOGIN_PATH}{token}")
}

impl Credentials<'_> {
    /// A new one-time sign-in link for `player`, on the server at `base_url`.
    pub async fn create_login_link(self, player: PlayerId, base_url: &str) -> Result<LoginLink> {
        self.new_login_link(player, base_url, None).await
    }

    /// A new one-time sign-in link for `player`, asked for with their API token `token`: the
    /// session it opens ends when that token is revoked, as a session the token opened itself.
    pub async fn create_login_link_with_token(
        self,
        player: PlayerId,
        base_url: &str,
        token: TokenId,
    ) -> Result<LoginLink> {
        self.new_login_link(player, base_url, Some(token)).await
    }

    #[tracing::instrument(level = "debug", skip(self, base_url))]
    async fn new_login_link(
        self,
        player: PlayerId,
        base_url: &str,
        requested_with: Option<TokenId>,
    ) -> Result<LoginLink> {
        let token = random_secret("tfl_link_")?;
        let hash = token_hash(&token);
        let ttl_ms = minutes_ms(self.service.inner.config.login_link_minutes);
        let expires_at = self
            .service
            .commit(move |c, e| {
                rows::player(c, player)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(player)))?;
                refuse_ai_player(c, player, "it plays through the server and never signs in")?;
                rows::delete_expired_login_links(c, e.now())?;
                let expires_at = e.now().saturating_add(ttl_ms);
                rows::insert_login_link(c, player, &hash, e.now(), expires_at, requested_with)?;
                Ok(expires_at)
            })
            .await?;
        Ok(LoginLink {
            url: login_url(base_url, &token),
            expires_at,
        })
    }

    /// A sign-in link for the player with `handle` (the server's own `taflbot login-link`).
    pub async fn login_link_for_handle(
        self,
        handle: &str,
        base_url: &str,
    ) -> Result<(PlayerView, LoginLink)> {
        let player = self.service.accounts().player_by_handle(handle).await?;
        let link = self.create_login_link(player.id, base_url).await?;
        Ok((player, link))
    }

    /// Redeems a sign-in link's token: a new session for its player, once. A used, expired or
    /// unknown link is refused, in the same words (they tell an attacker nothing).
    /// `user_agent`: the browser's, kept (shortened) for the player's list of sessions.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn redeem_login_link(
        self,
        token: &str,
        user_agent: Option<&str>,
    ) -> Result<NewWebSession> {
        let hash = token_hash(token.trim());
        let session = SessionSecrets::new()?;
        let session_hash = token_hash(&session.secret);
        let ttl_ms = days_ms(self.service.inner.config.web_session_days);
        let user_agent = kept_user_agent(user_agent);
        self.service
            .commit(move |c, e| {
                let link = rows::redeem_login_link(c, &hash, e.now())?.ok_or_else(|| {
                    ServiceError::Forbidden(
                        "this sign-in link has been used already or has expired; ask for a new one"
                            .into(),
                    )
                })?;
                let expires_at = e.now().saturating_add(ttl_ms);
                rows::delete_expired_web_sessions(c, e.now())?;
                rows::insert_web_session(
                    c,
                    NewWebSessionRow {
                        player: link.player,
                        session_hash: &session_hash,
                        csrf_token: &session.csrf_token,
                        now: e.now(),
                        expires_at,
                        opened_by: SessionOpening::SignInLink,
                        // A link a token asked for ends with the token, as a session the token
                        // opened itself does.
                        opened_with_token: link.created_with_token,
                        user_agent: user_agent.as_deref(),
                    },
                )?;
                Ok(session.opened(link.player, expires_at))
            })
            .await
    }

    /// Opens a session for the player of an API token pasted into the sign-in form.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn sign_in_with_api_token(
        self,
        api_token: &str,
        user_agent: Option<&str>,
    ) -> Result<NewWebSession> {
        let (player, token) = self
            .identify(api_token.trim())
            .await?
            .ok_or_else(|| ServiceError::Forbidden("this API token is not valid".into()))?;
        let session = SessionSecrets::new()?;
        let session_hash = token_hash(&session.secret);
        let ttl_ms = days_ms(self.service.inner.config.web_session_days);
        let user_agent = kept_user_agent(user_agent);
        self.service
            .commit(move |c, e| {
                let expires_at = e.now().saturating_add(ttl_ms);
                rows::insert_web_session(
                    c,
                    NewWebSessionRow {
                        player,
                        session_hash: &session_hash,
                        csrf_token: &session.csrf_token,
                        now: e.now(),
                        expires_at,
                        opened_by: SessionOpening::ApiToken,
                        // Revoking the token ends the session (the row goes with it).
                        opened_with_token: Some(token),
                        user_agent: user_agent.as_deref(),
                    },
                )?;
                Ok(session.opened(player, expires_at))
            })
            .await
    }

    /// The open session whose cookie holds `secret`, if any. Notes that it was seen (written
    /// at most once a minute, off the request's path).
    pub async fn web_session(self, secret: &str) -> Result<Option<WebSession>> {
        let hash = token_hash(secret);
        let now = self.service.now_ms();
        let row = self
            .service
            .read(move |c| Ok(rows::web_session(c, &hash, now)?))
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        if row
            .last_seen_at
            .is_none_or(|at| now.saturating_sub(at) >= SEEN_EVERY_MS)
        {
            self.note_session_seen(row.id, now);
        }
        Ok(Some(WebSession {
            id: row.id,
            player: row.player_id,
            csrf_token: row.csrf_token,
        }))
    }

    /// Signs out: the session whose cookie holds `secret` ends (nothing when there is none).
    pub async fn end_web_session(self, secret: &str) -> Result<()> {
        let hash = token_hash(secret);
        self.service
            .commit(move |c, _| Ok(rows::delete_web_session(c, &hash)?))
            .await?;
        Ok(())
    }
}

/// A new session's two secrets: the cookie's and the CSRF token.
struct SessionSecrets {
    secret: String,
    csrf_token: String,
}

impl SessionSecrets {
    fn new() -> Result<SessionSecrets> {
        Ok(SessionSecrets {
            secret: random_secret("tfl_session_")?,
            csrf_token: random_secret("")?,
        })
    }

    fn opened(self, player: PlayerId, expires_at: i64) -> NewWebSession {
        NewWebSession {
            player,
            secret: self.secret,
            csrf_token: self.csrf_token,
            expires_at,
        }
    }
}

fn minutes_ms(minutes: u64) -> i64 {
    i64::try_from(minutes.saturating_mul(60_000)).unwrap_or(i64::MAX)
}

fn days_ms(days: u64) -> i64 {
    i64::try_from(days.saturating_mul(86_400_000)).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn login_urls_put_the_token_under_the_login_path() {
        assert_eq!(
            login_url("https://tafl.example.org", "tfl_link_ab"),
            "https://tafl.example.org/login/tfl_link_ab"
        );
    }

    #[test]
    fn secrets_are_long_random_and_prefixed() {
        let a = random_secret("p_").unwrap();
        let b = random_secret("p_").unwrap();
        assert!(a.starts_with("p_") && a.len() == 66);
        assert_ne!(a, b);
    }
}
