//! The webhook endpoints of `bench http`: dead ones (`--slow-webhooks`), which accept
//! connections and never answer, and probes (`--webhook-probes`), which answer 200 at once and
//! note how long each event took from its commit (`created_at`) to its arrival. The probes'
//! latency during the move load is what a player whose endpoint works sees beside the dead
//! ones.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// Largest delivery read: an event is a few hundred bytes.
const MOST_BYTES: usize = 256 * 1024;

/// (created_at, arrived) of each delivery, in ms since the epoch.
type Arrivals = Arc<Mutex<Vec<(i64, i64)>>>;

pub struct Endpoints {
    pub dead: SocketAddr,
    pub probe: SocketAddr,
    arrivals: Arrivals,
    _tasks: JoinSet<()>,
}

/// The probes' delivery latency.
#[derive(Debug, Clone)]
pub struct DeliveryReport {
    pub delivered: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Endpoints {
    pub async fn start() -> anyhow::Result<Endpoints> {
        let dead = TcpListener::bind("127.0.0.1:0").await?;
        let probe = TcpListener::bind("127.0.0.1:0").await?;
        let (dead_addr, probe_addr) = (dead.local_addr()?, probe.local_addr()?);
        let arrivals: Arrivals = Arc::default();
        let mut tasks = JoinSet::new();
        tasks.spawn(async move {
            while let Ok((stream, _)) = dead.accept().await {
                tokio::spawn(never_answer(stream));
            }
        });
        let noted = Arc::clone(&arrivals);
        tasks.spawn(async move {
            while let Ok((stream, _)) = probe.accept().await {
                tokio::spawn(answer_and_note(stream, Arc::clone(&noted)));
            }
        });
        Ok(Endpoints {
            dead: dead_addr,
            probe: probe_addr,
            arrivals,
            _tasks: tasks,
        })
    }

    /// The latency of the events created from `from_ms` to `to_ms` that arrived.
    pub fn report(&self, from_ms: i64, to_ms: i64) -> DeliveryReport {
        let mut latencies: Vec<u64> = self
            .arrivals
            .lock()
            .map(|a| {
                a.iter()
                    .filter(|(created, _)| (from_ms..=to_ms).contains(created))
                    .map(|(created, arrived)| u64::try_from(arrived - created).unwrap_or(0) * 1000)
                    .collect()
            })
            .unwrap_or_default();
        latencies.sort_unstable();
        DeliveryReport {
            delivered: latencies.len(),
            p50_ms: crate::percentile(&latencies, 50.0),
            p99_ms: crate::percentile(&latencies, 99.0),
            max_ms: crate::percentile(&latencies, 100.0),
        }
    }
}

/// Reads what comes and answers nothing, until the sender gives up.
async fn never_answer(mut stream: TcpStream) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buf).await {
        if n == 0 {
            break;
        }
    }
}

/// Reads one request, answers 200 and closes; notes the event's `created_at`.
async fn answer_and_note(mut stream: TcpStream, arrivals: Arrivals) {
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    let body = loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
        if got.len() > MOST_BYTES {
            return;
        }
        let Some(end) = got.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&got[..end]).to_ascii_lowercase();
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok())
            .unwrap_or(0);
        if got.len() >= end + 4 + length {
            break got[end + 4..end + 4 + length].to_vec();
        }
    };
    let arrived = now_ms();
    let _ = stream
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .await;
    let created = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|event| event["created_at"].as_i64());
    if let (Some(created), Ok(mut arrivals)) = (created, arrivals.lock()) {
        arrivals.push((created, arrived));
    }
}
