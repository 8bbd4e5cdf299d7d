//! Discord's rate limits, as its documentation ("Rate Limits") describes them:
//!
//! - **Per-route buckets**: a bucket per route (method and path with the ids left out) and
//!   major parameter (the channel, the guild, or the webhook or interaction with its token),
//!   with a limit of requests per window that starts at the bucket's first request. Every
//!   answer carries `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After`, `-Bucket`
//!   and `-Scope`. A request past its bucket is answered 429 (`retry_after`, `global: false`)
//!   and is a *problem* of the bot: one that honours the headers never sends it.
//! - **The global limit**: 50 requests a second per bot token, interaction answers
//!   (callbacks, follow-ups, response edits) apart. Past it: 429 with `global: true`,
//!   `X-RateLimit-Global` and scope `global`, also a problem.
//! - **Invalid requests**: answers 401, 403 and 429 (but 429s of scope `shared`, which are
//!   nobody's fault) are counted over 10 minutes; past the limit (10,000, settable by a test)
//!   every request is refused, as Discord's ban of the address does, and that is a problem.
//!
//! Requests are counted as they arrive; injected latency delays their answers only.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use serde_json::json;

use super::answer::Answer;
use super::locked;
use super::recorder::RouteKind;

/// Discord's global limit: requests per second per bot token.
pub const GLOBAL_PER_SECOND: u32 = 50;
/// Discord's window for counting invalid requests, and how many it bans for.
pub const INVALID_WINDOW: Duration = Duration::from_secs(600);
pub const INVALID_LIMIT: usize = 10_000;

/// The routes that share one set of bucket limits (each route still has buckets of its own
/// per major parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RouteGroup {
    /// `POST /interactions/{id}/{token}/callback`
    InteractionCallbacks,
    /// Follow-ups and response edits under `/webhooks/{application}/{token}`.
    InteractionWebhooks,
    /// Messages posted to or edited in a channel, a thread or a DM channel.
    ChannelMessages,
    /// Threads created, channels and threads changed.
    Threads,
    /// `POST /users/@me/channels`: a DM channel opened.
    DirectMessages,
    /// Application command registration.
    Commands,
    /// Everything else (gateway URL, the bot's user, the application).
    Other,
}

impl RouteGroup {
    pub const ALL: [RouteGroup; 7] = [
        RouteGroup::InteractionCallbacks,
        RouteGroup::InteractionWebhooks,
        RouteGroup::ChannelMessages,
        RouteGroup::Threads,
        RouteGroup::DirectMessages,
        RouteGroup::Commands,
        RouteGroup::Other,
    ];

    pub fn of(kind: &RouteKind) -> RouteGroup {
        match kind {
            RouteKind::InteractionCallback { .. } => RouteGroup::InteractionCallbacks,
            RouteKind::Followup { .. } | RouteKind::EditResponse { .. } => {
                RouteGroup::InteractionWebhooks
            }
            RouteKind::ChannelMessage { .. } | RouteKind::ChannelMessageEdit { .. } => {
                RouteGroup::ChannelMessages
            }
            RouteKind::ThreadCreate { .. } | RouteKind::ChannelEdit { .. } => RouteGroup::Threads,
            RouteKind::DmOpen => RouteGroup::DirectMessages,
            RouteKind::CommandRegistration => RouteGroup::Commands,
            RouteKind::Other | RouteKind::Unknown => RouteGroup::Other,
        }
    }

    /// Interaction answers are not under the bot's global limit.
    fn is_global(self) -> bool {
        !matches!(
            self,
            RouteGroup::InteractionCallbacks | RouteGroup::InteractionWebhooks
        )
    }
}

/// How many requests a bucket takes per window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BucketLimit {
    pub requests: u32,
    pub per: Duration,
}

impl BucketLimit {
    /// The limits Discord's headers show for the routes the bot uses: 5 per 5 s for channels
    /// and most routes, 5 per 2 s for an interaction's webhook.
    pub fn discord_default(group: RouteGroup) -> BucketLimit {
        let per = match group {
            RouteGroup::InteractionWebhooks => Duration::from_secs(2),
            _ => Duration::from_secs(5),
        };
        BucketLimit { requests: 5, per }
    }
}

/// A fixed window: it starts with its first request and ends `per` later.
#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    used: u32,
}

impl Window {
    /// Counts a request at `now` in a window of `per`; answers the window's state after it,
    /// or `None` when the window was already full (the request is not counted).
    fn take(slot: &mut Option<Window>, now: Instant, per: Duration, limit: u32) -> Option<Window> {
        let window = match slot {
            Some(window) if now.saturating_duration_since(window.started) < per => window,
            _ => slot.insert(Window {
                started: now,
                used: 0,
            }),
        };
        if window.used >= limit {
            return None;
        }
        window.used += 1;
        Some(*window)
    }

