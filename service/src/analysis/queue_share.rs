//! How much of the analysis queue one asker may hold. The queue is server-wide and bounded
//! (`games.analysis_max_queued`); without shares, accounts made for the purpose (forty fresh
//! ones filled it in seconds) could hold all of it and everyone else would be refused. So:
//!
//! - each player holds at most `analysis_max_queued_per_player` waiting analyses;
//! - a new account (younger than `analysis_new_account_hours`, or without a finished game)
//!   at most `analysis_max_queued_new_account`: making accounts buys little;
//! - the accounts asking from one client network (an address; an IPv6 client's /64) at most
//!   `analysis_max_queued_per_address` together: one address's accounts cannot fill the
//!   queue, and others are still served.
//!
//! Each is a 429 with `Retry-After`, in words that say which share is full; a full queue is
//! still a 503. Counted in the database's pending analyses, so every instance on a shared
//! database counts the same.

use crate::client_addr::ClientNetwork;
use crate::config::GamesConfig;
use crate::domain::PlayerId;
use crate::store::Conn;
use crate::store::rows::{self, AnalysisRow};

use crate::{CAP_RETRY_AFTER_SECS, Result, ServiceError};

/// Who asks for a new analysis: the account, and the client network it asks from (`None`
/// when the front end has no address: Discord, the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asker {
    pub player: PlayerId,
    pub from: Option<ClientNetwork>,
}

/// An asker without a client address: Discord, the command line, the service's own callers.
impl From<PlayerId> for Asker {
    fn from(player: PlayerId) -> Asker {
        Asker { player, from: None }
    }
}

/// The shares of the queue, from the configuration.
#[derive(Debug, Clone, Copy)]
pub(super) struct QueueShares {
    max_queued: usize,
    per_player: usize,
    new_account: usize,
    new_account_ms: i64,
    per_address: usize,
}

impl QueueShares {
    pub(super) fn of(config: &GamesConfig) -> QueueShares {
        let count = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
        QueueShares {
            max_queued: count(config.analysis_max_queued),
            per_player: count(config.analysis_max_queued_per_player),
            new_account: count(config.analysis_max_queued_new_account),
            new_account_ms: i64::try_from(config.analysis_new_account_hours)
                .unwrap_or(i64::MAX)
                .saturating_mul(3_600_000),
            per_address: count(config.analysis_max_queued_per_address),
        }
    }

    /// Refuses a new analysis for `asker` when it would take more than a share of the queue
    /// `pending` is (every analysis not done yet); `now` on the service clock.
    pub(super) fn check(
        &self,
        c: &Conn<'_>,
        pending: &[AnalysisRow],
        asker: Asker,
        now: i64,
    ) -> Result<()> {
        let waiting = pending.len();
        if waiting >= self.max_queued {
            return Err(ServiceError::Unavailable(format!(
                "{waiting} analyses are waiting, the most the queue holds; ask again later"
            )));
        }
        let mine = pending
            .iter()
            .filter(|a| a.requested_by == Some(asker.player))
            .count();
        if mine >= self.per_player {
            return Err(limited(format!(
                "you already have {mine} analyses waiting; ask for another once one is done"
            )));
        }
        // Looked up only when it matters: most askers have nothing waiting.
        if mine >= self.new_account && self.is_new(c, asker.player, now)? {
            let hours = self.new_account_ms / 3_600_000;
            let new_until = if hours == 0 {
                "until it has finished a game".to_owned()
            } else {
                format!("for {hours} hours and until it has finished a game")
            };
            let analyses = if mine == 1 { "analysis" } else { "analyses" };
            return Err(limited(format!(
                "you already have {mine} {analyses} waiting, the most a new account may have \
                 (an account is new {new_until}); ask for another once one is done"
            )));
        }
        if let Some(from) = asker.from {
            let theirs = pending
                .iter()
                .filter(|a| a.requested_from == Some(from))
                .count();
            if theirs >= self.per_address {
                return Err(limited(format!(
                    "{theirs} analyses asked from your address are waiting, the most one \
                     address may have; ask again once one is done"
                )));
            }
        }
        Ok(())
    }

    /// Whether `player`'s account is new: younger than the configured age, or without a
    /// finished game.
    fn is_new(&self, c: &Conn<'_>, player: PlayerId, now: i64) -> Result<bool> {
        let young = rows::player(c, player)?
            .is_none_or(|p| now.saturating_sub(p.created_at) < self.new_account_ms);
        Ok(young || !rows::has_finished_game(c, player)?)
    }
}

fn limited(message: String) -> ServiceError {
    ServiceError::Limited {
        message,
        retry_after_secs: CAP_RETRY_AFTER_SECS,
    }
}
