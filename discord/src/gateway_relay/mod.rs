//! A local relay between serenity's shards and Discord's gateway, so that the bot sees what
//! serenity 0.12 keeps to itself: each IDENTIFY, each close code, each shard's HELLO, READY,
//! RESUMED and the time of its last frame.
//!
//! serenity connects its shards to `Client::ws_url`; the supervisor points that at this relay
//! (`ws://127.0.0.1:PORT`), and each connection is relayed to the URL Discord gave, frame for
//! frame, with three interventions:
//! - **Fatal closes** (4004, 4010 to 4014, see `close_codes`) are not passed on: the shard's
//!   connection is parked (its heartbeats are acknowledged here, nothing is sent to Discord)
//!   and every later IDENTIFY of that shard is parked too, so serenity cannot restart it into
//!   an identify loop that spends the day's 1,000 session starts. The reason is logged once,
//!   shown in `/health`, and for the token or the intents (or every shard stopped) the whole
//!   front end fails.
//! - **IDENTIFY is paced** by `max_concurrency` (`identify_pacing`), across every instance of
//!   the bot when they share a PostgreSQL database.
//! - **Compression**: the connection to Discord asks for `compress=zlib-stream` (a fraction of
//!   the bandwidth at thousands of servers), inflated here (`zlib_stream`); IDENTIFY asks for
//!   no payload compression. So every payload is read on its way, and serenity gets plain text
//!   frames.
//!
//! The connection to Discord is `wss://` with the webpki roots (`upstream`).
//!
//! One relay serves every gateway client of one running bot; dropping it closes every
//! relayed connection.

mod close_codes;
mod identify_pacing;
mod upstream;
mod zlib_stream;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

use crate::config::DiscordStandIn;
use crate::service::GamesService;
use crate::shard_health::{ShardBoard, ShardState};

use close_codes::Scope;
use identify_pacing::IdentifyPacer;
use upstream::{DiscordSocket, Upstream};
use zlib_stream::ZlibStream;

