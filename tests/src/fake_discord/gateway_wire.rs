//! How the fake gateway puts payloads on the wire: JSON text frames, or, for a connection whose
//! URL asks for `compress=zlib-stream`, Discord's transport compression: one zlib context for
//! the connection, each payload sync-flushed (so it ends with `00 00 ff ff`) and sent as binary
//! frames, a large one split over two frames as Discord may. The bytes of payloads and of what
//! went on the wire are counted, for tests of the bandwidth.

use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{Message, WebSocket};
use flate2::{Compress, Compression, FlushCompress};
use serde_json::Value;

/// A compressed payload larger than this goes out in two frames.
const SPLIT_ABOVE: usize = 8 * 1024;

/// Bytes the gateway sent: payloads as JSON, and what went on the wire for them.
#[derive(Default)]
pub(crate) struct WireCounts {
    payload: AtomicU64,
    wire: AtomicU64,
}

impl WireCounts {
    /// (payload bytes, wire bytes) sent so far.
    pub fn get(&self) -> (u64, u64) {
        (
            self.payload.load(Ordering::Relaxed),
            self.wire.load(Ordering::Relaxed),
        )
    }

    fn add(&self, payload: usize, wire: usize) {
        let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        self.payload.fetch_add(count(payload), Ordering::Relaxed);
        self.wire.fetch_add(count(wire), Ordering::Relaxed);
    }
}

/// Whether a gateway URL's query asks for zlib-stream compression.
pub(crate) fn asks_for_zlib_stream(query: Option<&str>) -> bool {
    query.is_some_and(|query| query.split('&').any(|pair| pair == "compress=zlib-stream"))
}

/// One connection's way of sending payloads.
pub(crate) struct Wire {
    /// The connection's zlib context, when it asked for compression.
    deflate: Option<Compress>,
}

impl Wire {
    pub fn new(zlib_stream: bool) -> Wire {
        Wire {
            deflate: zlib_stream.then(|| Compress::new(Compression::default(), true)),
        }
    }

    /// Sends `frame`; `false` once the connection is gone.
    pub async fn send(
        &mut self,
        socket: &mut WebSocket,
        counts: &WireCounts,
        frame: &Value,
    ) -> bool {
        let text = frame.to_string();
        let Some(context) = self.deflate.as_mut() else {
            counts.add(text.len(), text.len());
            return socket.send(Message::Text(text.into())).await.is_ok();
        };
        let Some(bytes) = deflate(context, text.as_bytes()) else {
            return false;
        };
        counts.add(text.len(), bytes.len());
        let (first, second) = if bytes.len() > SPLIT_ABOVE {
            bytes.split_at(bytes.len() / 2)
        } else {
            (bytes.as_slice(), &[][..])
        };
        for part in [first, second].into_iter().filter(|part| !part.is_empty()) {
            let message = Message::Binary(axum::body::Bytes::copy_from_slice(part));
            if socket.send(message).await.is_err() {
                return false;
            }
        }
        true
    }
}

/// `payload` through the connection's context, sync-flushed; `None` if zlib fails.
fn deflate(context: &mut Compress, payload: &[u8]) -> Option<Vec<u8>> {
    // Deflate never grows data by more than a few bytes per block: this always fits.
    let mut out = Vec::with_capacity(payload.len() + 1024);
    let mut input = payload;
    loop {
        let before = context.total_in();
        context
            .compress_vec(input, &mut out, FlushCompress::Sync)
            .ok()?;
        let read = usize::try_from(context.total_in() - before).ok()?;
        input = input.get(read..)?;
        if input.is_empty() && out.len() < out.capacity() {
            return Some(out);
        }
        out.reserve(1024);
    }
}
