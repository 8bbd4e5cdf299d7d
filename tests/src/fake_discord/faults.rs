//! Failures a test scripts: the next requests to a route get these answers, in order, then
//! normal service resumes; a channel whose requests are answered late or never; a bot token
//! Discord stops accepting. They are expected answers, not problems.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::answer::Refusal;
use super::locked;
use super::recorder::RouteKind;

/// An answer Discord gives when things go wrong on its side, or when the bot goes too fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// 500 `{"code":0,"message":"500: Internal Server Error"}`
    ServerError,
    /// 429 with `retry_after` (seconds) and the rate-limit headers.
    RateLimited { retry_after: Duration },
    /// 403 50013 Missing Permissions
    Forbidden,
    /// 403 50001 Missing Access: the bot can no longer see the channel (an admin reworking
    /// permissions, say).
    MissingAccess,
    /// 404 10003 Unknown Channel
    UnknownChannel,
    /// 401 `{"code":0,"message":"401: Unauthorized"}`: the bot token is not (or no longer) valid.
    Unauthorized,
}

impl Fault {
    pub(crate) fn refusal(self) -> Refusal {
        match self {
            Fault::ServerError => Refusal::ServerError,
            Fault::RateLimited { retry_after } => Refusal::RateLimited { retry_after },
            Fault::Forbidden => Refusal::MissingPermissions,
            Fault::MissingAccess => Refusal::MissingAccess,
            Fault::UnknownChannel => Refusal::UnknownChannel,
            Fault::Unauthorized => Refusal::Unauthorized,
        }
    }
}

/// Which requests a scripted fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteMatch {
    /// Every REST request.
    Any,
    /// Messages posted to (or edited in) any channel.
    ChannelMessages,
    /// Messages posted to (or edited in) this channel.
    ChannelMessagesIn(u64),
    /// Interaction callbacks (the first answer).
    InteractionCallbacks,
    /// Interaction follow-ups (`POST /webhooks/{app}/{token}`).
    Followups,
    /// Reads, edits and deletions of interaction responses (`/webhooks/.../messages/...`).
    ResponseEdits,
    /// Application command registrations (`PUT .../commands`).
    CommandRegistration,
}

impl RouteMatch {
    pub fn matches(self, method: &str, kind: &RouteKind) -> bool {
        match self {
            RouteMatch::Any => true,
            RouteMatch::ChannelMessages => kind.channel_id().is_some(),
            RouteMatch::ChannelMessagesIn(channel) => kind.channel_id() == Some(channel),
            RouteMatch::InteractionCallbacks => {
                matches!(kind, RouteKind::InteractionCallback { .. })
            }
            RouteMatch::Followups => matches!(kind, RouteKind::Followup { .. }),
            RouteMatch::ResponseEdits => matches!(kind, RouteKind::EditResponse { .. }),
            RouteMatch::CommandRegistration => {
                *kind == RouteKind::CommandRegistration && method == "PUT"
            }
        }
    }
}

/// How the requests to one channel's routes are held before they are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Answered after this long (a busy channel, a slow network).
    Late(Duration),
    /// Never answered: the connection hangs until the bot gives up on it.
    Never,
}

/// The faults scripted so far and not yet served.
#[derive(Default)]
pub(crate) struct ScriptedFaults {
    queues: Mutex<Vec<(RouteMatch, VecDeque<Fault>)>>,
    /// Command registrations still to fail with a 500 (`usize::MAX`: all of them).
    registrations_to_fail: Mutex<usize>,
    /// Channels whose routes (messages, edits, threads, the channel itself) are held.
    holds: Mutex<HashMap<u64, Hold>>,
    /// Requests that arrived about each held channel, counted as they arrive (a held request
    /// is recorded only once answered, if ever).
    held_arrivals: Mutex<HashMap<u64, usize>>,
    /// Set once the bot token was revoked (or reset): every request authorized by it is
    /// answered 401 from then on, as Discord does.
    token_revoked: AtomicBool,
}

impl ScriptedFaults {
    pub fn hold(&self, channel: u64, hold: Option<Hold>) {
        let mut holds = locked(&self.holds);
        match hold {
            Some(hold) => holds.insert(channel, hold),
            None => holds.remove(&channel),
        };
    }

    /// How a request about `channel` is held, if it is; counts its arrival.
    pub fn hold_of(&self, channel: Option<u64>) -> Option<Hold> {
        let channel = channel?;
        let hold = locked(&self.holds).get(&channel).copied()?;
        *locked(&self.held_arrivals).entry(channel).or_default() += 1;
        Some(hold)
    }

    /// Requests that arrived about `channel` while it was held.
    pub fn held_arrivals(&self, channel: u64) -> usize {
        locked(&self.held_arrivals)
            .get(&channel)
            .copied()
            .unwrap_or_default()
    }

    pub fn revoke_token(&self) {
        self.token_revoked.store(true, Ordering::SeqCst);
    }

    pub fn token_revoked(&self) -> bool {
        self.token_revoked.load(Ordering::SeqCst)
    }

    pub fn push(&self, route: RouteMatch, faults: &[Fault]) {
        locked(&self.queues).push((route, faults.iter().copied().collect()));
    }

    pub fn fail_registrations(&self, times: usize) {
        *locked(&self.registrations_to_fail) = times;
    }

    /// The fault this request gets, if one is scripted for it (and uses it up).
    pub fn take(&self, method: &str, kind: &RouteKind) -> Option<Fault> {
        if RouteMatch::CommandRegistration.matches(method, kind) {
            let mut left = locked(&self.registrations_to_fail);
            if *left > 0 {
                if *left != usize::MAX {
                    *left -= 1;
                }
                return Some(Fault::ServerError);
            }
        }
        let mut queues = locked(&self.queues);
        let fault = queues
            .iter_mut()
            .find(|(route, faults)| !faults.is_empty() && route.matches(method, kind))
            .and_then(|(_, faults)| faults.pop_front());
        queues.retain(|(_, faults)| !faults.is_empty());
        fault
    }
}
