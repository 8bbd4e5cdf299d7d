//! When a player was last on the web: every page they open, and every minute a tab of theirs
//! stays open (its live stream), tells the service. A turn notice is mailed only to a player
//! who has not been there since their turn began. Written at most once a minute per player
//! per instance, off the request's path (the write changes only a player with an address),
//! and not at all while mail is off.

use crate::domain::PlayerId;
use crate::store::rows;

use super::Mail;

/// Presence is written at most this often per player (and a tab's stream reports it so often).
pub const PRESENCE_EVERY_MS: i64 = 60_000;
/// Players remembered; past it the memory starts again (a few more writes, never unbounded).
const REMEMBERED_PLAYERS: usize = 100_000;

impl Mail<'_> {
    /// `player` is on the web now. Returns at once; the write, if one is due, runs apart.
    pub fn saw(&self, player: PlayerId) {
        if self.settings().is_none() {
            return;
        }
        let now = self.service.now_ms();
        {
            let Ok(mut written) = self.state().seen_written.lock() else {
                return;
            };
            if written
                .get(&player)
                .is_some_and(|at| now.saturating_sub(*at) < PRESENCE_EVERY_MS && *at <= now)
            {
                return;
            }
            if written.len() >= REMEMBERED_PLAYERS {
                written.clear();
            }
            written.insert(player, now);
        }
        let service = self.service.clone();
        tokio::spawn(async move {
            let written = service
                .commit(move |c, _| Ok(rows::mail_player_seen(c, player, now)?))
                .await;
            if let Err(e) = written {
                tracing::debug!(%player, "presence not written: {e}");
            }
        });
    }
}
