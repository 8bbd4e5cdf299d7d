//! Failures a test scripts: the next requests to a route get these answers, in order, then
//! normal service resumes. They are expected answers, not problems.

use std::collections::VecDeque;
use std::sync::Mutex;
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

/// The faults scripted so far and not yet served.
#[derive(Default)]
pub(crate) struct ScriptedFaults {
    queues: Mutex<Vec<(RouteMatch, VecDeque<Fault>)>>,
    /// Command registrations still to fail with a 500 (`usize::MAX`: all of them).
    registrations_to_fail: Mutex<usize>,
}

impl ScriptedFaults {
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
