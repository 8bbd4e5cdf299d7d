//! A player's browser sessions: the list (how each was opened, when it was last seen, its
//! browser) and ending them, one or every one but the session asking. Opening them is
//! `sign_in.rs`'s.

use serde::Serialize;
use utoipa::ToSchema;

use crate::accounts::players::token_hash;
use crate::domain::{PlayerId, SessionOpening, WebSessionId};
use crate::store::rows::{self, ListedWebSessionRow};
use crate::{Missing, Result, ServiceError};

use super::Credentials;

/// A session's `last_seen_at` is written at most this often.
pub(super) const SEEN_EVERY_MS: i64 = 60_000;
/// The characters of a browser's `User-Agent` kept with its session: enough to tell one
/// browser from another, not a place to store a client's essay.
const KEPT_USER_AGENT_CHARS: usize = 200;

/// A browser session as its player sees it: never its cookie or CSRF token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct WebSessionView {
    pub id: WebSessionId,
    /// When it was opened (ms since the epoch).
    pub created_at: i64,
    /// When a page was last opened with it (ms since the epoch), within a minute or so; null:
    /// not since it was opened.
    pub last_seen_at: Option<i64>,
    /// When it ends by itself (ms since the epoch).
    pub expires_at: i64,
    pub opened_by: SessionOpening,
    /// The browser's `User-Agent` as it signed in (its first 200 characters), if it sent one.
    pub user_agent: Option<String>,
    /// The session of the request that asked: on the web page, the browser looking at it.
    /// Never true over the API, whose requests carry a token, not a session.
    pub current: bool,
}

impl From<ListedWebSessionRow> for WebSessionView {
    fn from(r: ListedWebSessionRow) -> Self {
        WebSessionView {
            id: r.id,
            created_at: r.created_at,
            last_seen_at: r.last_seen_at,
            expires_at: r.expires_at,
            opened_by: r.opened_by,
            user_agent: r.user_agent,
            current: r.current,
        }
    }
}

/// What is kept of a browser's `User-Agent`: printable, at most 200 characters; nothing when
/// nothing printable is left.
pub(super) fn kept_user_agent(user_agent: Option<&str>) -> Option<String> {
    let kept: String = user_agent?
        .chars()
        .filter(|c| !c.is_control())
        .take(KEPT_USER_AGENT_CHARS)
        .collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_owned())
}

impl Credentials<'_> {
    /// `player`'s open sessions, newest first; `current_secret` (a cookie's) marks its own.
    pub async fn web_sessions(
        self,
        player: PlayerId,
        current_secret: Option<&str>,
    ) -> Result<Vec<WebSessionView>> {
        let current = current_secret.map(token_hash);
        let now = self.service.now_ms();
        self.service
            .read(move |c| {
                Ok(
                    rows::web_sessions_of(c, player, current.as_ref().map(|h| h.as_slice()), now)?
                        .into_iter()
                        .map(WebSessionView::from)
                        .collect(),
                )
            })
            .await
    }

    /// Ends `player`'s session `id`: its next request is signed out.
    #[tracing::instrument(level = "debug", skip(self))]
    pub async fn end_web_session_of(self, player: PlayerId, id: WebSessionId) -> Result<()> {
        self.service
            .commit(move |c, _| {
                if rows::delete_web_session_of(c, player, id)? {
                    Ok(())
                } else {
                    Err(ServiceError::NotFound(Missing::WebSession(id)))
                }
            })
            .await
    }

    /// Ends every session of `player` except the one whose cookie holds `keep_secret` (every
    /// one when none); how many ended.
    #[tracing::instrument(level = "debug", skip_all, fields(%player))]
    pub async fn end_web_sessions_of(
        self,
        player: PlayerId,
        keep_secret: Option<&str>,
    ) -> Result<usize> {
        let keep = keep_secret.map(token_hash);
        self.service
            .commit(move |c, _| {
                Ok(rows::delete_web_sessions_of(
                    c,
                    player,
                    keep.as_ref().map(|h| h.as_slice()),
                )?)
            })
            .await
    }

    /// Writes session `id`'s `last_seen_at`, off the request's path: a page is not slower for
    /// it, and a failure only leaves the time older.
    pub(super) fn note_session_seen(self, id: WebSessionId, now: i64) {
        let store = self.service.inner.store.clone();
        tokio::spawn(async move {
            let touched = store
                .write(move |c| Ok::<_, ServiceError>(rows::touch_web_session(c, id, now)?))
                .await;
            if let Err(e) = touched {
                tracing::debug!(session = %id, "last sight not recorded: {e}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_agent_is_kept_printable_and_short() {
        assert_eq!(kept_user_agent(None), None);
        assert_eq!(kept_user_agent(Some(" \u{0} ")), None);
        assert_eq!(
            kept_user_agent(Some("Mozilla/5.0\u{0}\n(X11)")).as_deref(),
            Some("Mozilla/5.0(X11)")
        );
        let long = "a".repeat(500);
        assert_eq!(kept_user_agent(Some(&long)).map(|k| k.len()), Some(200));
    }
}
