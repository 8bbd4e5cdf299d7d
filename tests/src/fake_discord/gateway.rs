//! The fake gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeat ACKs, dispatch of
//! injected events, and sessions that a client can RESUME after a drop: the events it missed
//! (by `seq`) are replayed, then RESUMED. A test can refuse IDENTIFY with a close code, close
//! the connection, ask for a reconnect (op 7) or invalidate the session (op 9).
//!
//! Sharding as Discord does it: IDENTIFY names its shard `[id, count]`; the test guild, and
//! every event of it (an interaction, a thread), belongs to shard `(guild_id >> 22) % count`
//! only, and events without a guild (direct messages) to shard 0. So several bot instances
//! that split the shards between them each get their own servers' events, and no other's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use super::gateway_wire::{Wire, WireCounts, asks_for_zlib_stream};
use super::latency::Latencies;
use super::session_starts::Refusal;
use super::{FakeError, FakeState, checked, locked, now_rfc3339, payloads};

/// How often the bot is asked to heartbeat, unless a test says otherwise: Discord's usual
/// interval, long, so tests see few heartbeats.
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// Discord's gateway, as `GET /gateway` gives it, where the fake serves it over TLS: the
/// stand-in's certificate names this host too (`tls`).
pub const DISCORD_GATEWAY_URL: &str = "wss://gateway.discord.gg";

/// Close codes with which a client ends its session for good (Discord forgets it).
const CLIENT_CLOSES_FOR_GOOD: [u16; 2] = [1000, 1001];

/// What the fake sends down one connection.
#[derive(Debug)]
enum Outgoing {
    Frame(Value),
    /// A dispatch, sent once `due` (the injected latency) has come, after those before it.
    Dispatch {
        frame: Value,
        due: tokio::time::Instant,
    },
    /// Close the connection with this code.
    Close(u16),
}

/// One gateway session: the events dispatched in it, by `seq`, for a RESUME to replay.
struct Session {
    seq: u64,
    events: Vec<Value>,
    resumable: bool,
    /// The shard it was identified for.
    shard: u64,
}

/// The shard a guild's events go to, of `count` (Discord's rule).
pub fn shard_of(guild_id: u64, count: u64) -> u64 {
    (guild_id >> 22) % count.max(1)
}

impl Session {
    /// Adds a dispatch to the session; answers the frame, with its `seq`.
    fn log(&mut self, event: &str, data: Value) -> Value {
        self.seq += 1;
        let frame = json!({ "op": 0, "t": event, "s": self.seq, "d": data });
        self.events.push(frame.clone());
        frame
    }
}

/// The connection that receives a shard's dispatches now.
struct Connection {
    id: u64,
    to_bot: mpsc::UnboundedSender<Outgoing>,
    session_id: Option<String>,
}

#[derive(Default)]
struct Hub {
    /// Each shard's current connection.
    current: HashMap<u64, Connection>,
    sessions: HashMap<String, Session>,
    /// Each shard's last session, which its dispatches go to while the bot reconnects.
    latest_session: HashMap<u64, String>,
    /// The shard count the bot identified with (1 until it says otherwise).
    shard_count: u64,
}

impl Hub {
    /// Makes connection `id` the one that receives `shard`'s dispatches, in `session_id`. Done
    /// under the same lock as the session's READY or replay, so no dispatch falls between.
    fn attach(
        &mut self,
        id: u64,
        to_bot: &mpsc::UnboundedSender<Outgoing>,
        session_id: &str,
        shard: u64,
    ) {
        self.current.insert(
            shard,
            Connection {
                id,
                to_bot: to_bot.clone(),
                session_id: Some(session_id.to_owned()),
            },
        );
        self.latest_session.insert(shard, session_id.to_owned());
    }

    /// The shard an event belongs to: its guild's (a GUILD_* event names its guild `id`), or
    /// 0 without one.
    fn shard_of_event(&self, event: &str, data: &Value) -> u64 {
        let guild_field = if event.starts_with("GUILD_") && data.get("guild_id").is_none() {
            "id"
        } else {
            "guild_id"
        };
        data.get(guild_field)
            .and_then(Value::as_str)
            .and_then(|g| g.parse::<u64>().ok())
            .map_or(0, |guild| shard_of(guild, self.shard_count))
    }
}

