//! Gateway session starts and sharding, as `GET /gateway/bot` and IDENTIFY show them:
//! the recommended shard count (set by a test), the daily session start limit (`total`,
//! `remaining`, `reset_after`, `max_concurrency`) with every IDENTIFY counted, IDENTIFY with
//! fewer shards than the bot's guilds need closed with 4011 (sharding required), and an
//! IDENTIFY past the day's limit closed with 4004 (Discord resets the token then), a problem.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::locked;

/// Discord's daily session starts for a bot in fewer than 150,000 servers.
pub const DAILY_SESSION_STARTS: u64 = 1_000;
const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// Close codes of a refused IDENTIFY.
pub const CLOSE_AUTHENTICATION_FAILED: u16 = 4004;
pub const CLOSE_INVALID_SHARD: u16 = 4010;
pub const CLOSE_SHARDING_REQUIRED: u16 = 4011;

/// Discord's window of one session start per `max_concurrency` bucket.
pub const IDENTIFY_WINDOW: Duration = Duration::from_secs(5);

struct Starts {
    recommended_shards: u64,
    /// IDENTIFY with fewer shards than this is closed with 4011.
    required_shards: u64,
    total: u64,
    max_concurrency: u64,
    /// IDENTIFYs received in the day's window, which ends at `window_ends`.
    used: u64,
    window_ends: Instant,
    /// IDENTIFYs received in all.
    identifies: u64,
    /// When each `max_concurrency` bucket last started a session.
    last_start: HashMap<u64, Instant>,
    /// IDENTIFYs answered op 9 for coming too soon in their bucket.
    too_fast: u64,
}

/// See the module documentation.
pub(crate) struct SessionStarts {
    starts: Mutex<Starts>,
}

impl Default for SessionStarts {
    fn default() -> Self {
        SessionStarts {
            starts: Mutex::new(Starts {
                recommended_shards: 1,
                required_shards: 1,
                total: DAILY_SESSION_STARTS,
                max_concurrency: 1,
                used: 0,
                window_ends: Instant::now() + DAY,
                identifies: 0,
                last_start: HashMap::new(),
                too_fast: 0,
            }),
        }
    }
}

/// Why an IDENTIFY is refused: how Discord answers, and whether the bot broke a rule doing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedIdentify {
    pub answer: Refusal,
    pub problem: Option<&'static str>,
}

/// How Discord answers a refused IDENTIFY.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The connection is closed with this code.
    Close(u16),
    /// op 9, not resumable: too soon in its `max_concurrency` bucket.
    InvalidSession,
}

impl SessionStarts {
    /// `GET /gateway/bot`'s answer.
    pub fn gateway_bot(&self, ws_url: &str) -> Value {
        let mut starts = locked(&self.starts);
        let reset_after = starts.renew(Instant::now());
        json!({
            "url": ws_url,
            "shards": starts.recommended_shards,
            "session_start_limit": {
                "total": starts.total,
                "remaining": starts.total.saturating_sub(starts.used),
                "reset_after": u64::try_from(reset_after.as_millis()).unwrap_or(u64::MAX),
                "max_concurrency": starts.max_concurrency,
            },
        })
    }

    /// Counts an IDENTIFY for shard `[shard, count]` (`None`: no shard array), and says why it
    /// is refused, if it is.
    pub fn identify(&self, shard: Option<[u64; 2]>) -> Result<[u64; 2], RefusedIdentify> {
        let mut starts = locked(&self.starts);
        starts.renew(Instant::now());
        starts.identifies += 1;
        if starts.used >= starts.total {
            return Err(RefusedIdentify {
                answer: Refusal::Close(CLOSE_AUTHENTICATION_FAILED),
                problem: Some(
                    "the bot identified past its daily session start limit (Discord resets \
                     the bot's token then)",
                ),
            });
        }
        starts.used += 1;
        let [shard, count] = shard.unwrap_or([0, 1]);
        if count == 0 || shard >= count {
            return Err(RefusedIdentify {
                answer: Refusal::Close(CLOSE_INVALID_SHARD),
                problem: Some("the bot identified with an impossible shard"),
            });
        }
        if count < starts.required_shards {
            // The test set it up: the bot is to learn from the close code.
            return Err(RefusedIdentify {
                answer: Refusal::Close(CLOSE_SHARDING_REQUIRED),
                problem: None,
            });
        }
        // Only session starts fill a bucket. Too soon is the bot's fault with one instance, and
        // a race Discord settles with op 9 with several: counted, not a problem.
        let bucket = shard % starts.max_concurrency.max(1);
        let now = Instant::now();
        if starts
            .last_start
            .get(&bucket)
            .is_some_and(|last| now.saturating_duration_since(*last) < IDENTIFY_WINDOW)
        {
            starts.too_fast += 1;
            return Err(RefusedIdentify {
                answer: Refusal::InvalidSession,
                problem: None,
            });
        }
        Ok([shard, count])
    }

