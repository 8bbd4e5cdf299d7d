//! Discord's daily gateway session starts (`session_start_limit` of `GET /gateway/bot`): an
//! IDENTIFY past them is refused with 4004 and Discord resets the bot's token, so a front end
//! that has too few left for its shards waits for the day's window to reset instead.

use std::time::Duration;

use serenity::all::SessionStartLimit;
use tokio::sync::watch;

use crate::health::{DiscordState, DiscordStatus};

/// The longest wait Discord's window can ask for (a day), and a minute's margin: a
/// `reset_after` beyond it is not believed.
const LONGEST_RESET: Duration = Duration::from_secs(24 * 60 * 60 + 60);

/// Why the gateway must wait before identifying `shards` shards, and for how long; `None`
/// while Discord allows that many starts.
pub(super) fn exhausted(limit: &SessionStartLimit, shards: usize) -> Option<(String, Duration)> {
    let needed = u64::try_from(shards).unwrap_or(u64::MAX);
    if limit.remaining >= needed {
        return None;
    }
    let wait = Duration::from_millis(limit.reset_after).min(LONGEST_RESET);
    let reason = format!(
        "Discord allows {} more gateway session starts today (of {}) and this instance needs \
         {needed}: waiting {}s for the limit to reset instead of identifying (past it Discord \
         resets the bot's token)",
        limit.remaining,
        limit.total,
        wait.as_secs(),
    );
    Some((reason, wait))
}

/// Logs `reason` once, shows it in `/health`, and waits `wait` (then the front end is
/// connecting again); `false` when told to stop meanwhile.
pub(super) async fn wait_for_reset(
    reason: String,
    wait: Duration,
    status: &DiscordStatus,
    mut stop: watch::Receiver<bool>,
) -> bool {
    tracing::error!("{reason}");
    status.set(DiscordState::SessionStartsExhausted { error: reason });
    tokio::select! {
        () = tokio::time::sleep(wait) => {
            status.set(DiscordState::Connecting);
            true
        }
        _ = stop.wait_for(|stop| *stop) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(remaining: u64, reset_after: u64) -> SessionStartLimit {
        serde_json::from_value(serde_json::json!({
            "total": 1000,
            "remaining": remaining,
            "reset_after": reset_after,
            "max_concurrency": 1,
        }))
        .unwrap_or_else(|e| panic!("a session start limit: {e}"))
    }

    #[test]
    fn too_few_starts_for_the_shards_wait_for_the_reset_and_enough_do_not() {
        assert_eq!(exhausted(&limit(2, 5_000), 2), None);
        let (reason, wait) = exhausted(&limit(0, 5_000), 1).unwrap_or_default();
        assert_eq!(wait, Duration::from_secs(5));
        assert!(reason.contains("0 more gateway session starts"), "{reason}");
        assert!(exhausted(&limit(1, 5_000), 2).is_some());
        let (_, capped) = exhausted(&limit(0, u64::MAX), 1).unwrap_or_default();
        assert_eq!(capped, LONGEST_RESET);
    }
}
