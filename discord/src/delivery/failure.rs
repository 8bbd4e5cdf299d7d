//! What Discord's refusal of a post means for the post, its channel and its game: try again
//! soon, try again over a longer period, move the game, turn a player's direct messages off,
//! give up, or stop everything.

use std::time::Duration;

use serenity::http::HttpError;

use super::Stopped;
use crate::BotError;

/// Unknown Channel: the channel or thread was deleted.
pub const UNKNOWN_CHANNEL: isize = 10003;
/// Missing Access: the bot can no longer see the channel.
pub const MISSING_ACCESS: isize = 50001;
/// Cannot send messages to this user: their direct messages are closed to the bot.
pub const CANNOT_MESSAGE_USER: isize = 50007;
/// Missing Permissions: the bot may see the channel but not do this there.
pub const MISSING_PERMISSIONS: isize = 50013;
/// Thread is archived (and a message cannot reopen it: it is locked).
pub const THREAD_ARCHIVED: isize = 50083;
/// Invalid Webhook Token: an interaction's token expired (not the bot's token).
const INVALID_WEBHOOK_TOKEN: isize = 50027;

/// Why a post did not go out, as far as what happens next is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Discord is down, rate-limited us, did not answer in time, or the network failed: try
    /// again later.
    Passing,
    /// 403 Missing Access (50001) or Missing Permissions (50013): often an admin reworking
    /// permissions, so tried again with back-off over `discord.refused_access_retry_secs`
    /// before the game leaves the place.
    AccessRefused { code: isize },
    /// 404 Unknown Channel: the channel or thread is deleted, for good; or a thread is locked
    /// and the bot may not reopen it.
    ChannelGone,
    /// 403 50007: the player's direct messages are closed to the bot.
    DmsClosed,
    /// Another refusal of this request (403, 404): a few tries.
    Refused,
    /// Discord says the payload is wrong: it will never pass.
    Rejected,
    /// The invalid-request budget is spent: nothing was sent; the post waits this long,
    /// without a try counted.
    Deferred(Duration),
    /// Discord refused the bot token: nothing more is sent, nothing is counted against the
    /// post, and no game moves (the post waits for a restart with a valid token).
    Halted,
}

impl Failure {
    pub fn of(error: &BotError) -> Failure {
        match error {
            BotError::Stopped(Stopped::TokenRevoked) => return Failure::Halted,
            BotError::Stopped(Stopped::BudgetSpent { wait, .. }) => {
                return Failure::Deferred(*wait);
            }
            BotError::Stopped(Stopped::TimedOut(_)) => return Failure::Passing,
            BotError::ThreadLocked(_) => return Failure::ChannelGone,
            _ => {}
        }
        let Some((status, code)) = refusal_of(error) else {
            return match error {
                BotError::Discord(e) if matches!(e.as_ref(), serenity::Error::Model(_)) => {
                    Failure::Rejected
                }
                _ => Failure::Passing,
            };
        };
        match (status, code) {
            (401, INVALID_WEBHOOK_TOKEN) => Failure::Rejected,
            (401, _) => Failure::Halted,
            (403, CANNOT_MESSAGE_USER) => Failure::DmsClosed,
            (403, MISSING_ACCESS | MISSING_PERMISSIONS) => Failure::AccessRefused { code },
            (404, UNKNOWN_CHANNEL) => Failure::ChannelGone,
            (403 | 404, _) => Failure::Refused,
            (429 | 500..=599, _) => Failure::Passing,
            _ => Failure::Rejected,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Failure::Passing => "passing",
            Failure::AccessRefused { .. } => "access_refused",
            Failure::ChannelGone => "channel_gone",
            Failure::DmsClosed => "dms_closed",
            Failure::Refused => "refused",
            Failure::Rejected => "rejected",
            Failure::Deferred(_) => "deferred",
            Failure::Halted => "halted",
        }
    }
}

/// Discord's refusal of a request: its HTTP status and JSON error code.
pub fn refusal_of(error: &BotError) -> Option<(u16, isize)> {
    let BotError::Discord(error) = error else {
        return None;
    };
    match error.as_ref() {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            Some((response.status_code.as_u16(), response.error.code))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_gate_stopped_is_never_charged_to_the_post() {
        assert_eq!(
            Failure::of(&BotError::Stopped(Stopped::TokenRevoked)),
            Failure::Halted
        );
        let wait = Duration::from_secs(7);
        assert_eq!(
            Failure::of(&BotError::Stopped(Stopped::BudgetSpent { count: 3, wait })),
            Failure::Deferred(wait)
        );
        assert_eq!(
            Failure::of(&BotError::Stopped(Stopped::TimedOut(wait))),
            Failure::Passing
        );
        assert_eq!(
            Failure::of(&BotError::BadOption("x".into())),
            Failure::Passing
        );
        let locked = BotError::ThreadLocked(Box::new(BotError::BadOption("403".into())));
        assert_eq!(Failure::of(&locked), Failure::ChannelGone);
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;

    /// Discord's refusal with `status` and `code`, as serenity reads it off the wire.
    async fn refusal(status: u16, code: isize) -> BotError {
        let body = serde_json::json!({ "code": code, "message": "refused" }).to_string();
        let response = axum::http::Response::builder()
            .status(status)
            .body(body)
            .map(reqwest::Response::from)
            .unwrap();
        let error =
            serenity::http::ErrorResponse::from_response(response, reqwest::Method::POST).await;
        BotError::from(serenity::Error::Http(HttpError::UnsuccessfulRequest(error)))
    }

    #[tokio::test]
    async fn each_refusal_has_its_own_outcome() {
        let cases = [
            (401, 0, Failure::Halted),
            (401, INVALID_WEBHOOK_TOKEN, Failure::Rejected),
            (403, CANNOT_MESSAGE_USER, Failure::DmsClosed),
            (
                403,
                MISSING_ACCESS,
                Failure::AccessRefused {
                    code: MISSING_ACCESS,
                },
            ),
            (
                403,
                MISSING_PERMISSIONS,
                Failure::AccessRefused {
                    code: MISSING_PERMISSIONS,
                },
            ),
            (404, UNKNOWN_CHANNEL, Failure::ChannelGone),
            (404, 10008, Failure::Refused),
            (429, 0, Failure::Passing),
            (502, 0, Failure::Passing),
            (400, 50035, Failure::Rejected),
        ];
        for (status, code, expected) in cases {
            assert_eq!(
                Failure::of(&refusal(status, code).await),
                expected,
                "{status} {code}"
            );
        }
    }
}
