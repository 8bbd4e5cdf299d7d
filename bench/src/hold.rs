//! What `bench http` holds open beside the move load: event streams and half-open
//! connections. Each is opened again as soon as it ends, and [`Held`] counts how many stand
//! from moment to moment, so the printed figures say what the server really carried and not
//! just what was asked for.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::runtime::Handle;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// Connections opened at once while the holders first fill up: thousands of simultaneous
/// connects would overflow the server's accept backlog, and each dropped SYN costs a second.
const OPENING_AT_ONCE: usize = 128;
/// Waits between failed connects, doubled each time up to the second.
const RETRY_FIRST: Duration = Duration::from_millis(10);
const RETRY_MOST: Duration = Duration::from_secs(1);

/// Counts of one kind of held connection.
#[derive(Debug, Clone, Default)]
pub struct HeldCounts {
    /// Standing now.
    pub held: usize,
    /// Ended by the server (or the network) after standing.
    pub closed: u64,
    /// Opened again after one ended.
    pub reopened: u64,
    /// Connects or requests that failed and were retried.
    pub failures: u64,
    /// Events (not keep-alive lines) that arrived on streams.
    pub events: u64,
    /// Why the holder gave up (a stream refused with 429); the run fails with it.
    pub failed: Option<String>,
    run: Option<Window>,
}

/// The move-load window, while it lasts.
#[derive(Debug, Clone, Copy)]
struct Window {
    start: Instant,
    at_start: usize,
    min: usize,
    /// Held connections times seconds, for the time-weighted mean.
    area: f64,
    since: Instant,
}

impl Window {
    /// Accounts for the time spent at `held` up to now.
    fn advance(&mut self, held: usize) {
        let now = Instant::now();
        self.area += held as f64 * now.duration_since(self.since).as_secs_f64();
        self.since = now;
    }
}

/// What stood during the move load.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldReport {
    pub at_start: usize,
    pub at_end: usize,
    /// The fewest standing at any moment (counted on every change, not sampled).
    pub min: usize,
    /// Time-weighted mean standing.
    pub mean: f64,
    /// Ended by the server during the load, and opened again.
    pub closed: u64,
    pub reopened: u64,
    pub failures: u64,
    pub events: u64,
}

/// Live counts of one holder; receivers of [`Held::watch`] are told of every change.
#[derive(Debug)]
pub struct Held {
    counts: watch::Sender<HeldCounts>,
}

impl Default for Held {
    fn default() -> Self {
        Held {
            counts: watch::Sender::new(HeldCounts::default()),
        }
    }
}

impl Held {
    pub fn watch(&self) -> watch::Receiver<HeldCounts> {
        self.counts.subscribe()
    }

    pub fn now(&self) -> HeldCounts {
        self.counts.borrow().clone()
    }

    fn opened(&self, again: bool) {
        self.counts.send_modify(|c| {
            if let Some(w) = &mut c.run {
                w.advance(c.held);
            }
            c.held += 1;
            if again {
                c.reopened += 1;
            }
        });
    }

    fn closed(&self) {
        self.counts.send_modify(|c| {
            if let Some(w) = &mut c.run {
                w.advance(c.held);
            }
            c.held = c.held.saturating_sub(1);
            c.closed += 1;
            if let Some(w) = &mut c.run {
                w.min = w.min.min(c.held);
            }
        });
    }

    fn failure(&self) {
        self.counts.send_modify(|c| c.failures += 1);
    }

    fn event(&self) {
        self.counts.send_modify(|c| c.events += 1);
    }

    fn give_up(&self, why: String) {
        self.counts.send_modify(|c| {
            c.failed.get_or_insert(why);
        });
    }

    /// Starts counting for the report: the move load begins.
    pub fn start_run(&self) {
        self.counts.send_modify(|c| {
            let now = Instant::now();
            c.run = Some(Window {
                start: now,
                at_start: c.held,
                min: c.held,
                area: 0.0,
                since: now,
            });
            // Counted from here: what ended while filling up is not part of the figure.
            c.closed = 0;
            c.reopened = 0;
            c.failures = 0;
            c.events = 0;
        });
    }

