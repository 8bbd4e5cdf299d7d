//! Discord signs every interaction it sends to an Interactions Endpoint URL: an Ed25519
//! signature, by the application's key, of the `X-Signature-Timestamp` header followed by the
//! raw body. A request whose signature does not verify is answered 401, which Discord itself
//! checks before it accepts the URL.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ring::signature::{ED25519, UnparsedPublicKey};

/// How far a signed timestamp may be from now: a captured request replayed later is refused.
pub const TIMESTAMP_TOLERANCE: Duration = Duration::from_secs(300);

/// The application's public key (Developer Portal, General Information: "Public Key").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey([u8; 32]);

/// Why a key or a request was refused, in the operator's and Discord's terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error(
        "the public key must be 64 hexadecimal digits (32 bytes), as the Developer Portal shows it"
    )]
    BadKey,
    #[error("missing X-Signature-Ed25519 or X-Signature-Timestamp header")]
    Missing,
    #[error("invalid request signature")]
    Invalid,
    #[error("the signed timestamp is too far from now")]
    Stale,
}

impl PublicKey {
    pub fn parse(text: &str) -> Result<PublicKey, SignatureError> {
        let bytes = hex::decode(text.trim()).map_err(|_| SignatureError::BadKey)?;
        let key: [u8; 32] = bytes.try_into().map_err(|_| SignatureError::BadKey)?;
        Ok(PublicKey(key))
    }

    /// Checks `signature` (hex) over `timestamp` and `body`, and that `timestamp` (Unix
    /// seconds) is within [`TIMESTAMP_TOLERANCE`] of `now`.
    pub fn verify(
        &self,
        signature: &str,
        timestamp: &str,
        body: &[u8],
        now: SystemTime,
    ) -> Result<(), SignatureError> {
        let signature = hex::decode(signature.trim()).map_err(|_| SignatureError::Invalid)?;
        let mut signed = Vec::with_capacity(timestamp.len() + body.len());
        signed.extend_from_slice(timestamp.as_bytes());
        signed.extend_from_slice(body);
        UnparsedPublicKey::new(&ED25519, &self.0)
            .verify(&signed, &signature)
            .map_err(|_| SignatureError::Invalid)?;
        let signed_at: u64 = timestamp
            .trim()
            .parse()
            .map_err(|_| SignatureError::Invalid)?;
        let now = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
        if now.abs_diff(signed_at) > TIMESTAMP_TOLERANCE.as_secs() {
            return Err(SignatureError::Stale);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use ring::signature::{Ed25519KeyPair, KeyPair};

    use super::*;

    fn pair() -> Ed25519KeyPair {
        Ed25519KeyPair::from_seed_unchecked(&[7u8; 32]).unwrap()
    }

    fn key_of(pair: &Ed25519KeyPair) -> PublicKey {
        PublicKey::parse(&hex::encode(pair.public_key().as_ref())).unwrap()
    }

    fn sign(pair: &Ed25519KeyPair, timestamp: &str, body: &[u8]) -> String {
        let mut signed = timestamp.as_bytes().to_vec();
        signed.extend_from_slice(body);
        hex::encode(pair.sign(&signed).as_ref())
    }

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn a_request_signed_by_the_key_verifies() {
        let pair = pair();
        let body = br#"{"type":1}"#;
        let signature = sign(&pair, "1700000000", body);
        assert_eq!(
            key_of(&pair).verify(&signature, "1700000000", body, at(1_700_000_010)),
            Ok(())
        );
    }

    #[test]
    fn a_changed_body_timestamp_or_key_does_not_verify() {
        let pair = pair();
        let body = br#"{"type":1}"#;
        let signature = sign(&pair, "1700000000", body);
        let key = key_of(&pair);
        let now = at(1_700_000_000);
        assert_eq!(
            key.verify(&signature, "1700000000", br#"{"type":2}"#, now),
            Err(SignatureError::Invalid)
        );
        assert_eq!(
            key.verify(&signature, "1700000001", body, now),
            Err(SignatureError::Invalid)
        );
        let other = Ed25519KeyPair::from_seed_unchecked(&[8u8; 32]).unwrap();
        assert_eq!(
            key_of(&other).verify(&signature, "1700000000", body, now),
            Err(SignatureError::Invalid)
        );
        assert_eq!(
            key.verify("zz", "1700000000", body, now),
            Err(SignatureError::Invalid)
        );
    }

    #[test]
    fn a_replayed_request_is_stale() {
        let pair = pair();
        let body = br#"{"type":1}"#;
        let signature = sign(&pair, "1700000000", body);
        assert_eq!(
            key_of(&pair).verify(&signature, "1700000000", body, at(1_700_000_000 + 301)),
            Err(SignatureError::Stale)
        );
    }

    #[test]
    fn keys_that_are_not_32_bytes_of_hex_are_refused() {
        for bad in ["", "abc", &"0".repeat(62), &"g".repeat(64), &"0".repeat(66)] {
            assert_eq!(
                PublicKey::parse(bad),
                Err(SignatureError::BadKey),
                "{bad:?}"
            );
        }
        assert!(PublicKey::parse(&"ab".repeat(32)).is_ok());
    }
}