    fn reset_after(&self, now: Instant, per: Duration) -> Duration {
        (self.started + per).saturating_duration_since(now)
    }
}

/// Which bucket a request is in: its route without ids, and its major parameter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BucketKey {
    /// e.g. `POST /channels/{channel_id}/messages`
    pub route: String,
    /// e.g. `channel 1200...`; empty for routes without one.
    pub major: String,
}

impl BucketKey {
    /// Reads the key off the method and the path after `/api/v10`, split at `/`.
    pub fn of(method: &str, segments: &[&str]) -> BucketKey {
        let mut route = vec![method.to_owned(), String::new()];
        let mut major = String::new();
        let mut previous = "";
        for (i, segment) in segments.iter().enumerate() {
            let numeric = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
            let shown = match previous {
                "channels" | "guilds" if numeric && major.is_empty() => {
                    major = format!("{} {segment}", previous.trim_end_matches('s'));
                    format!("{{{}_id}}", previous.trim_end_matches('s'))
                }
                "webhooks" | "interactions" if numeric => {
                    let token = segments.get(i + 1).copied().unwrap_or_default();
                    if major.is_empty() {
                        major = format!("{} {segment}/{token}", previous.trim_end_matches('s'));
                    }
                    "{id}".to_owned()
                }
                _ if i >= 2 && matches!(segments[i - 2], "webhooks" | "interactions") => {
                    "{token}".to_owned()
                }
                _ if numeric => "{id}".to_owned(),
                _ => (*segment).to_owned(),
            };
            route.push(shown);
            previous = segment;
        }
        let route = format!("{} {}", route[0], route[1..].join("/"));
        BucketKey { route, major }
    }

    /// The bucket's hash for `X-RateLimit-Bucket`: one per route, as Discord's.
    fn hash(&self) -> String {
        // FNV-1a: stable across runs, enough to tell routes apart.
        let hash = self
            .route
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        format!("{hash:016x}")
    }
}

/// Why a request was refused before it was served.
#[derive(Debug, Clone, PartialEq)]
pub enum Overrun {
    /// Past its bucket: a problem of the bot.
    Bucket {
        key: BucketKey,
        limit: BucketLimit,
        retry_after: Duration,
    },
    /// Past the global limit: a problem of the bot.
    Global {
        per_second: u32,
        retry_after: Duration,
    },
    /// The address is banned for its invalid requests.
    Banned { retry_after: Duration },
}

impl Overrun {
    pub fn answer(&self) -> Answer {
        match self {
            Overrun::Bucket {
                key,
                limit,
                retry_after,
            } => {
                let mut answer = too_many("You are being rate limited.", *retry_after, false);
                answer
                    .headers
                    .extend(bucket_headers(key, *limit, 0, *retry_after, "user"));
                answer
            }
            Overrun::Global { retry_after, .. } => {
                let mut answer = too_many("You are being rate limited.", *retry_after, true);
                answer
                    .headers
                    .push(("x-ratelimit-global", "true".to_owned()));
                answer
                    .headers
                    .push(("x-ratelimit-scope", "global".to_owned()));
                answer
            }
            Overrun::Banned { retry_after } => too_many(
                "You are being blocked from accessing our API temporarily due to exceeding our \
                 rate limits frequently.",
                *retry_after,
                true,
            ),
        }
    }

    /// What the bot did wrong, for the problem list.
    pub fn problem(&self, method: &str, path: &str) -> String {
        match self {
            Overrun::Bucket {
                key,
                limit,
                retry_after,
            } => format!(
                "{method} {path} went past its rate-limit bucket ({} for {}: {} per {:?}, \
                 reset in {retry_after:?}): a bot that honours X-RateLimit-* never sends it",
                key.route, key.major, limit.requests, limit.per
            ),
            Overrun::Global { per_second, .. } => format!(
                "{method} {path} went past the global rate limit ({per_second} requests a \
                 second per bot)"
            ),
            Overrun::Banned { .. } => format!(
                "{method} {path} was sent while Discord bans the bot's address for its invalid \
                 requests (401, 403, 429)"
            ),
        }
    }
}

/// A 429 with Discord's body and `Retry-After`.
fn too_many(message: &str, retry_after: Duration, global: bool) -> Answer {
    let seconds = retry_after.as_secs_f64();
    Answer {
        status: StatusCode::TOO_MANY_REQUESTS,
        body: Some(json!({ "message": message, "retry_after": seconds, "global": global })),
        headers: vec![("retry-after", format!("{}", seconds.ceil()))],
    }
}

