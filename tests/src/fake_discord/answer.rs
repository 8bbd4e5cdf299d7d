//! What the fake answers a REST request (status, JSON body, headers), and the refusals Discord
//! gives, each as a typed value with Discord's status, JSON error code and message.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// The fake's answer, kept as data until it has been checked against Discord's description.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    /// The JSON body; `None` for an empty one (204).
    pub body: Option<Value>,
    pub headers: Vec<(&'static str, String)>,
}

impl Answer {
    pub fn ok(body: Value) -> Answer {
        Answer {
            status: StatusCode::OK,
            body: Some(body),
            headers: Vec::new(),
        }
    }

    /// 201 Created, as Discord answers a new thread.
    pub fn created(body: Value) -> Answer {
        Answer {
            status: StatusCode::CREATED,
            body: Some(body),
            headers: Vec::new(),
        }
    }

    pub fn no_content() -> Answer {
        Answer {
            status: StatusCode::NO_CONTENT,
            body: None,
            headers: Vec::new(),
        }
    }

    /// Discord's JSON error code, for a refusal.
    pub fn error_code(&self) -> Option<u64> {
        if self.status.is_success() {
            return None;
        }
        self.body.as_ref()?.get("code")?.as_u64()
    }

    pub fn into_response(self) -> Response {
        let mut response = match self.body {
            Some(body) => (self.status, axum::Json(body)).into_response(),
            None => self.status.into_response(),
        };
        for (name, value) in self.headers {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response
                    .headers_mut()
                    .insert(HeaderName::from_static(name), value);
            }
        }
        response
    }
}

/// A refusal, answered as Discord answers it.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// 400 50035: fields that break a limit; `errors` is Discord's nested error tree.
    InvalidFormBody { errors: Value },
    /// 404 10062: the first answer to an interaction came too late (or never existed).
    UnknownInteraction,
    /// 400 40060: a second callback on the same interaction.
    AlreadyAcknowledged,
    /// 401 50027: a follow-up or `@original` edit after the token expired (or with a token
    /// Discord never issued).
    InvalidWebhookToken,
    /// 404 10003
    UnknownChannel,
    /// 404 10008
    UnknownMessage,
    /// 403 50013
    MissingPermissions,
    /// 403 50001
    MissingAccess,
    /// 404 10013
    UnknownUser,
    /// 403 50007: the user does not take direct messages from the bot.
    CannotMessageUser,
    /// 400 50083: an archived thread that a message cannot reopen (it is locked).
    ThreadArchived,
    /// 400 160006: the guild has as many active threads as Discord allows.
    MaximumActiveThreads,
    /// 500, as Discord answers during an outage.
    ServerError,
    /// 429 on the route's bucket, with Discord's headers.
    RateLimited { retry_after: Duration },
    /// 404 0: Discord's answer to a path it does not serve.
    UnknownRoute,
    /// 401 0: a bot token Discord does not accept.
    Unauthorized,
}

impl Refusal {
    pub fn answer(&self) -> Answer {
        let (status, code, message) = match self {
            Refusal::InvalidFormBody { errors } => {
                return refusal_answer(
                    StatusCode::BAD_REQUEST,
                    json!({ "code": 50035, "message": "Invalid Form Body", "errors": errors }),
                );
            }
            Refusal::RateLimited { retry_after } => return rate_limited(*retry_after),
            Refusal::UnknownInteraction => (StatusCode::NOT_FOUND, 10062, "Unknown interaction"),
            Refusal::AlreadyAcknowledged => (
                StatusCode::BAD_REQUEST,
                40060,
                "Interaction has already been acknowledged.",
            ),
            Refusal::InvalidWebhookToken => {
                (StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token")
            }
            Refusal::UnknownChannel => (StatusCode::NOT_FOUND, 10003, "Unknown Channel"),
            Refusal::UnknownMessage => (StatusCode::NOT_FOUND, 10008, "Unknown Message"),
            Refusal::MissingPermissions => (StatusCode::FORBIDDEN, 50013, "Missing Permissions"),
            Refusal::MissingAccess => (StatusCode::FORBIDDEN, 50001, "Missing Access"),
            Refusal::UnknownUser => (StatusCode::NOT_FOUND, 10013, "Unknown User"),
            Refusal::CannotMessageUser => (
                StatusCode::FORBIDDEN,
                50007,
                "Cannot send messages to this user",
            ),
            Refusal::ThreadArchived => (StatusCode::BAD_REQUEST, 50083, "Thread is archived"),
            Refusal::MaximumActiveThreads => (
                StatusCode::BAD_REQUEST,
                160006,
                "Maximum number of active threads reached",
            ),
            Refusal::ServerError => (
                StatusCode::INTERNAL_SERVER_ERROR,
                0,
                "500: Internal Server Error",
            ),
            Refusal::UnknownRoute => (StatusCode::NOT_FOUND, 0, "404: Not Found"),
            Refusal::Unauthorized => (StatusCode::UNAUTHORIZED, 0, "401: Unauthorized"),
        };
        refusal_answer(status, json!({ "code": code, "message": message }))
    }
}

fn refusal_answer(status: StatusCode, body: Value) -> Answer {
    Answer {
        status,
        body: Some(body),
        headers: Vec::new(),
    }
}

/// A 429 as Discord sends it: the body in seconds (float), `Retry-After` in whole seconds
/// (rounded up), and the bucket's headers with nothing remaining until the reset.
fn rate_limited(retry_after: Duration) -> Answer {
    let seconds = retry_after.as_secs_f64();
    let reset = SystemTime::now()
        .checked_add(retry_after)
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .unwrap_or_default()
        .as_secs_f64();
    Answer {
        status: StatusCode::TOO_MANY_REQUESTS,
        body: Some(json!({
            "message": "You are being rate limited.",
            "retry_after": seconds,
            "global": false,
        })),
        headers: vec![
            ("retry-after", format!("{}", seconds.ceil())),
            ("x-ratelimit-limit", "5".to_owned()),
            ("x-ratelimit-remaining", "0".to_owned()),
            ("x-ratelimit-reset", format!("{reset:.3}")),
            ("x-ratelimit-reset-after", format!("{seconds:.3}")),
            ("x-ratelimit-bucket", "fake0000bucket0000".to_owned()),
            ("x-ratelimit-scope", "user".to_owned()),
        ],
    }
}
