//! `taflbot serve`'s logs as an operator meets them: JSON lines when asked, never colour codes
//! in a file or a pipe, and a log output that cannot be written never stops the service.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a test waits for the server before failing loudly.
const WAIT: Duration = Duration::from_secs(30);

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(dir: &tempfile::TempDir, listen: &str, format: &str, stdout: Stdio) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .arg("serve")
        .env_remove("RUST_LOG")
        .env("TAFLBOT_DATABASE_PATH", dir.path().join("taflbot.db"))
        .env("TAFLBOT_HTTP_LISTEN", listen)
        .env("TAFLBOT_LOG_FORMAT", format)
        .env("TAFLBOT_LOG_FILTER", "info")
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    Server(child)
}

/// The lines the server writes up to the "listening" line.
fn lines_until_listening(server: &mut Server) -> Vec<String> {
    let stdout = server.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + WAIT;
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no \"listening\" line after {WAIT:?}; saw {lines:#?}"));
        let done = line.contains("listening");
        lines.push(line);
        if done {
            return lines;
        }
    }
}

#[test]
fn json_logs_are_one_object_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(&dir, "127.0.0.1:0", "json", Stdio::piped());
    let lines = lines_until_listening(&mut server);
    for line in &lines {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(value["level"].is_string(), "{line}");
    }
}

#[test]
fn logs_into_a_pipe_carry_no_colour_codes() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(&dir, "127.0.0.1:0", "auto", Stdio::piped());
    let lines = lines_until_listening(&mut server);
    assert!(
        lines.iter().all(|l| !l.contains('\u{1b}')),
        "escape codes in {lines:#?}"
    );
}

#[test]
fn a_log_that_cannot_be_written_does_not_stop_the_service() {
    let dir = tempfile::tempdir().unwrap();
    // A free port for the server (it cannot tell us which one: its log goes nowhere).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut server = serve(
        &dir,
        &format!("127.0.0.1:{port}"),
        "text",
        Stdio::from(full),
    );
    let url = format!("http://127.0.0.1:{port}/api/v1/health");
    let deadline = Instant::now() + WAIT;
    loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("the server stopped ({status}) when its log could not be written");
        }
        let answer = std::net::TcpStream::connect(("127.0.0.1", port))
            .ok()
            .and_then(|mut s| {
                use std::io::{Read, Write};
                write!(s, "GET /api/v1/health HTTP/1.0\r\nHost: x\r\n\r\n").ok()?;
                let mut text = String::new();
                s.read_to_string(&mut text).ok()?;
                Some(text)
            });
        if answer
            .as_deref()
            .is_some_and(|a| a.starts_with("HTTP/1.0 200"))
        {
            return;
        }
        assert!(Instant::now() < deadline, "{url} never answered 200");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_start_up_log_shows_the_web_clients_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = serve(&dir, "127.0.0.1:0", "json", Stdio::piped());
    let lines = lines_until_listening(&mut server);
    let listening = lines.last().unwrap();
    let value: serde_json::Value = serde_json::from_str(listening).unwrap();
    let message = value.to_string();
    // The real port, not 0, for the web client and the API.
    assert!(
        message.contains("the web client at http://127.0.0.1:")
            && message.contains("/api/v1")
            && !message.contains("127.0.0.1:0/"),
        "{listening}"
    );
}