/// The gateway's sessions and connections, the counts tests wait on, and the scripted refusals.
pub(crate) struct GatewayHub {
    hub: Mutex<Hub>,
    next_connection: AtomicU64,
    sessions: watch::Sender<u64>,
    resumes: watch::Sender<u64>,
    rejected_identifies: AtomicU64,
    /// While set, IDENTIFY is answered by closing the connection with this code.
    identify_refusal: Mutex<Option<u16>>,
    /// The `[id, count]` of every IDENTIFY accepted, in order.
    identified: Mutex<Vec<[u64; 2]>>,
    /// The shard each dispatch went to, in order (tests check where an event was routed).
    routed: Mutex<Vec<(String, u64)>>,
    /// The latency a test injects into dispatches (shared with the REST side).
    latency: Arc<Latencies>,
    /// The heartbeat interval HELLO asks for, in milliseconds.
    pub heartbeat_interval_ms: AtomicU64,
    /// Shards whose connections hear nothing more: no heartbeat ACK, no dispatch (kept in the
    /// session for a resume), as when Discord's side of a connection hangs.
    silenced: Mutex<std::collections::HashSet<u64>>,
    /// Whether `GET /gateway` gives Discord's `wss://` URL (served by the TLS stand-in) rather
    /// than the plain `ws://` one.
    over_tls: std::sync::atomic::AtomicBool,
    /// Connections opened through the TLS stand-in.
    tls_connections: AtomicU64,
    /// Bytes sent, as payloads and on the wire (`gateway_wire`).
    pub wire_counts: WireCounts,
}

impl GatewayHub {
    /// A hub whose dispatches take the latency `latency` gives them.
    pub fn with_latency(latency: Arc<Latencies>) -> GatewayHub {
        GatewayHub {
            latency,
            ..GatewayHub::default()
        }
    }
}

impl Default for GatewayHub {
    fn default() -> Self {
        GatewayHub {
            latency: Arc::default(),
            heartbeat_interval_ms: AtomicU64::new(HEARTBEAT_INTERVAL_MS),
            hub: Mutex::new(Hub::default()),
            next_connection: AtomicU64::new(1),
            sessions: watch::channel(0).0,
            resumes: watch::channel(0).0,
            rejected_identifies: AtomicU64::new(0),
            identify_refusal: Mutex::new(None),
            identified: Mutex::new(Vec::new()),
            routed: Mutex::new(Vec::new()),
            silenced: Mutex::new(std::collections::HashSet::new()),
            over_tls: std::sync::atomic::AtomicBool::new(false),
            tls_connections: AtomicU64::new(0),
            wire_counts: WireCounts::default(),
        }
    }
}

/// Waits until a counter reaches `count`; on timeout, answers how far it got.
async fn wait_for_count(
    counter: &watch::Sender<u64>,
    count: u64,
    timeout: Duration,
) -> Result<(), u64> {
    let mut rx = counter.subscribe();
    match tokio::time::timeout(timeout, rx.wait_for(|n| *n >= count)).await {
        Ok(Ok(_)) => Ok(()),
        _ => Err(*counter.borrow()),
    }
}

impl GatewayHub {
    /// Sessions made ready (READY sent), one per IDENTIFY accepted.
    pub fn sessions(&self) -> u64 {
        *self.sessions.borrow()
    }

    /// Sessions resumed (RESUMED sent).
    pub fn resumes(&self) -> u64 {
        *self.resumes.borrow()
    }

    pub fn rejected_identifies(&self) -> u64 {
        self.rejected_identifies.load(Ordering::Relaxed)
    }

    pub async fn wait_for_sessions(&self, count: u64, timeout: Duration) -> Result<(), u64> {
        wait_for_count(&self.sessions, count, timeout).await
    }

    pub async fn wait_for_resumes(&self, count: u64, timeout: Duration) -> Result<(), u64> {
        wait_for_count(&self.resumes, count, timeout).await
    }

    /// The `[shard, count]` of each IDENTIFY accepted, in order.
    pub fn identified_shards(&self) -> Vec<[u64; 2]> {
        locked(&self.identified).clone()
    }

    /// Each dispatch's event name and the shard it went to, in order.
    pub fn routed(&self) -> Vec<(String, u64)> {
        locked(&self.routed).clone()
    }

    /// From now on `GET /gateway` (and READY's `resume_gateway_url`) give Discord's
    /// `wss://` URL, which the TLS stand-in serves.
    pub fn serve_over_tls(&self) {
        self.over_tls.store(true, Ordering::Relaxed);
    }