    /// A session started for `shard`: its bucket is full for the next 5 s.
    pub fn started(&self, shard: u64) {
        let mut starts = locked(&self.starts);
        let bucket = shard % starts.max_concurrency.max(1);
        starts.last_start.insert(bucket, Instant::now());
    }

    fn set(&self, change: impl FnOnce(&mut Starts)) {
        change(&mut locked(&self.starts));
    }

    fn identifies(&self) -> u64 {
        locked(&self.starts).identifies
    }

    fn too_fast(&self) -> u64 {
        locked(&self.starts).too_fast
    }
}

impl Starts {
    /// Starts a new day's window once the last one ended; answers how long the window has left.
    fn renew(&mut self, now: Instant) -> Duration {
        if now >= self.window_ends {
            self.window_ends = now + DAY;
            self.used = 0;
        }
        self.window_ends.saturating_duration_since(now)
    }
}

impl super::FakeDiscord {
    /// The shard count `GET /gateway/bot` recommends (1 by default).
    pub fn recommend_shards(&self, count: u64) {
        self.state
            .session_starts
            .set(|s| s.recommended_shards = count.max(1));
    }

    /// IDENTIFY with fewer shards than `count` is closed with 4011 (sharding required), as
    /// Discord does for a bot in too many servers for its shards.
    pub fn require_shards(&self, count: u64) {
        self.state
            .session_starts
            .set(|s| s.required_shards = count.max(1));
    }

    /// The daily session start limit (`total`, of which none used yet) and `max_concurrency`.
    pub fn set_session_start_limit(&self, total: u64, max_concurrency: u64) {
        self.state.session_starts.set(|s| {
            s.total = total;
            s.used = 0;
            s.max_concurrency = max_concurrency.max(1);
        });
    }

    /// Uses up the day's session starts: `GET /gateway/bot` answers `remaining: 0` until the
    /// window resets `reset_after` from now (then every start is available again).
    pub fn use_up_session_starts(&self, reset_after: Duration) {
        self.state.session_starts.set(|s| {
            s.used = s.total;
            s.window_ends = Instant::now() + reset_after;
        });
    }

    /// Every IDENTIFY the gateway received, accepted or refused.
    pub fn identifies(&self) -> u64 {
        self.state.session_starts.identifies()
    }

    /// IDENTIFYs answered op 9 because their `max_concurrency` bucket had started a session
    /// less than 5 s before.
    pub fn identifies_too_fast(&self) -> u64 {
        self.state.session_starts.too_fast()
    }

    /// The heartbeat interval HELLO asks for from now on (Discord's is about 41 s). A client
    /// notices a connection closed under it at its next heartbeat, so a short one makes a test
    /// of refused IDENTIFYs quick.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        let ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
        self.state
            .gateway
            .heartbeat_interval_ms
            .store(ms.max(1), std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_identify_counts_against_the_days_limit() {
        let starts = SessionStarts::default();
        starts.set(|s| s.total = 2);
        assert!(starts.identify(None).is_ok());
        let remaining =
            |s: &SessionStarts| s.gateway_bot("ws://x")["session_start_limit"]["remaining"].clone();
        assert_eq!(remaining(&starts), 1);
        starts.set(|s| s.required_shards = 2);
        let code = |result: Result<[u64; 2], RefusedIdentify>| result.err().map(|r| r.answer);
        assert_eq!(
            code(starts.identify(Some([0, 1]))),
            Some(Refusal::Close(CLOSE_SHARDING_REQUIRED))
        );
        assert_eq!(remaining(&starts), 0);
        assert_eq!(
            code(starts.identify(Some([0, 2]))),
            Some(Refusal::Close(CLOSE_AUTHENTICATION_FAILED))
        );
        assert_eq!(starts.identifies(), 3);
    }

    #[test]
    fn a_shard_outside_its_count_is_invalid() {
        let starts = SessionStarts::default();
        let refused = starts.identify(Some([2, 2])).err().map(|r| r.answer);
        assert_eq!(refused, Some(Refusal::Close(CLOSE_INVALID_SHARD)));
    }

    #[test]
    fn a_bucket_starts_one_session_per_window() {
        let starts = SessionStarts::default();
        starts.set(|s| s.max_concurrency = 2);
        assert!(starts.identify(Some([0, 4])).is_ok());
        starts.started(0);
        assert!(starts.identify(Some([1, 4])).is_ok(), "another bucket");
        starts.started(1);
        let refused = starts.identify(Some([2, 4])).err().map(|r| r.answer);
        assert_eq!(
            refused,
            Some(Refusal::InvalidSession),
            "shard 2 shares 0's bucket"
        );
        assert_eq!(starts.too_fast(), 1);
    }
}
