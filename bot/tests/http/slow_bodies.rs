//! One address sending request bodies a byte at a time (or never) cannot keep anyone else from
//! being served: it holds at most `http.max_connections_per_address` connections, each for
//! `http.body_timeout_ms` at most. The attacker's connections come from 127.0.0.2 (Linux
//! routes all of 127/8 to loopback), the served client from 127.0.0.1.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::common::TestApp;

/// How long a test waits for what it expects before failing loudly.
const WAIT: Duration = Duration::from_secs(10);

const ATTACKER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

fn server_addr(app: &TestApp) -> SocketAddr {
    app.base.trim_start_matches("http://").parse().unwrap()
}

/// A connection from `from` that sends a registration's headers announcing a 60,000-byte
/// body, and one byte of it.
async fn slow_body_from(from: IpAddr, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut stream = socket.connect(to).await.unwrap();
    // The server may close a connection beyond the cap before or while this is written.
    let _ = stream
        .write_all(
            b"POST /api/v1/players HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
              Content-Length: 60000\r\n\r\n{",
        )
        .await;
    stream
}

/// What the server sends before it closes `stream`; fails if it stays open past [`WAIT`].
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(
        closed.is_ok(),
        "a slow body's connection still open after {WAIT:?}"
    );
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test]
async fn slow_bodies_from_one_address_leave_another_address_served() {
    let app = TestApp::start_with(|c| {
        c.http.max_connections = 40;
        c.http.max_connections_per_address = 10;
        c.http.body_timeout_ms = 1_500;
    })
    .await;
    let to = server_addr(&app);
    // More unfinished bodies than the server has places.
    let mut slow = Vec::new();
    for _ in 0..60 {
        slow.push(slow_body_from(ATTACKER, to).await);
    }

    let client = reqwest::Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .build()
        .unwrap();
    let served = tokio::time::timeout(
        Duration::from_secs(5),
        client.get(format!("{}/api/v1/health", app.base)).send(),
    )
    .await
    .expect("another address is served while one holds slow bodies")
    .unwrap();
    assert_eq!(served.status(), 200);

    // Every slow body's connection is closed: those beyond the address's share at once, the
    // others once their body's time is up, with a 408.
    let mut answered_408 = 0;
    for stream in &mut slow {
        let said = read_until_closed(stream).await;
        if said.starts_with("HTTP/1.1 408") {
            answered_408 += 1;
        } else {
            assert!(said.is_empty(), "unexpected answer: {said}");
        }
    }
    assert!(
        (1..=10).contains(&answered_408),
        "{answered_408} connections got a 408; at most the address's 10 were held"
    );
}

#[tokio::test]
async fn a_body_that_never_ends_is_answered_408_and_its_connection_closed() {
    let app = TestApp::start_with(|c| c.http.body_timeout_ms = 300).await;
    let started = std::time::Instant::now();
    let mut stream = slow_body_from(IpAddr::V4(Ipv4Addr::LOCALHOST), server_addr(&app)).await;
    let said = read_until_closed(&mut stream).await;
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    assert!(said.contains("request_timeout"), "{said}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "closed only after {:?}",
        started.elapsed()
    );
}