    /// The gateway URL the bot is given: the plain one, or Discord's over TLS.
    pub fn url(&self, plain: &str) -> String {
        if self.over_tls.load(Ordering::Relaxed) {
            DISCORD_GATEWAY_URL.to_owned()
        } else {
            plain.to_owned()
        }
    }

    /// Gateway connections opened through the TLS stand-in.
    pub fn tls_connections(&self) -> u64 {
        self.tls_connections.load(Ordering::Relaxed)
    }

    /// From now on `shard`'s connections hear nothing: no heartbeat ACK, no dispatch.
    pub fn silence_shard(&self, shard: u64) {
        locked(&self.silenced).insert(shard);
    }

    /// Whether connection `id` is one of a silenced shard.
    fn is_silenced(&self, id: u64) -> bool {
        let silenced = locked(&self.silenced);
        !silenced.is_empty()
            && locked(&self.hub)
                .current
                .iter()
                .any(|(shard, c)| c.id == id && silenced.contains(shard))
    }

    pub fn refuse_identify(&self, close_code: Option<u16>) {
        *locked(&self.identify_refusal) = close_code;
    }

    /// Sends a dispatch event (op 0) in the current session. While the bot reconnects, the
    /// event waits in its session for the RESUME, as on Discord.
    pub fn dispatch(&self, event: &str, data: Value) -> Result<(), FakeError> {
        let mut hub = locked(&self.hub);
        let shard = hub.shard_of_event(event, &data);
        let session_id = hub
            .current
            .get(&shard)
            .and_then(|c| c.session_id.clone())
            .or_else(|| hub.latest_session.get(&shard).cloned())
            .ok_or(FakeError::NotConnected)?;
        let session = hub
            .sessions
            .get_mut(&session_id)
            .filter(|s| s.resumable)
            .ok_or(FakeError::NotConnected)?;
        let frame = session.log(event, data);
        locked(&self.routed).push((event.to_owned(), shard));
        let silenced = locked(&self.silenced).contains(&shard);
        if let Some(connection) = hub
            .current
            .get(&shard)
            .filter(|c| c.session_id.as_deref() == Some(session_id.as_str()))
            .filter(|_| !silenced)
        {
            let due = tokio::time::Instant::now() + self.latency.of_dispatch();
            // A connection that just dropped: the event stays in the session for a resume.
            let _ = connection.to_bot.send(Outgoing::Dispatch { frame, due });
        }
        Ok(())
    }

    /// Sends a frame or a close to every current connection (one per shard).
    fn to_current(&self, outgoing: impl Fn() -> Outgoing) -> Result<(), FakeError> {
        let hub = locked(&self.hub);
        if hub.current.is_empty() {
            return Err(FakeError::NotConnected);
        }
        for connection in hub.current.values() {
            connection
                .to_bot
                .send(outgoing())
                .map_err(|_| FakeError::NotConnected)?;
        }
        Ok(())
    }

    /// Closes the current connection with `code`; the session stays resumable.
    pub fn close_current(&self, code: u16) -> Result<(), FakeError> {
        self.to_current(|| Outgoing::Close(code))
    }

    /// op 7: the client should reconnect and resume.
    pub fn send_reconnect(&self) -> Result<(), FakeError> {
        self.to_current(|| Outgoing::Frame(json!({ "op": 7, "d": null })))
    }

    /// op 9: the session is invalid; `resumable` says whether the client may resume it.
    pub fn send_invalid_session(&self, resumable: bool) -> Result<(), FakeError> {
        if !resumable {
            let mut hub = locked(&self.hub);
            let current: Vec<String> = hub
                .current
                .values()
                .filter_map(|c| c.session_id.clone())
                .collect();
            for id in current {
                if let Some(session) = hub.sessions.get_mut(&id) {
                    session.resumable = false;
                }
            }
        }
        self.to_current(|| Outgoing::Frame(json!({ "op": 9, "d": resumable })))
    }

