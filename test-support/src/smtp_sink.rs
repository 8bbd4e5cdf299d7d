//! A local SMTP server for tests: it speaks enough SMTP (RFC 5321 without extensions: EHLO,
//! MAIL, RCPT, DATA, RSET, NOOP, QUIT) to accept every message and keep it, so a test reads
//! what was mailed. [`SmtpSink::silent`] accepts connections and never answers: a dead mail
//! server, whose clients must give up by their own timeouts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// A message as the sink received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    /// The envelope's sender and recipients, without the angle brackets.
    pub from: String,
    pub to: Vec<String>,
    /// The message as sent after `DATA` (headers, blank line, body; dot-stuffing undone).
    pub data: String,
}

impl ReceivedMail {
    /// The value of header `name` (any case), its folded lines joined.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let mut value: Option<String> = None;
        let mut found = false;
        for line in head.split("\r\n") {
            if line.starts_with([' ', '\t']) {
                if found && let Some(v) = value.as_mut() {
                    v.push_str(line.trim_start());
                }
                continue;
            }
            if found {
                break;
            }
            if let Some((key, rest)) = line.split_once(':')
                && key.eq_ignore_ascii_case(name)
            {
                value = Some(rest.trim().to_owned());
                found = true;
            }
        }
        value
    }

    /// The body: what follows the headers.
    pub fn body(&self) -> &str {
        self.data
            .split_once("\r\n\r\n")
            .map_or("", |(_, body)| body)
    }

    /// The body's text, quoted-printable undone when the message says it is so encoded.
    pub fn body_text(&self) -> String {
        let quoted = self
            .header("Content-Transfer-Encoding")
            .is_some_and(|e| e.eq_ignore_ascii_case("quoted-printable"));
        if !quoted {
            return self.body().to_owned();
        }
        let joined = self.body().replace("=\r\n", "");
        let bytes = joined.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match (bytes[i], hex) {
                (b'=', Some(byte)) => {
                    out.push(byte);
                    i += 3;
                }
                (byte, _) => {
                    out.push(byte);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// The server: listening on 127.0.0.1 until dropped.
pub struct SmtpSink {
    addr: std::net::SocketAddr,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
    connections: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

/// Lines longer than this end the connection (a test sink, not a mail server).
const MAX_LINE: usize = 100_000;
/// A connection idle this long is closed.
const IDLE: Duration = Duration::from_secs(60);

impl SmtpSink {
    /// A sink that accepts every message.
    pub async fn start() -> SmtpSink {
        SmtpSink::listen(true).await
    }

    /// A mail server that accepts connections and never says a word.
    pub async fn silent() -> SmtpSink {
        SmtpSink::listen(false).await
    }

    async fn listen(answers: bool) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|e| panic!("the SMTP sink cannot listen: {e}"));
        let addr = listener
            .local_addr()
            .unwrap_or_else(|e| panic!("the SMTP sink has no address: {e}"));
        let received = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let (kept, counted) = (received.clone(), connections.clone());
        let task = tokio::spawn(async move {
            let mut silent = Vec::new();
            while let Ok((stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                if answers {
                    tokio::spawn(converse(stream, kept.clone()));
                } else {
                    // Held open, unanswered, until the sink stops.
                    silent.push(stream);
                }
            }
        });
        SmtpSink {
            addr,
            received,
            connections,
            task,
        }
    }

    /// `smtp://127.0.0.1:PORT`: plain SMTP, as `mail.smtp_url` takes it.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Every message received so far, in order.
    pub fn received(&self) -> Vec<ReceivedMail> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn converse(stream: TcpStream, received: Arc<Mutex<Vec<ReceivedMail>>>) {
    let _ = tokio::time::timeout(IDLE * 10, session(stream, received)).await;
}

async fn session(
    stream: TcpStream,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    write
        .write_all(b"220 sink.test ESMTP test sink\r\n")
        .await?;
    let mut from = String::new();
    let mut to = Vec::new();
    loop {
        let Some(line) = read_line(&mut lines).await? else {
            return Ok(());
        };
        let verb = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-sink.test\r\n250 8BITMIME\r\n",
            "HELO" | "NOOP" => b"250 OK\r\n",
            "MAIL" => {
                from = path_of(&line);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(path_of(&line));
                b"250 OK\r\n"
            }
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "DATA" => {
                write.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await?;
                let Some(data) = read_data(&mut lines).await? else {
                    return Ok(());
                };
                if let Ok(mut kept) = received.lock() {
                    kept.push(ReceivedMail {
                        from: from.clone(),
                        to: to.clone(),
                        data,
                    });
                }
                b"250 OK queued\r\n"
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 command not implemented\r\n",
        };
        write.write_all(reply).await?;
    }
}

/// One line without its CRLF; `None` at the end of the connection or when idle too long.
async fn read_line(
    lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
) -> std::io::Result<Option<String>> {
    let mut line = String::new();
    match tokio::time::timeout(IDLE, lines.read_line(&mut line)).await {
        Ok(Ok(0)) | Err(_) => Ok(None),
        Ok(Ok(n)) if n > MAX_LINE => Ok(None),
        Ok(Ok(_)) => Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned())),
        Ok(Err(e)) => Err(e),
    }
}

/// The message after `DATA`, up to the line holding a lone dot.
async fn read_data(
    lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
) -> std::io::Result<Option<String>> {
    let mut data = String::new();
    loop {
        let Some(line) = read_line(lines).await? else {
            return Ok(None);
        };
        if line == "." {
            return Ok(Some(data));
        }
        data.push_str(line.strip_prefix('.').unwrap_or(&line));
        data.push_str("\r\n");
    }
}

/// The address between `<` and `>` of `MAIL FROM:<...>` or `RCPT TO:<...>`.
fn path_of(line: &str) -> String {
    line.split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map_or_else(String::new, |(path, _)| path.to_owned())
}
