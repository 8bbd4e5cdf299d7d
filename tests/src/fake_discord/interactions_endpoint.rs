//! Interactions delivered as Discord delivers them to an application with an Interactions
//! Endpoint URL: a signed HTTP `POST` of the interaction to the bot, instead of a gateway
//! event. Like Discord, the fake accepts a URL only after checking it: a signed PING must be
//! answered 200 with a PONG, and a PING with a bad signature must be refused with 401. Once a
//! URL is set, every interaction the test sends goes there; an answer other than 202 (the
//! bot answers through the callback endpoint) is a problem.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use ring::signature::{Ed25519KeyPair, KeyPair};
use serde_json::{Value, json};

use super::{FakeError, FakeState, locked};

/// The fake application's signing key is made from this seed, so a bot's configuration can
/// name its public key before the fake starts ([`public_key_hex`]).
const SEED: [u8; 32] = *b"taflbot fake discord signing key";

/// The fake application's public key, as the Developer Portal shows it (hex).
pub fn public_key_hex() -> String {
    key_pair().map_or_else(String::new, |pair| hex::encode(pair.public_key().as_ref()))
}

fn key_pair() -> Option<Ed25519KeyPair> {
    Ed25519KeyPair::from_seed_unchecked(&SEED).ok()
}

/// How a request to the endpoint is signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signing {
    /// As Discord signs: the timestamp and the body, with the application's key.
    Valid,
    /// A signature over other bytes, as Discord sends to check that the endpoint refuses it.
    Invalid,
    /// No signature headers at all.
    Missing,
}

/// What the endpoint answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointAnswer {
    pub status: u16,
    pub body: String,
}

/// The fake's side of the endpoint: the URL set, and a client to call it.
#[derive(Default)]
pub(crate) struct Endpoint {
    url: Mutex<Option<String>>,
    client: reqwest::Client,
}

impl Endpoint {
    pub(crate) fn url(&self) -> Option<String> {
        locked(&self.url).clone()
    }

    fn set_url(&self, url: Option<String>) {
        *locked(&self.url) = url;
    }
}

/// Posts `body` to `url`, signed as `signing` says.
pub(crate) async fn post(
    state: &FakeState,
    url: &str,
    body: &Value,
    signing: Signing,
) -> Result<EndpointAnswer, FakeError> {
    let body = body.to_string();
    let timestamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs()
        .to_string();
    let mut request = state
        .endpoint
        .client
        .post(url)
        .header("content-type", "application/json");
    let signed = match signing {
        Signing::Valid => Some(format!("{timestamp}{body}")),
        Signing::Invalid => Some(format!("{timestamp}{body} (not what was sent)")),
        Signing::Missing => None,
    };
    if let Some(signed) = signed {
        let pair = key_pair().ok_or(FakeError::Endpoint("no signing key".into()))?;
        request = request
            .header(
                "x-signature-ed25519",
                hex::encode(pair.sign(signed.as_bytes()).as_ref()),
            )
            .header("x-signature-timestamp", timestamp);
    }
    let answer = request
        .body(body)
        .send()
        .await
        .map_err(|e| FakeError::Endpoint(format!("POST {url}: {e}")))?;
    let status = answer.status().as_u16();
    let body = answer
        .text()
        .await
        .map_err(|e| FakeError::Endpoint(format!("POST {url}: {e}")))?;
    Ok(EndpointAnswer { status, body })
}

/// Checks `url` as Discord checks an Interactions Endpoint URL before it saves it, then sends
/// every later interaction there (`None`: through the gateway again).
pub(crate) async fn set_url(state: &FakeState, url: Option<&str>) -> Result<(), FakeError> {
    let Some(url) = url else {
        state.endpoint.set_url(None);
        return Ok(());
    };
    let ping = json!({ "id": state.next_id().to_string(), "application_id": state.application_id.to_string(), "type": 1, "token": "fake-ping", "version": 1 });
    let valid = post(state, url, &ping, Signing::Valid).await?;
    let pong: Option<Value> = serde_json::from_str(&valid.body).ok();
    if valid.status != 200 || pong.as_ref().and_then(|v| v.get("type")) != Some(&json!(1)) {
        return Err(FakeError::Endpoint(format!(
            "a signed PING was answered {} {:?}, not 200 with {{\"type\":1}}",
            valid.status, valid.body
        )));
    }
    let forged = post(state, url, &ping, Signing::Invalid).await?;
    if forged.status != 401 {
        return Err(FakeError::Endpoint(format!(
            "a PING with a bad signature was answered {}, not 401",
            forged.status
        )));
    }
    state.endpoint.set_url(Some(url.to_owned()));
    Ok(())
}

/// Delivers an interaction to the endpoint in the background, as the gateway would deliver it;
/// an answer other than 202 is a problem of the bot.
pub(crate) fn deliver(state: std::sync::Arc<FakeState>, url: String, payload: Value) {
    tokio::spawn(async move {
        match post(&state, &url, &payload, Signing::Valid).await {
            Ok(answer) if answer.status == 202 => {}
            Ok(answer) => state.problem(format!(
                "the interactions endpoint answered {} {:?} to an interaction, not 202",
                answer.status, answer.body
            )),
            Err(error) => state.problem(format!("the interactions endpoint failed: {error}")),
        }
    });
}