    /// Forgets connection `id` (if it is still the current one); a client that closed for good
    /// (`client_close` 1000 or 1001) ends its session.
    fn disconnected(&self, id: u64, client_close: Option<u16>) {
        let mut hub = locked(&self.hub);
        let Some(shard) = hub
            .current
            .iter()
            .find(|(_, c)| c.id == id)
            .map(|(shard, _)| *shard)
        else {
            return;
        };
        let session_id = hub.current.remove(&shard).and_then(|c| c.session_id);
        if client_close.is_some_and(|code| CLIENT_CLOSES_FOR_GOOD.contains(&code))
            && let Some(session) = session_id.and_then(|s| hub.sessions.get_mut(&s))
        {
            session.resumable = false;
        }
    }
}

pub(crate) async fn upgrade(
    State(state): State<Arc<FakeState>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    let wire = Wire::new(asks_for_zlib_stream(query.as_deref()));
    ws.on_upgrade(move |socket| serve(state, socket, wire))
}

/// A connection to the gateway through the TLS stand-in (`wss://gateway.discord.gg`).
pub(crate) async fn upgrade_over_tls(
    State(state): State<Arc<FakeState>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    state
        .gateway
        .tls_connections
        .fetch_add(1, Ordering::Relaxed);
    let wire = Wire::new(asks_for_zlib_stream(query.as_deref()));
    ws.on_upgrade(move |socket| serve(state, socket, wire))
}

async fn close(socket: &mut WebSocket, code: u16) {
    let frame = CloseFrame {
        code,
        reason: format!("fake Discord closed with {code}").into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// What to do after a frame from the client.
enum Next {
    Reply(Vec<Value>),
    Close(u16),
}

async fn serve(state: Arc<FakeState>, mut socket: WebSocket, mut wire: Wire) {
    let gateway = &state.gateway;
    let counts = &gateway.wire_counts;
    let id = gateway.next_connection.fetch_add(1, Ordering::Relaxed);
    let (to_bot, mut outgoing) = mpsc::unbounded_channel::<Outgoing>();
    let interval = gateway.heartbeat_interval_ms.load(Ordering::Relaxed);
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": interval } });
    if !wire.send(&mut socket, counts, &hello).await {
        return;
    }
    let mut client_close = None;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(message)) = incoming else { break };
                let text = match message {
                    Message::Text(text) => text.to_string(),
                    Message::Close(frame) => {
                        client_close = frame.map(|f| f.code);
                        break;
                    }
                    // Pings are answered by the WebSocket layer itself.
                    _ => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else {
                    state.problem(format!("the bot sent a gateway frame that is not JSON: {text}"));
                    continue;
                };
                match answer_frame(&state, id, &to_bot, &frame) {
                    Next::Reply(replies) => {
                        for reply in replies {
                            if !wire.send(&mut socket, counts, &reply).await { break; }
                        }
                    }
                    Next::Close(code) => {
                        close(&mut socket, code).await;
                        break;
                    }
                }
            }
            Some(out) = outgoing.recv() => match out {
                Outgoing::Frame(frame) => {
                    if !wire.send(&mut socket, counts, &frame).await { break; }
                }
                Outgoing::Dispatch { frame, due } => {
                    tokio::time::sleep_until(due).await;
                    if !wire.send(&mut socket, counts, &frame).await { break; }
                }
                Outgoing::Close(code) => {
                    close(&mut socket, code).await;
                    break;
                }
            }
        }
    }
    gateway.disconnected(id, client_close);
}

