//! Webhook signatures: `X-Taflbot-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`
//! with the Unix timestamp (seconds) in `X-Taflbot-Timestamp`. Signing the timestamp lets
//! a receiver refuse replays of old deliveries.

use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const SIGNATURE_HEADER: &str = "x-taflbot-signature";
pub const TIMESTAMP_HEADER: &str = "x-taflbot-timestamp";

type HmacSha256 = Hmac<Sha256>;

fn mac(secret: &str, timestamp: i64, body: &[u8]) -> HmacSha256 {
    // HMAC takes keys of any length, so this cannot fail.
    let mut mac = match HmacSha256::new_from_slice(secret.as_bytes()) {
        Ok(m) => m,
        Err(_) => unreachable!("HMAC accepts any key length"),
    };
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The signature header value for a delivery.
pub fn sign(secret: &str, timestamp: i64, body: &[u8]) -> String {
    format!(
        "sha256={}",
        hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
    )
}

/// Checks a signature header value in constant time.
pub fn verify(secret: &str, timestamp: i64, body: &[u8], header: &str) -> bool {
    let Some(hex_sig) = header.strip_prefix("sha256=") else {
        return false;
    };
    let Ok(sig) = hex::decode(hex_sig) else {
        return false;
    };
    mac(secret, timestamp, body).verify_slice(&sig).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_with_its_secret_timestamp_and_body() {
        let sig = sign("s3cret-key", 1700000000, b"{\"id\":1}");
        assert!(verify("s3cret-key", 1700000000, b"{\"id\":1}", &sig));
        assert!(!verify("other-key", 1700000000, b"{\"id\":1}", &sig));
        assert!(!verify("s3cret-key", 1700000001, b"{\"id\":1}", &sig));
        assert!(!verify("s3cret-key", 1700000000, b"{\"id\":2}", &sig));
        assert!(!verify(
            "s3cret-key",
            1700000000,
            b"{\"id\":1}",
            "sha256=zz"
        ));
    }
}
