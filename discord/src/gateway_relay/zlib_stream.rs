//! Discord's `compress=zlib-stream` transport compression, read on the relay's connection to
//! Discord: every payload of a connection is part of one zlib stream, sent as binary frames; a
//! payload is whole once a frame ends with the sync-flush suffix `00 00 ff ff`. Serenity is
//! given the payloads as plain text frames (it reads those as it does from Discord without
//! compression), so only the relay and Discord exchange the compressed bytes.

use flate2::{Decompress, FlushDecompress, Status};

/// What ends each whole payload's compressed bytes (zlib's sync flush).
const SYNC_FLUSH_SUFFIX: [u8; 4] = [0x00, 0x00, 0xff, 0xff];
/// The largest payload inflated; Discord's largest (a big guild's GUILD_CREATE) are a few MiB.
const MAX_PAYLOAD: usize = 64 * 1024 * 1024;
/// The largest compressed payload waited for across frames.
const MAX_PENDING: usize = 16 * 1024 * 1024;
/// Room added to the output at a time.
const CHUNK: usize = 32 * 1024;

/// Why a connection's compressed stream cannot be read on.
#[derive(Debug, thiserror::Error)]
pub enum ZlibStreamError {
    #[error("the gateway's zlib stream is corrupt: {0}")]
    Corrupt(#[from] flate2::DecompressError),
    #[error("the gateway's zlib stream stopped with input left")]
    Stalled,
    #[error("a gateway payload is larger than {MAX_PAYLOAD} bytes")]
    TooLarge,
    #[error("a gateway payload is not UTF-8 text")]
    NotText,
}

/// One connection's zlib context and the compressed bytes of a payload not yet whole.
pub(super) struct ZlibStream {
    inflate: Decompress,
    pending: Vec<u8>,
}

impl ZlibStream {
    pub(super) fn new() -> ZlibStream {
        ZlibStream {
            inflate: Decompress::new(true),
            pending: Vec::new(),
        }
    }

    /// Takes one binary frame: the payload it completes, or `None` while it needs more frames.
    pub(super) fn push(&mut self, frame: &[u8]) -> Result<Option<String>, ZlibStreamError> {
        self.pending.extend_from_slice(frame);
        if self.pending.len() > MAX_PENDING {
            return Err(ZlibStreamError::TooLarge);
        }
        if !self.pending.ends_with(&SYNC_FLUSH_SUFFIX) {
            return Ok(None);
        }
        let compressed = std::mem::take(&mut self.pending);
        let payload = self.inflate(&compressed)?;
        String::from_utf8(payload)
            .map(Some)
            .map_err(|_| ZlibStreamError::NotText)
    }

    fn inflate(&mut self, mut input: &[u8]) -> Result<Vec<u8>, ZlibStreamError> {
        let mut out = Vec::with_capacity(input.len().saturating_mul(4).min(MAX_PAYLOAD));
        loop {
            if out.capacity() - out.len() < CHUNK {
                out.reserve(CHUNK);
            }
            let (read_before, written_before) = (self.inflate.total_in(), out.len());
            let status = self
                .inflate
                .decompress_vec(input, &mut out, FlushDecompress::Sync)?;
            let read = usize::try_from(self.inflate.total_in() - read_before)
                .unwrap_or(input.len())
                .min(input.len());
            input = &input[read..];
            if out.len() > MAX_PAYLOAD {
                return Err(ZlibStreamError::TooLarge);
            }
            let room_left = out.len() < out.capacity();
            if status == Status::StreamEnd || (input.is_empty() && room_left) {
                return Ok(out);
            }
            if read == 0 && out.len() == written_before {
                return if input.is_empty() {
                    Ok(out)
                } else {
                    Err(ZlibStreamError::Stalled)
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{Compress, Compression, FlushCompress};

    /// Discord's side: one context, each payload sync-flushed.
    fn compressed(context: &mut Compress, payload: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload.len() + 1024);
        let mut input = payload.as_bytes();
        loop {
            let before = context.total_in();
            context
                .compress_vec(input, &mut out, FlushCompress::Sync)
                .unwrap();
            input = &input[usize::try_from(context.total_in() - before).unwrap()..];
            if input.is_empty() && out.len() < out.capacity() {
                return out;
            }
            out.reserve(1024);
        }
    }

    #[test]
    fn payloads_of_one_stream_come_out_whole_even_split_over_frames() {
        let mut discord = Compress::new(Compression::default(), true);
        let mut relay = ZlibStream::new();
        let hello = r#"{"op":10,"d":{"heartbeat_interval":41250}}"#;
        assert_eq!(
            relay
                .push(&compressed(&mut discord, hello))
                .unwrap()
                .as_deref(),
            Some(hello)
        );
        // The second payload leans on the first's dictionary: one context for the connection.
        let big = format!(
            r#"{{"op":0,"t":"GUILD_CREATE","d":"{}"}}"#,
            "x".repeat(200_000)
        );
        let bytes = compressed(&mut discord, &big);
        let (head, tail) = bytes.split_at(bytes.len() / 2);
        assert_eq!(relay.push(head).unwrap(), None, "half a payload waits");
        assert_eq!(relay.push(tail).unwrap().as_deref(), Some(big.as_str()));
        assert!(
            bytes.len() * 50 < big.len(),
            "{} bytes for {}",
            bytes.len(),
            big.len()
        );
    }

    #[test]
    fn a_corrupt_stream_is_an_error_not_a_panic() {
        let mut relay = ZlibStream::new();
        let mut garbage = vec![0x12, 0x34, 0x56, 0x78, 0x9a];
        garbage.extend_from_slice(&SYNC_FLUSH_SUFFIX);
        assert!(relay.push(&garbage).is_err());
    }
}