fn answer_frame(
    state: &FakeState,
    id: u64,
    to_bot: &mpsc::UnboundedSender<Outgoing>,
    frame: &Value,
) -> Next {
    let gateway = &state.gateway;
    match frame.get("op").and_then(Value::as_u64) {
        // Heartbeat -> heartbeat ACK (none on a silenced shard).
        Some(1) if gateway.is_silenced(id) => Next::Reply(Vec::new()),
        Some(1) => Next::Reply(vec![json!({ "op": 11 })]),
        Some(2) => {
            let shard = frame
                .get("d")
                .and_then(|d| d.get("shard"))
                .and_then(Value::as_array)
                .map(|pair| pair.iter().filter_map(Value::as_u64).collect::<Vec<_>>());
            let shard = match shard.as_deref() {
                None => None,
                Some(&[shard, count]) => Some([shard, count]),
                Some(other) => {
                    state.problem(format!("IDENTIFY with a shard that is no pair: {other:?}"));
                    Some([0, 0])
                }
            };
            // Every IDENTIFY counts against the day's session starts, refused ones too.
            let counted = state.session_starts.identify(shard);
            if let Some(code) = *locked(&gateway.identify_refusal) {
                gateway.rejected_identifies.fetch_add(1, Ordering::Relaxed);
                return Next::Close(code);
            }
            let [shard, count] = match counted {
                Ok(shard) => shard,
                Err(refused) => {
                    if let Some(problem) = refused.problem {
                        state.problem(format!("{problem}: IDENTIFY {shard:?}"));
                    }
                    gateway.rejected_identifies.fetch_add(1, Ordering::Relaxed);
                    return match refused.answer {
                        Refusal::Close(code) => Next::Close(code),
                        Refusal::InvalidSession => {
                            Next::Reply(vec![json!({ "op": 9, "d": false })])
                        }
                    };
                }
            };
            match session_start(state, id, to_bot, shard, count) {
                Ok(events) => {
                    state.session_starts.started(shard);
                    locked(&gateway.identified).push([shard, count]);
                    gateway.sessions.send_modify(|n| *n += 1);
                    Next::Reply(events)
                }
                Err(e) => {
                    state.problem(e.to_string());
                    // 4000: unknown error, as Discord says when it fails on its side.
                    Next::Close(4000)
                }
            }
        }
        Some(6) => resume(gateway, id, to_bot, frame.get("d").unwrap_or(&Value::Null)),
        // Presence, voice state, member requests: nothing to answer.
        _ => Next::Reply(Vec::new()),
    }
}

/// RESUME: replays what the session missed after the client's `seq`, then RESUMED; an
/// unknown or ended session gets op 9 (not resumable), as on Discord.
fn resume(
    gateway: &GatewayHub,
    id: u64,
    to_bot: &mpsc::UnboundedSender<Outgoing>,
    data: &Value,
) -> Next {
    let session_id = data.get("session_id").and_then(Value::as_str).unwrap_or("");
    let seen = data.get("seq").and_then(Value::as_u64).unwrap_or(0);
    let replay = {
        let mut hub = locked(&gateway.hub);
        match hub.sessions.get_mut(session_id).filter(|s| s.resumable) {
            None => None,
            Some(session) => {
                let mut frames: Vec<Value> = session
                    .events
                    .iter()
                    .filter(|e| e.get("s").and_then(Value::as_u64) > Some(seen))
                    .cloned()
                    .collect();
                frames.push(session.log("RESUMED", json!({})));
                let shard = session.shard;
                hub.attach(id, to_bot, session_id, shard);
                Some(frames)
            }
        }
    };
    match replay {
        None => Next::Reply(vec![json!({ "op": 9, "d": false })]),
        Some(frames) => {
            gateway.resumes.send_modify(|n| *n += 1);
            Next::Reply(frames)
        }
    }
}

/// A new session for connection `id` on `shard` of `count`: READY, then the test guild when it
/// belongs to that shard.
fn session_start(
    state: &FakeState,
    id: u64,
    to_bot: &mpsc::UnboundedSender<Outgoing>,
    shard: u64,
    count: u64,
) -> Result<Vec<Value>, FakeError> {
    let session_id = format!("fake-session-{}", state.next_id());
    let has_guild = shard_of(state.guild_id, count) == shard;
    let mut ready = payloads::ready(
        &state.bot,
        state.application_id,
        state.guild_id,
        &session_id,
        &state.gateway.url(&state.ws_url),
    );
    ready["shard"] = json!([shard, count]);
    if !has_guild {
        ready["guilds"] = json!([]);
    }
    checked::<serenity::model::gateway::Ready>("READY", &ready)?;
    let mut session = Session {
        seq: 0,
        events: Vec::new(),
        resumable: true,
        shard,
    };
    let mut events = vec![session.log("READY", ready)];
    if has_guild {
        let now = now_rfc3339();
        let channels = state.live_channels();
        let members = locked(&state.members).clone();
        let guild = payloads::guild_create(&payloads::GuildSpec {
            guild_id: state.guild_id,
            owner_id: state.owner.id,
            channels: &channels,
            members: &members,
            now: &now,
        });
        checked::<serenity::model::guild::Guild>("GUILD_CREATE", &guild)?;
        events.push(session.log("GUILD_CREATE", guild));
    }
    let mut hub = locked(&state.gateway.hub);
    hub.shard_count = count;
    hub.sessions.insert(session_id.clone(), session);
    hub.attach(id, to_bot, &session_id, shard);
    Ok(events)
}