/// How long connecting to Discord's gateway may take.
const UPSTREAM_CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// What went wrong starting the relay.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error("could not open the local gateway relay: {0}")]
    Listen(#[from] std::io::Error),
    #[error(transparent)]
    Tls(#[from] upstream::UpstreamTlsError),
}

/// See the module documentation.
pub struct GatewayRelay {
    inner: Arc<Inner>,
    url: String,
    accept: JoinHandle<()>,
}

struct Inner {
    /// Discord's gateway URL, as `GET /gateway` gave it to the current client.
    upstream: Mutex<String>,
    /// How to reach it: the roots trusted, a stand-in in tests.
    connector: Upstream,
    board: ShardBoard,
    pacer: IdentifyPacer,
    /// Shards stopped by a fatal close: their IDENTIFYs are parked.
    stopped: Mutex<HashSet<u16>>,
    /// Each shard's current session, for a RESUME (which does not name its shard).
    sessions: Mutex<HashMap<String, [u16; 2]>>,
    /// Set once the whole front end must stop, with the reason.
    front_end_failed: watch::Sender<Option<String>>,
    /// Set when the relay is dropped: every relayed connection ends.
    closing: watch::Sender<bool>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl GatewayRelay {
    /// Listens on a local port; shard states go to `board`; IDENTIFY turns are claimed through
    /// `service`'s database when instances share it; `stand_in` (tests only) answers for
    /// Discord's gateway.
    pub async fn start(
        board: ShardBoard,
        service: GamesService,
        stand_in: Option<&DiscordStandIn>,
    ) -> Result<GatewayRelay, RelayError> {
        let connector = Upstream::new(stand_in)?;
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("ws://{}", listener.local_addr()?);
        let inner = Arc::new(Inner {
            upstream: Mutex::new(String::new()),
            connector,
            board,
            pacer: IdentifyPacer::shared_through(Some(service)),
            stopped: Mutex::new(HashSet::new()),
            sessions: Mutex::new(HashMap::new()),
            front_end_failed: watch::channel(None).0,
            closing: watch::channel(false).0,
        });
        let accept = tokio::spawn(accept(listener, Arc::clone(&inner)));
        Ok(GatewayRelay { inner, url, accept })
    }

    /// The URL serenity's shards are to connect to.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Prepares the next gateway client: Discord's gateway URL and `max_concurrency`, and the
    /// shards it runs (shown as connecting, or still stopped).
    pub fn prepare(&self, upstream: String, max_concurrency: u16, shards: std::ops::Range<u16>) {
        *lock(&self.inner.upstream) = upstream;
        self.inner.pacer.set_max_concurrency(max_concurrency);
        self.inner.board.begin(shards);
    }

    /// Resolves with the reason once the whole front end must stop.
    pub fn front_end_failed(&self) -> watch::Receiver<Option<String>> {
        self.inner.front_end_failed.subscribe()
    }
}

impl Drop for GatewayRelay {
    fn drop(&mut self) {
        self.accept.abort();
        self.inner.closing.send_replace(true);
    }
}

async fn accept(listener: TcpListener, inner: Arc<Inner>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(relay(stream, Arc::clone(&inner)));
            }
            Err(e) => {
                // Out of file descriptors, say: the shard's connect fails and serenity retries.
                tracing::warn!("the gateway relay could not accept a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

type BotSocket = WebSocketStream<TcpStream>;

/// The gateway URL with serenity's query (`v=10`) and the relay's transport compression.
/// Discord's URL has no path (`wss://gateway.discord.gg`): the query then follows `/`, as the
/// request line needs one (`GET /?v=10`, not `GET ?v=10`, which a server refuses with 400).
fn upstream_url(base: &str, query: Option<&str>) -> String {
    let trimmed = base.trim_end_matches('/');
    let has_path = trimmed
        .split_once("://")
        .is_some_and(|(_, rest)| rest.contains('/'));
    let base = if has_path {
        trimmed.to_owned()
    } else {
        format!("{trimmed}/")
    };
    let mut url = match query {
        Some(query) if !query.is_empty() => {
            let join = if base.contains('?') { '&' } else { '?' };
            format!("{base}{join}{query}")
        }
        _ => base,
    };
    if !url.contains("compress=") {
        let join = if url.contains('?') { '&' } else { '?' };
        url.push(join);
        url.push_str("compress=zlib-stream");
    }
    url
}

/// The `[shard, count]` an IDENTIFY names (`[0, 1]` without one, as Discord reads it).
fn identify_shard(data: &Value) -> [u16; 2] {
    let pair = data
        .get("shard")
        .and_then(Value::as_array)
        .map(|pair| {
            pair.iter()
                .filter_map(|n| n.as_u64().and_then(|n| u16::try_from(n).ok()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    match pair.as_slice() {
        [id, count] => [*id, *count],
        _ => [0, 1],
    }
}

/// One shard connection, from serenity's connect to its end.
#[allow(
    clippy::result_large_err,
    reason = "the handshake callback's error type is tungstenite's HTTP response"
)]
async fn relay(stream: TcpStream, inner: Arc<Inner>) {
    let mut query = None;
    let bot =
        tokio_tungstenite::accept_hdr_async(stream, |request: &Request, response: Response| {
            query = request.uri().query().map(str::to_owned);
            Ok(response)
        })
        .await;
    let Ok(bot) = bot else { return };
    if inner.front_end_failed.borrow().is_some() {
        park(bot, &inner).await;
        return;
    }
    let url = upstream_url(&lock(&inner.upstream), query.as_deref());
    let upstream =
        tokio::time::timeout(UPSTREAM_CONNECT_TIMEOUT, inner.connector.connect(&url)).await;
    let discord = match upstream {
        Ok(Ok(discord)) => discord,
        Ok(Err(e)) => {
            tracing::warn!("could not connect to Discord's gateway: {e}");
            return;
        }
        Err(_) => {
            tracing::warn!(
                "connecting to Discord's gateway took over {UPSTREAM_CONNECT_TIMEOUT:?}"
            );
            return;
        }
    };
    Connection {
        inner,
        shard: None,
        heartbeat_interval: None,
        zlib: ZlibStream::new(),
        held_identify: None,
    }
    .run(bot, discord)
    .await;
}

/// What the relay knows of one connection.
struct Connection {
    inner: Arc<Inner>,
    /// `[shard, count]`, known from its IDENTIFY or RESUME.
    shard: Option<[u16; 2]>,
    /// From Discord's HELLO, which comes before the shard is known.
    heartbeat_interval: Option<Duration>,
    /// The connection's compressed stream from Discord.
    zlib: ZlibStream,
    /// serenity's IDENTIFY, held until its bucket's turn (heartbeats go on meanwhile).
    held_identify: Option<(Value, tokio::time::Instant)>,
}

/// What becomes of a payload from serenity.
enum ToDiscord {
    /// Sent on at once.
    Now(Value),
    /// An IDENTIFY, held until its bucket's turn.
    AtTurn(Value, tokio::time::Instant),
    /// Not sent: the connection is parked (the shard is stopped, or the front end failed).
    Park,
}

/// What to do after a frame.
enum Step {
    Go,
    End,
    Park,
}

impl Connection {
    async fn run(mut self, mut bot: BotSocket, mut discord: DiscordSocket) {
        let mut closing = self.inner.closing.subscribe();
        let step = loop {
            let turn = self.held_identify.as_ref().map(|(_, at)| *at);
            let step = tokio::select! {
                frame = bot.next() => self.on_bot_frame(frame, &mut discord).await,
                frame = discord.next() => self.on_discord_frame(frame, &mut bot).await,
                () = until_turn(turn) => self.send_held_identify(&mut discord).await,
                _ = until_set(&mut closing) => Step::End,
            };
            match step {
                Step::Go => continue,
                other => break other,
            }
        };
        let _ = discord.close(None).await;
        match step {
            Step::Park => park(bot, &self.inner).await,
            _ => {
                if let Some([shard, _]) = self.shard {
                    self.inner.board.set(shard, ShardState::Connecting);
                }
                let _ = bot.close(None).await;
            }
        }
    }

    async fn on_bot_frame(
        &mut self,
        frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
        discord: &mut DiscordSocket,
    ) -> Step {
        let message = match frame {
            Some(Ok(message)) => message,
            _ => return Step::End,
        };
        let message = match message {
            Message::Text(text) => match serde_json::from_str::<Value>(&text) {
                Ok(payload) => match self.bot_payload(payload).await {
                    ToDiscord::Now(payload) => Message::text(payload.to_string()),
                    ToDiscord::AtTurn(payload, at) => {
                        self.held_identify = Some((payload, at));
                        return Step::Go;
                    }
                    ToDiscord::Park => return Step::Park,
                },
                Err(_) => Message::Text(text),
            },
            Message::Close(frame) => {
                let _ = discord.send(Message::Close(frame)).await;
                return Step::End;
            }
            other => other,
        };
        match discord.send(message).await {
            Ok(()) => Step::Go,
            Err(_) => Step::End,
        }
    }

    /// The IDENTIFY held for its turn, now sent (or the connection parked, if the shard was
    /// stopped meanwhile).
    async fn send_held_identify(&mut self, discord: &mut DiscordSocket) -> Step {
        let Some((payload, _)) = self.held_identify.take() else {
            return Step::Go;
        };
        if self.shard.is_some_and(|[shard, _]| self.must_park(shard)) {
            return Step::Park;
        }
        match discord.send(Message::text(payload.to_string())).await {
            Ok(()) => Step::Go,
            Err(_) => Step::End,
        }
    }

    /// What becomes of a payload from serenity: an IDENTIFY waits for its bucket's turn.
    async fn bot_payload(&mut self, mut payload: Value) -> ToDiscord {
        match payload.get("op").and_then(Value::as_u64) {
            Some(2) => {
                let shard = identify_shard(payload.get("d").unwrap_or(&Value::Null));
                self.known_as(shard);
                if self.must_park(shard[0]) {
                    return ToDiscord::Park;
                }
                self.inner.board.set(shard[0], ShardState::Identifying);
                let turn = self.inner.pacer.claim_turn(shard[0]).await;
                if let Some(data) = payload.get_mut("d").and_then(Value::as_object_mut) {
                    data.insert("compress".to_owned(), Value::Bool(false));
                }
                return ToDiscord::AtTurn(payload, turn);
            }
            Some(6) => {
                let session = payload
                    .get("d")
                    .and_then(|d| d.get("session_id"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let shard = lock(&self.inner.sessions).get(session).copied();
                if let Some(shard) = shard {
                    self.known_as(shard);
                    if self.must_park(shard[0]) {
                        return ToDiscord::Park;
                    }
                    self.inner.board.set(shard[0], ShardState::Resuming);
                }
            }
            _ => {}
        }
        ToDiscord::Now(payload)
    }

    fn known_as(&mut self, shard: [u16; 2]) {
        self.shard = Some(shard);
        if let Some(interval) = self.heartbeat_interval {
            self.inner.board.heartbeat_interval(shard[0], interval);
        }
    }

    fn must_park(&self, shard: u16) -> bool {
        self.inner.front_end_failed.borrow().is_some() || lock(&self.inner.stopped).contains(&shard)
    }

    async fn on_discord_frame(
        &mut self,
        frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
        bot: &mut BotSocket,
    ) -> Step {
        let message = match frame {
            Some(Ok(message)) => message,
            _ => return Step::End,
        };
        if let Some([shard, _]) = self.shard {
            self.inner.board.heard(shard);
        }
        let message = match message {
            Message::Binary(bytes) => match self.zlib.push(&bytes) {
                Ok(Some(payload)) => Message::text(payload),
                // Part of a payload: the rest comes in the next frames.
                Ok(None) => return Step::Go,
                Err(e) => {
                    tracing::warn!("{e}; the shard's connection ends (serenity resumes)");
                    return Step::End;
                }
            },
            other => other,
        };
        match &message {
            Message::Text(text) => {
                if let Ok(payload) = serde_json::from_str::<Value>(text) {
                    self.discord_payload(&payload);
                }
            }
            Message::Close(frame) => {
                let code = frame.as_ref().map(|f| u16::from(f.code));
                if let Some(fatal) = code.and_then(|code| close_codes::fatal(code, self.shard)) {
                    self.stop(fatal);
                    return Step::Park;
                }
                let _ = bot.send(message.clone()).await;
                return Step::End;
            }
            _ => {}
        }
        match bot.send(message).await {
            Ok(()) => Step::Go,
            Err(_) => Step::End,
        }
    }

    /// Notes what a payload from Discord says of the shard: its heartbeat, READY, RESUMED.
    fn discord_payload(&mut self, payload: &Value) {
        match payload.get("op").and_then(Value::as_u64) {
            Some(10) => {
                let interval = payload
                    .get("d")
                    .and_then(|d| d.get("heartbeat_interval"))
                    .and_then(Value::as_u64)
                    .map(Duration::from_millis);
                self.heartbeat_interval = interval;
                if let (Some([shard, _]), Some(interval)) = (self.shard, interval) {
                    self.inner.board.heartbeat_interval(shard, interval);
                }
            }
            Some(0) => match payload.get("t").and_then(Value::as_str) {
                Some("READY") => {
                    let data = payload.get("d").unwrap_or(&Value::Null);
                    let shard = data
                        .get("shard")
                        .map(|_| identify_shard(data))
                        .or(self.shard);
                    if let Some(shard) = shard {
                        self.known_as(shard);
                        if let Some(session) = data.get("session_id").and_then(Value::as_str) {
                            // One session per shard is resumable: the map stays as small as
                            // the shard list.
                            let mut sessions = lock(&self.inner.sessions);
                            sessions.retain(|_, known| known[0] != shard[0]);
                            sessions.insert(session.to_owned(), shard);
                        }
                        self.inner.board.set(shard[0], ShardState::Connected);
                    }
                }
                Some("RESUMED") => {
                    if let Some([shard, _]) = self.shard {
                        self.inner.board.set(shard, ShardState::Connected);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// A fatal close: the one log line, the shard (or the front end) stopped, `/health` told.
    fn stop(&self, fatal: close_codes::FatalClose) {
        tracing::error!("Discord gateway stopped: {}", fatal.reason);
        let shard = self.shard.map(|[shard, _]| shard);
        if let Some(shard) = shard {
            lock(&self.inner.stopped).insert(shard);
            self.inner.board.set(
                shard,
                ShardState::Stopped {
                    reason: fatal.reason.clone(),
                },
            );
        }
        if fatal.scope == Scope::FrontEnd || shard.is_none() || self.inner.board.all_stopped() {
            self.inner.front_end_failed.send_if_modified(|failed| {
                if failed.is_some() {
                    return false;
                }
                *failed = Some(fatal.reason.clone());
                true
            });
        }
    }
}

/// Resolves at `turn`; never without one.
async fn until_turn(turn: Option<tokio::time::Instant>) {
    match turn {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Resolves once `flag` is set (or its sender is gone), holding no borrow of it.
async fn until_set(flag: &mut watch::Receiver<bool>) {
    let _ = flag.wait_for(|set| *set).await;
}

/// Holds serenity's connection open without Discord behind it: heartbeats are acknowledged,
/// nothing else is answered, so the shard neither identifies again nor reports an error. It ends
/// when serenity closes it or the relay is dropped.
async fn park(mut bot: BotSocket, inner: &Inner) {
    let mut closing = inner.closing.subscribe();
    loop {
        tokio::select! {
            frame = bot.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    let heartbeat = serde_json::from_str::<Value>(&text)
                        .ok()
                        .and_then(|p| p.get("op").and_then(Value::as_u64))
                        == Some(1);
                    if heartbeat && bot.send(Message::text(r#"{"op":11}"#)).await.is_err() {
                        return;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => {}
            },
            _ = until_set(&mut closing) => {
                let frame = CloseFrame { code: 1000.into(), reason: "taflbot stopped".into() };
                let _ = bot.close(Some(frame)).await;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serenitys_query_is_kept_on_discords_url() {
        assert_eq!(
            upstream_url("wss://gateway.discord.gg", Some("v=10")),
            "wss://gateway.discord.gg/?v=10&compress=zlib-stream"
        );
        assert_eq!(
            upstream_url("wss://gateway.discord.gg/", Some("v=10")),
            "wss://gateway.discord.gg/?v=10&compress=zlib-stream"
        );
        assert_eq!(
            upstream_url("ws://127.0.0.1:9/gateway", Some("v=10")),
            "ws://127.0.0.1:9/gateway?v=10&compress=zlib-stream"
        );
        assert_eq!(
            upstream_url("ws://127.0.0.1:9/?a=1", Some("v=10")),
            "ws://127.0.0.1:9/?a=1&v=10&compress=zlib-stream"
        );
        assert_eq!(
            upstream_url("ws://x/", None),
            "ws://x/?compress=zlib-stream"
        );
    }

    #[test]
    fn an_identify_names_its_shard_or_is_shard_zero_of_one() {
        assert_eq!(
            identify_shard(&serde_json::json!({ "shard": [3, 8] })),
            [3, 8]
        );
        assert_eq!(identify_shard(&serde_json::json!({})), [0, 1]);
    }
}