    /// What stood since [`Held::start_run`]; fails with the reason the holder gave up, if any.
    pub fn end_run(&self) -> anyhow::Result<HeldReport> {
        let mut report = None;
        self.counts.send_modify(|c| {
            if let Some(mut w) = c.run.take() {
                w.advance(c.held);
                let secs = w.since.duration_since(w.start).as_secs_f64();
                report = Some(HeldReport {
                    at_start: w.at_start,
                    at_end: c.held,
                    min: w.min,
                    mean: if secs > 0.0 {
                        w.area / secs
                    } else {
                        c.held as f64
                    },
                    closed: c.closed,
                    reopened: c.reopened,
                    failures: c.failures,
                    events: c.events,
                });
            }
        });
        if let Some(why) = self.now().failed {
            bail!("{why}");
        }
        report.context("end_run without start_run")
    }

    /// Waits until `want` stand; fails with the holder's reason, or when `within` passes.
    pub async fn wait_for(&self, want: usize, within: Duration, what: &str) -> anyhow::Result<()> {
        let mut rx = self.watch();
        let reached = tokio::time::timeout(
            within,
            rx.wait_for(|c| c.held >= want || c.failed.is_some()),
        )
        .await;
        let now = self.now();
        if let Some(why) = now.failed {
            bail!("{why}");
        }
        if reached.is_err() {
            bail!(
                "only {} of {want} {what} open after {within:?} ({} attempts failed)",
                now.held,
                now.failures
            );
        }
        Ok(())
    }
}

/// Connections that send part of a request's headers and never the rest. The server closes
/// each once its header read timeout passes; each is then opened again at once, so that
/// `n` stand throughout.
pub struct HalfOpen {
    held: Arc<Held>,
    // Dropping the set aborts the tasks, which closes their connections.
    _tasks: JoinSet<()>,
}

impl HalfOpen {
    /// Starts `n` half-open connections to `addr` (`host` is named in the partial request),
    /// held by tasks on `runtime`.
    pub fn start(runtime: &Handle, addr: SocketAddr, host: &str, n: usize) -> HalfOpen {
        // A request line and the start of the headers: the server has read too little to
        // answer and must wait for the rest, which never comes.
        let request = format!(
            "POST /api/v1/players HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nX-Bench: half-op"
        );
        HalfOpen::holding(runtime, addr, None, request, n)
    }

    /// Starts `n` connections from `from` (an address of this machine; 127.0.0.2 and up are
    /// loopback on Linux) that send a registration's whole headers announcing a 60,000-byte
    /// body, and one byte of it: the server reads the headers, then waits for the body.
    pub fn slow_bodies(
        runtime: &Handle,
        addr: SocketAddr,
        host: &str,
        from: IpAddr,
        n: usize,
    ) -> HalfOpen {
        let request = format!(
            "POST /api/v1/players HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Content-Length: 60000\r\nX-Bench: slow-body\r\n\r\n{{"
        );
        HalfOpen::holding(runtime, addr, Some(from), request, n)
    }

    fn holding(
        runtime: &Handle,
        addr: SocketAddr,
        from: Option<IpAddr>,
        request: String,
        n: usize,
    ) -> HalfOpen {
        let request: Arc<[u8]> = request.into_bytes().into();
        let held = Arc::new(Held::default());
        let opening = Arc::new(Semaphore::new(OPENING_AT_ONCE));
        let mut tasks = JoinSet::new();
        for _ in 0..n {
            tasks.spawn_on(
                hold_half_open(
                    addr,
                    from,
                    Arc::clone(&request),
                    Arc::clone(&held),
                    Arc::clone(&opening),
                ),
                runtime,
            );
        }
        HalfOpen {
            held,
            _tasks: tasks,
        }
    }

    pub fn held(&self) -> &Held {
        &self.held
    }
}

async fn hold_half_open(
    addr: SocketAddr,
    from: Option<IpAddr>,
    request: Arc<[u8]>,
    held: Arc<Held>,
    opening: Arc<Semaphore>,
) {
    let mut again = false;
    let mut retry = RETRY_FIRST;
    let mut buf = [0u8; 1024];
    loop {
        let connected = {
            // Only the first opening is paced: a reopen answers one close by the server, and
            // those are spread as the first openings were.
            let _pace = if again {
                None
            } else {
                opening.acquire().await.ok()
            };
            half_open(addr, from, &request).await
        };
        let mut stream = match connected {
            Ok(stream) => stream,
            Err(_) => {
                held.failure();
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MOST);
                continue;
            }
        };
        held.opened(again);
        again = true;
        let opened = Instant::now();
        // Whatever the server says (a 408, or nothing) is read and dropped; the end of the
        // stream, or a reset, is its close.
        while let Ok(n) = stream.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
        held.closed();
        // Closed at once (its address holds its share of connections already): wait before
        // the next try, as after a failed connect, rather than spin.
        if opened.elapsed() < Duration::from_millis(100) {
            tokio::time::sleep(retry).await;
            retry = (retry * 2).min(RETRY_MOST);
        } else {
            retry = RETRY_FIRST;
        }
    }
}

