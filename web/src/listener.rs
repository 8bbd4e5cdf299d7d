//! The HTTP server's accept loop. axum's `serve` has no limits, so a few thousand clients that
//! open connections and never finish a request could run the process out of file descriptors
//! and leave every endpoint unanswered. Here:
//! - a request's headers must arrive within `http.header_read_timeout_ms`, and a keep-alive
//!   connection idle that long is closed (hyper's header read timer runs while it waits); each
//!   connection gets between half and all of it, at random (see [`jittered`]);
//! - at most `http.max_connections` connections are open (below the file-descriptor limit,
//!   which is raised to its hard maximum at start): at the cap, new connections wait in the
//!   kernel's backlog while those open are served;
//! - one address holds at most `http.max_connections_per_address` of them
//!   ([`AddressSlots`]); a connection beyond is closed as soon as it is accepted, so one client
//!   with thousands of unfinished requests cannot take the places everyone else needs;
//! - on shutdown, no new connection is accepted and the requests in flight finish;
//! - the kernel's queue of connections not yet accepted is [`BACKLOG`] long, not tokio's
//!   1024: when many clients connect at once (the header read timeout closing thousands of
//!   half-open connections that all come back), a full queue drops their handshakes and each
//!   waits a second or more to retry.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{Semaphore, watch};
use tower::ServiceExt;

use super::TrustedProxies;
use super::address_slots::AddressSlots;

/// Descriptors kept for the database, logs and outgoing requests.
const DESCRIPTORS_KEPT: u64 = 128;
/// How long requests in flight may take to finish at shutdown.
const DRAIN: Duration = Duration::from_secs(30);

/// Connections the kernel completes and queues before they are accepted; it caps this at
/// `net.core.somaxconn` (4096 by default since Linux 5.4).
pub const BACKLOG: u32 = 4096;

/// Listens on `addr` with a [`BACKLOG`] long queue.
pub fn listen(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As tokio's own bind does: a restarted server can take its port back at once, even with
    // the last run's connections still in TIME_WAIT.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The limits of the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    /// Connections one address (an IPv6 peer by its /64) may hold open; trusted proxies are
    /// not counted.
    pub max_per_address: usize,
    pub header_read_timeout: Duration,
}

impl ConnectionLimits {
    /// `wanted` connections, lowered to what the file-descriptor limit allows (raised first to
    /// its hard maximum where the system lets us).
    pub fn fitted(
        wanted: usize,
        max_per_address: usize,
        header_read_timeout: Duration,
    ) -> ConnectionLimits {
        let descriptors = match rlimit::increase_nofile_limit(u64::MAX) {
            Ok(limit) => limit,
            Err(e) => {
                tracing::warn!("cannot read or raise the file-descriptor limit: {e}");
                u64::MAX
            }
        };
        let fits =
            usize::try_from(descriptors.saturating_sub(DESCRIPTORS_KEPT)).unwrap_or(usize::MAX);
        let max_connections = wanted.min(fits).max(1);
        if max_connections < wanted {
            tracing::warn!(
                wanted,
                max_connections,
                descriptors,
                "http.max_connections lowered to fit the file-descriptor limit"
            );
        }
        ConnectionLimits {
            max_connections,
            max_per_address,
            header_read_timeout,
        }
    }
}

/// Serves `router` on `listener` until `shutdown` turns true, then drains. Each request
/// carries its connection's address (`ConnectInfo`) and its client's ([`ClientAddr`](super::ClientAddr), from
/// `X-Forwarded-For` when the connection is from one of `proxies`).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    proxies: Arc<TrustedProxies>,
    mut shutdown: watch::Receiver<bool>,
) {
    // HTTP/1 only: sniffing for HTTP/2 would wait for a silent client's first bytes with no
    // timer at all, and nothing here needs cleartext HTTP/2.
    let mut http1 = hyper::server::conn::http1::Builder::new();
    http1
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let per_address = Arc::new(AddressSlots::new(limits.max_per_address));
    let mut seed = getrandom::u64().unwrap_or(0x9E37_79B9_7F4A_7C15) | 1;
    let graceful = GracefulShutdown::new();
    loop {
        // A place first: at the cap, connections wait in the backlog, not in our memory.
        let place = tokio::select! {
            place = Arc::clone(&open).acquire_owned() => match place {
                Ok(place) => place,
                Err(_) => break,
            },
            () = stopped(&mut shutdown) => break,
        };
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors or a client that left: wait a moment, go on.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = stopped(&mut shutdown) => break,
        };
        // The connection's own address: nothing of the request has been read yet. A trusted
        // proxy speaks for many clients and is left to the global cap.
        let address_slot = if proxies.trusts(remote.ip()) {
            None
        } else {
            match per_address.take(remote.ip()) {
                Some(slot) => Some(slot),
                None => {
                    metrics::counter!(crate::telemetry::HTTP_CONNECTIONS_REFUSED).increment(1);
                    tracing::debug!(%remote, "connection refused: its address holds its share");
                    // Dropped unanswered: its place (`place`) goes back at once.
                    continue;
                }
            }
        };
        let router = router.clone();
        let proxies = Arc::clone(&proxies);
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            let client = proxies.client(remote.ip(), request.headers());
            request.extensions_mut().insert(client);
            request.extensions_mut().insert(ConnectInfo(remote));
            router.clone().oneshot(request.map(axum::body::Body::new))
        });
        let mut http1 = http1.clone();
        http1.header_read_timeout(jittered(limits.header_read_timeout, &mut seed));
        let connection = http1.serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%remote, "connection ended: {e}");
            }
            drop(address_slot);
            drop(place);
        });
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("requests still in flight after {DRAIN:?}; stopping anyway");
    }
}

/// Between half and all of `timeout`, at random. Connections opened together (thousands at
/// once by a client that reopens each as soon as it is closed) are then not all closed
/// together: a storm of closes and reconnects in one instant stalls every other request while
/// it lasts, the same work spread over seconds does not.
fn jittered(timeout: Duration, seed: &mut u64) -> Duration {
    // xorshift64: a connection's timeout needs no better randomness than this.
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let fraction = (*seed >> 11) as f64 / (1u64 << 53) as f64;
    timeout.mul_f64(0.5 + 0.5 * fraction)
}

/// Resolves once `shutdown` turns true (or its sender is gone).
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jittered_timeouts_lie_between_half_and_all_and_are_spread() {
        let timeout = Duration::from_secs(5);
        let mut seed = 1;
        let drawn: Vec<Duration> = (0..1000).map(|_| jittered(timeout, &mut seed)).collect();
        assert!(drawn.iter().all(|d| *d >= timeout / 2 && *d <= timeout));
        // Connections opened together must not all be closed together: the draws cover the
        // range, not one corner of it.
        let early = drawn.iter().filter(|d| **d < timeout * 3 / 4).count();
        assert!(
            (300..700).contains(&early),
            "{early} of 1000 in the first half"
        );
    }
}