/// Discord's headers for a bucket, `remaining` after this request.
fn bucket_headers(
    key: &BucketKey,
    limit: BucketLimit,
    remaining: u32,
    reset_after: Duration,
    scope: &str,
) -> Vec<(&'static str, String)> {
    let reset = SystemTime::now()
        .checked_add(reset_after)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .unwrap_or_default()
        .as_secs_f64();
    vec![
        ("x-ratelimit-limit", limit.requests.to_string()),
        ("x-ratelimit-remaining", remaining.to_string()),
        ("x-ratelimit-reset", format!("{reset:.3}")),
        (
            "x-ratelimit-reset-after",
            format!("{:.3}", reset_after.as_secs_f64()),
        ),
        ("x-ratelimit-bucket", key.hash()),
        ("x-ratelimit-scope", scope.to_owned()),
    ]
}

/// A request let through: the headers its answer carries.
#[derive(Debug, Clone)]
pub struct Admitted {
    pub headers: Vec<(&'static str, String)>,
}

struct Limits {
    per_group: HashMap<RouteGroup, BucketLimit>,
    buckets: HashMap<BucketKey, Option<Window>>,
    global: Option<Window>,
    global_per_second: u32,
    /// When each invalid request of the last [`INVALID_WINDOW`] was answered, oldest first.
    invalid: VecDeque<Instant>,
    invalid_limit: usize,
    /// Invalid requests answered in all (never forgotten).
    invalid_total: u64,
    ban_reported: bool,
}

/// The fake's rate-limit state; see the module documentation.
pub(crate) struct RateLimits {
    limits: Mutex<Limits>,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            limits: Mutex::new(Limits {
                per_group: HashMap::new(),
                buckets: HashMap::new(),
                global: None,
                global_per_second: GLOBAL_PER_SECOND,
                invalid: VecDeque::new(),
                invalid_limit: INVALID_LIMIT,
                invalid_total: 0,
                ban_reported: false,
            }),
        }
    }
}

impl RateLimits {
    pub fn set_limit(&self, group: RouteGroup, limit: BucketLimit) {
        locked(&self.limits).per_group.insert(group, limit);
    }

    /// A new global limit, counted from the next request on.
    pub fn set_global_limit(&self, per_second: u32) {
        let mut limits = locked(&self.limits);
        limits.global_per_second = per_second.max(1);
        limits.global = None;
    }

    /// Lifts every bucket and the global limit far beyond any test's load.
    pub fn lift(&self) {
        let mut limits = locked(&self.limits);
        limits.global_per_second = u32::MAX;
        for group in RouteGroup::ALL {
            limits.per_group.insert(
                group,
                BucketLimit {
                    requests: u32::MAX,
                    per: Duration::from_secs(1),
                },
            );
        }
    }

    pub fn set_invalid_limit(&self, limit: usize) {
        locked(&self.limits).invalid_limit = limit;
    }

    /// Invalid requests in the last 10 minutes, and in all.
    pub fn invalid_requests(&self) -> (usize, u64) {
        let mut limits = locked(&self.limits);
        forget_before(&mut limits.invalid, Instant::now());
        (limits.invalid.len(), limits.invalid_total)
    }

    /// Counts a request as it arrives: its headers, or why it is refused (and whether that is
    /// the first refusal of a ban, which is reported once).
    pub fn admit(
        &self,
        method: &str,
        segments: &[&str],
        kind: &RouteKind,
    ) -> Result<Admitted, (Overrun, bool)> {
        let now = Instant::now();
        let mut limits = locked(&self.limits);
        forget_before(&mut limits.invalid, now);
        if limits.invalid.len() > limits.invalid_limit {
            let first = !limits.ban_reported;
            limits.ban_reported = true;
            let retry_after = limits
                .invalid
                .front()
                .map(|oldest| (*oldest + INVALID_WINDOW).saturating_duration_since(now))
                .unwrap_or_default();
            return Err((Overrun::Banned { retry_after }, first));
        }
        let group = RouteGroup::of(kind);
        if group.is_global() {
            let second = Duration::from_secs(1);
            let per_second = limits.global_per_second;
            if Window::take(&mut limits.global, now, second, per_second).is_none() {
                let retry_after = limits
                    .global
                    .map(|w| w.reset_after(now, second))
                    .unwrap_or_default();
                return Err((
                    Overrun::Global {
                        per_second,
                        retry_after,
                    },
                    true,
                ));
            }
        }
        let limit = limits
            .per_group
            .get(&group)
            .copied()
            .unwrap_or_else(|| BucketLimit::discord_default(group));
        let key = BucketKey::of(method, segments);
        let slot = limits.buckets.entry(key.clone()).or_default();
        match Window::take(slot, now, limit.per, limit.requests) {
            Some(window) => Ok(Admitted {
                headers: bucket_headers(
                    &key,
                    limit,
                    limit.requests.saturating_sub(window.used),
                    window.reset_after(now, limit.per),
                    "user",
                ),
            }),
            None => {
                let retry_after = slot
                    .map(|w| w.reset_after(now, limit.per))
                    .unwrap_or_default();
                Err((
                    Overrun::Bucket {
                        key,
                        limit,
                        retry_after,
                    },
                    true,
                ))
            }
        }
    }