async fn half_open(
    addr: SocketAddr,
    from: Option<IpAddr>,
    request: &[u8],
) -> std::io::Result<TcpStream> {
    let mut stream = match from {
        None => TcpStream::connect(addr).await?,
        Some(from) => {
            let socket = if from.is_ipv4() {
                tokio::net::TcpSocket::new_v4()?
            } else {
                tokio::net::TcpSocket::new_v6()?
            };
            socket.bind(SocketAddr::new(from, 0))?;
            socket.connect(addr).await?
        }
    };
    stream.set_nodelay(true)?;
    stream.write_all(request).await?;
    Ok(stream)
}

/// Event streams (`GET /api/v1/stream/events`), one per token given, read as they arrive.
/// A stream that ends is opened again after the last event id it saw; a stream refused
/// (429 or any other error status) stops the holder with a message naming the server's
/// limits, rather than quietly holding fewer.
pub struct Streams {
    held: Arc<Held>,
    _tasks: JoinSet<()>,
}

impl Streams {
    /// Opens a stream for each of `tokens`, held by tasks on `runtime`.
    pub fn start(
        runtime: &Handle,
        client: &reqwest::Client,
        base: &str,
        tokens: Vec<String>,
    ) -> Streams {
        let held = Arc::new(Held::default());
        let opening = Arc::new(Semaphore::new(OPENING_AT_ONCE));
        let url: Arc<str> = Arc::from(format!("{base}/api/v1/stream/events"));
        let mut tasks = JoinSet::new();
        for token in tokens {
            tasks.spawn_on(
                hold_stream(
                    client.clone(),
                    Arc::clone(&url),
                    token,
                    Arc::clone(&held),
                    Arc::clone(&opening),
                ),
                runtime,
            );
        }
        Streams {
            held,
            _tasks: tasks,
        }
    }

    pub fn held(&self) -> &Held {
        &self.held
    }
}

async fn hold_stream(
    client: reqwest::Client,
    url: Arc<str>,
    token: String,
    held: Arc<Held>,
    opening: Arc<Semaphore>,
) {
    let mut again = false;
    let mut retry = RETRY_FIRST;
    let mut last: i64 = 0;
    loop {
        let answer = {
            let _pace = if again {
                None
            } else {
                opening.acquire().await.ok()
            };
            client
                .get(&*url)
                .query(&[("since", last)])
                .bearer_auth(&token)
                .send()
                .await
        };
        let mut response = match answer {
            Ok(r) if r.status().is_success() => r,
            Ok(r) => {
                let status = r.status();
                let body = r.text().await.unwrap_or_default();
                let hint = if status == StatusCode::TOO_MANY_REQUESTS {
                    " (raise the server's http.max_streams_per_player to at least \
                     --streams-per-player and http.max_streams to at least --idle-streams \
                     plus any other streams open, or lower them here)"
                } else {
                    ""
                };
                held.give_up(format!(
                    "an event stream was refused: {status} {body}{hint}"
                ));
                return;
            }
            Err(_) => {
                held.failure();
                tokio::time::sleep(retry).await;
                retry = (retry * 2).min(RETRY_MOST);
                continue;
            }
        };
        retry = RETRY_FIRST;
        held.opened(again);
        again = true;
        let mut pending = Vec::new();
        while let Ok(Some(chunk)) = response.chunk().await {
            pending.extend_from_slice(&chunk);
            while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=end).collect();
                let Ok(v) = serde_json::from_slice::<Value>(&line) else {
                    continue;
                };
                // An event carries its id; a keep-alive line the last id the server sent.
                if let Some(id) = v.get("id").and_then(Value::as_i64) {
                    last = last.max(id);
                    held.event();
                } else if let Some(id) = v.get("last_id").and_then(Value::as_i64) {
                    last = last.max(id);
                }
            }
        }
        held.closed();
    }
}
