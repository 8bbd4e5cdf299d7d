//! The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeat ACKs, and dispatch of
//! injected events to the connected bot.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use super::{FakeError, FakeState, checked, locked, now_rfc3339, payloads};

/// How often the bot is asked to heartbeat; long, so tests see few heartbeats.
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// The connection the bot currently holds, and the count of sessions made ready.
pub(crate) struct GatewayHub {
    current: Mutex<Option<mpsc::UnboundedSender<Value>>>,
    seq: AtomicU64,
    sessions: watch::Sender<u64>,
}

impl Default for GatewayHub {
    fn default() -> Self {
        GatewayHub {
            current: Mutex::new(None),
            seq: AtomicU64::new(0),
            sessions: watch::channel(0).0,
        }
    }
}

impl GatewayHub {
    pub fn sessions(&self) -> u64 {
        *self.sessions.borrow()
    }

    /// Waits until `count` sessions are ready; on timeout, answers how many were.
    pub async fn wait_for_sessions(&self, count: u64, timeout: Duration) -> Result<(), u64> {
        let mut rx = self.sessions.subscribe();
        match tokio::time::timeout(timeout, rx.wait_for(|n| *n >= count)).await {
            Ok(Ok(_)) => Ok(()),
            _ => Err(*self.sessions.borrow()),
        }
    }

    fn next_seq(&self) -> u64 {
        self.seq.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Sends a dispatch event (op 0) to the connected bot.
    pub fn dispatch(&self, event: &str, data: Value) -> Result<(), FakeError> {
        let frame = json!({ "op": 0, "t": event, "s": self.next_seq(), "d": data });
        let current = locked(&self.current);
        let sender = current.as_ref().ok_or(FakeError::NotConnected)?;
        sender.send(frame).map_err(|_| FakeError::NotConnected)
    }
}

pub(crate) async fn upgrade(State(state): State<Arc<FakeState>>, ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(move |socket| serve(state, socket))
}

async fn send(socket: &mut WebSocket, frame: &Value) -> bool {
    socket
        .send(Message::Text(frame.to_string().into()))
        .await
        .is_ok()
}

async fn serve(state: Arc<FakeState>, mut socket: WebSocket) {
    let (to_bot, mut outgoing) = mpsc::unbounded_channel::<Value>();
    if !send(
        &mut socket,
        &json!({ "op": 10, "d": { "heartbeat_interval": HEARTBEAT_INTERVAL_MS } }),
    )
    .await
    {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(text) => text.to_string(),
                    // Pings and the close handshake are answered by the WebSocket layer itself;
                    // after a close the stream ends, which ends this loop.
                    _ => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else {
                    state.problem(format!("the bot sent a gateway frame that is not JSON: {text}"));
                    continue;
                };
                let op = frame.get("op").and_then(Value::as_u64);
                let replies = match op {
                    // Heartbeat -> heartbeat ACK.
                    Some(1) => vec![json!({ "op": 11 })],
                    // Identify -> READY, then the test guild.
                    Some(2) => {
                        *locked(&state.gateway.current) = Some(to_bot.clone());
                        match session_start(&state) {
                            Ok(events) => events,
                            Err(e) => { state.problem(e.to_string()); break; }
                        }
                    }
                    // Resume: the fake keeps no session state, so ask for a fresh IDENTIFY.
                    Some(6) => vec![json!({ "op": 9, "d": false })],
                    // Presence, voice state, member requests: nothing to answer.
                    _ => Vec::new(),
                };
                let identified = op == Some(2);
                for reply in replies {
                    if !send(&mut socket, &reply).await { return; }
                }
                if identified {
                    state.gateway.sessions.send_modify(|n| *n += 1);
                }
            }
            Some(frame) = outgoing.recv() => {
                if !send(&mut socket, &frame).await { break; }
            }
        }
    }
    // Only forget the connection if it is still ours (a newer bot may have connected).
    let mut current = locked(&state.gateway.current);
    if current.as_ref().is_some_and(|c| c.same_channel(&to_bot)) {
        *current = None;
    }
}

fn session_start(state: &FakeState) -> Result<Vec<Value>, FakeError> {
    let session_id = format!("fake-session-{}", state.next_id());
    let ready = payloads::ready(
        &state.bot,
        state.application_id,
        state.guild_id,
        &session_id,
        &state.ws_url,
    );
    checked::<serenity::model::gateway::Ready>("READY", &ready)?;
    let now = now_rfc3339();
    let channels = locked(&state.channels).clone();
    let members = locked(&state.members).clone();
    let guild = payloads::guild_create(&payloads::GuildSpec {
        guild_id: state.guild_id,
        owner_id: state.owner.id,
        channels: &channels,
        members: &members,
        now: &now,
    });
    checked::<serenity::model::guild::Guild>("GUILD_CREATE", &guild)?;
    let gw = &state.gateway;
    Ok(vec![
        json!({ "op": 0, "t": "READY", "s": gw.next_seq(), "d": ready }),
        json!({ "op": 0, "t": "GUILD_CREATE", "s": gw.next_seq(), "d": guild }),
    ])
}