    /// Counts an answer that Discord counts as an invalid request.
    pub fn note_answer(&self, answer: &Answer) {
        let status = answer.status.as_u16();
        let shared = answer
            .headers
            .iter()
            .any(|(name, value)| *name == "x-ratelimit-scope" && value == "shared");
        if !matches!(status, 401 | 403 | 429) || (status == 429 && shared) {
            return;
        }
        let mut limits = locked(&self.limits);
        limits.invalid.push_back(Instant::now());
        limits.invalid_total += 1;
    }
}

impl super::FakeDiscord {
    /// Sets the bucket limit of a group of routes (Discord's defaults otherwise, see
    /// [`BucketLimit::discord_default`]); buckets already open keep their window.
    pub fn set_bucket_limit(&self, group: RouteGroup, limit: BucketLimit) {
        self.state.rate_limits.set_limit(group, limit);
    }

    /// Discord's global limit for this bot (50 requests a second unless set), counted afresh
    /// from the next request.
    pub fn set_global_limit(&self, per_second: u32) {
        self.state.rate_limits.set_global_limit(per_second);
    }

    /// No bucket or global limit a test could reach: for a raw client that checks other rules
    /// and does not read the rate-limit headers.
    pub fn lift_rate_limits(&self) {
        self.state.rate_limits.lift();
    }

    /// Invalid requests (401, 403, 429) past which, within 10 minutes, every request is
    /// refused as by Discord's ban (10,000 on Discord).
    pub fn set_invalid_request_limit(&self, limit: usize) {
        self.state.rate_limits.set_invalid_limit(limit);
    }

    /// Invalid requests (401, 403, 429 but of scope `shared`) answered in the last 10 minutes.
    pub fn invalid_requests(&self) -> usize {
        self.state.rate_limits.invalid_requests().0
    }

    /// Invalid requests answered since the fake started (a load run may outlast the window).
    pub fn invalid_requests_in_all(&self) -> u64 {
        self.state.rate_limits.invalid_requests().1
    }
}

fn forget_before(invalid: &mut VecDeque<Instant>, now: Instant) {
    while invalid
        .front()
        .is_some_and(|at| now.saturating_duration_since(*at) >= INVALID_WINDOW)
    {
        invalid.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_per_route_and_major_parameter() {
        let post = BucketKey::of("POST", &["channels", "12", "messages"]);
        assert_eq!(post.route, "POST /channels/{channel_id}/messages");
        assert_eq!(post.major, "channel 12");
        let edit = BucketKey::of("PATCH", &["channels", "12", "messages", "99"]);
        assert_eq!(edit.route, "PATCH /channels/{channel_id}/messages/{id}");
        assert_eq!(edit.major, "channel 12");
        let followup = BucketKey::of("POST", &["webhooks", "7", "tok"]);
        assert_eq!(followup.route, "POST /webhooks/{id}/{token}");
        assert_eq!(followup.major, "webhook 7/tok");
        let callback = BucketKey::of("POST", &["interactions", "8", "tok", "callback"]);
        assert_eq!(callback.route, "POST /interactions/{id}/{token}/callback");
        assert_eq!(callback.major, "interaction 8/tok");
        let me = BucketKey::of("GET", &["users", "@me"]);
        assert_eq!(
            (me.route.as_str(), me.major.as_str()),
            ("GET /users/@me", "")
        );
    }

    #[test]
    fn a_window_takes_its_limit_then_refuses_until_it_ends() {
        let mut slot = None;
        let start = Instant::now();
        let per = Duration::from_secs(5);
        for used in 1..=5 {
            assert_eq!(
                Window::take(&mut slot, start, per, 5).map(|w| w.used),
                Some(used)
            );
        }
        assert!(Window::take(&mut slot, start + Duration::from_secs(4), per, 5).is_none());
        let next = Window::take(&mut slot, start + per, per, 5);
        assert_eq!(next.map(|w| w.used), Some(1), "a new window");
    }
}
