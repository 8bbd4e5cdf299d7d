//! Connections that never finish a request are closed, and at the connection cap the server
//! still answers the connections it holds (bounded counts, 127.0.0.1 only).

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::TestApp;

/// How long a test waits for what it expects before failing loudly.
const WAIT: Duration = Duration::from_secs(10);

async fn connect(app: &TestApp) -> TcpStream {
    let addr = app.base.trim_start_matches("http://").to_owned();
    TcpStream::connect(addr).await.unwrap()
}

/// Reads until the server closes the connection; fails if it does not within [`WAIT`].
async fn closed_by_server(stream: &mut TcpStream, why: &str) {
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "{why}: still open after {WAIT:?}");
}

/// Sends a whole `GET /api/v1/health` and reads the answer's status line.
async fn health_on(stream: &mut TcpStream) -> String {
    stream
        .write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: test\r\n\r\n")
        .await
        .unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(WAIT, stream.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn requests_whose_headers_never_arrive_and_idle_connections_are_closed() {
    let app = TestApp::start_with(|c| c.http.header_read_timeout_ms = 300).await;

    let mut silent = connect(&app).await;
    let mut half = connect(&app).await;
    half.write_all(b"POST /api/v1/players HTTP/1.1\r\nHost: te")
        .await
        .unwrap();
    let mut idle = connect(&app).await;
    assert_eq!(health_on(&mut idle).await, "HTTP/1.1 200 OK");

    closed_by_server(&mut silent, "a connection that sent nothing").await;
    closed_by_server(&mut half, "a request whose headers stopped half way").await;
    closed_by_server(&mut idle, "an idle keep-alive connection").await;
}

#[tokio::test]
async fn at_the_connection_cap_open_connections_are_served_and_new_ones_wait() {
    let app = TestApp::start_with(|c| c.http.max_connections = 2).await;
    let idle = connect(&app).await;
    let mut served = connect(&app).await;
    assert_eq!(health_on(&mut served).await, "HTTP/1.1 200 OK");

    // A third connection waits in the backlog: its request is not read yet.
    let mut waiting = connect(&app).await;
    waiting
        .write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: test\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 64];
    let early = tokio::time::timeout(Duration::from_millis(300), waiting.read(&mut buf)).await;
    assert!(early.is_err(), "answered beyond the cap");
    // The held connection still answers at the cap.
    assert_eq!(health_on(&mut served).await, "HTTP/1.1 200 OK");

    // One leaves: the waiting one is served.
    drop(idle);
    let n = tokio::time::timeout(WAIT, waiting.read(&mut buf))
        .await
        .expect("served once a place is free")
        .unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
}
