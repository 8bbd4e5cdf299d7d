//! Discord's other way of delivering interactions: an HTTP `POST` to the application's
//! Interactions Endpoint URL instead of a gateway event. Behind a load balancer, any instance
//! then answers any server, so an instance that dies silences nobody (its shards' gateway
//! events wait for it; interactions do not). Each request is verified ([`signature`]); a PING
//! is answered PONG; every other interaction goes to the same poise framework as the
//! gateway's ([`relay`]), which answers through the callback endpoint, so the request itself
//! is answered 202 with no body, as Discord asks of such answers.

mod relay;
mod signature;

use std::time::SystemTime;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use serde::Deserialize;
use serenity::all::Interaction;

pub use relay::{InteractionRelay, NotReady, RelayingFramework};
pub use signature::{PublicKey, SignatureError};

/// Where the endpoint is served; the Interactions Endpoint URL is the public address plus this.
pub const PATH: &str = "/discord/interactions";

/// The interaction type Discord sends to check the endpoint.
const PING: u8 = 1;

/// `POST` [`PATH`]: verifies, answers a PING, hands the rest to `relay`.
pub fn endpoint<S>(key: PublicKey, relay: InteractionRelay) -> MethodRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    post(move |headers: HeaderMap, body: Bytes| {
        let key = key.clone();
        let relay = relay.clone();
        async move { receive(&key, &relay, &headers, &body, SystemTime::now()) }
    })
}

#[derive(Deserialize)]
struct Kind {
    #[serde(rename = "type")]
    kind: u8,
}

fn receive(
    key: &PublicKey,
    relay: &InteractionRelay,
    headers: &HeaderMap,
    body: &[u8],
    now: SystemTime,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let (Some(signature), Some(timestamp)) = (
        header("x-signature-ed25519"),
        header("x-signature-timestamp"),
    ) else {
        return refuse(
            StatusCode::UNAUTHORIZED,
            &SignatureError::Missing.to_string(),
        );
    };
    if let Err(error) = key.verify(signature, timestamp, body, now) {
        return refuse(StatusCode::UNAUTHORIZED, &error.to_string());
    }
    let Ok(Kind { kind }) = serde_json::from_slice::<Kind>(body) else {
        return refuse(StatusCode::BAD_REQUEST, "the body is not an interaction");
    };
    if kind == PING {
        return (
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"type":1}"#,
        )
            .into_response();
    }
    let interaction: Interaction = match serde_json::from_slice(body) {
        Ok(interaction) => interaction,
        Err(error) => {
            tracing::warn!(%error, "an interaction received over HTTP could not be read");
            return refuse(StatusCode::BAD_REQUEST, "the body is not an interaction");
        }
    };
    match relay.dispatch(interaction) {
        Ok(()) => StatusCode::ACCEPTED.into_response(),
        Err(NotReady::NoSession) => refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the bot is connecting to Discord; try again in a moment",
        ),
        Err(NotReady::Busy) => refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the bot is answering too many interactions at once; try again in a moment",
        ),
    }
}

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, message.to_owned()).into_response()
}
