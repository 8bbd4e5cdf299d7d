//! Accessibility checks in the browser tests: axe-core (Deque's rules engine, the npm package
//! `axe-core`) injected into a page, which must show no serious or critical violation.
//!
//! The package is fetched once from registry.npmjs.org at a pinned version into
//! `target/axe-core/`, its tarball checked against the SHA-512 the registry publishes for it
//! (`dist.integrity`), and `package/axe.min.js` unpacked, with the system's `curl` and `tar`. A later run
//! finds the checked copy and needs no network.

#![allow(
    // Test support: a failed step fails the test, with the step named.
    clippy::unwrap_used,
    clippy::expect_used,
)]

use std::path::PathBuf;

use fantoccini::Client;
use sha2::{Digest, Sha512};
use tokio::sync::OnceCell;

/// The pinned version, and the SHA-512 of its tarball (the registry's `dist.integrity`, in hex).
const VERSION: &str = "4.14.1";
const TARBALL_SHA512: &str = "1477dafa598d8d065f273d6af302aa203c02e83131707b7fa648cd41bd3d6b734f\
                              8c22a0dab86ee6a6f64b8afbe804b214d36db85a2826965edfb3a0b9d546b5";

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/axe-core")
        .join(VERSION)
}

/// The text of `axe.min.js`, fetched and checked on first use.
async fn axe_source() -> &'static str {
    static SOURCE: OnceCell<String> = OnceCell::const_new();
    SOURCE
        .get_or_init(|| async {
            tokio::task::spawn_blocking(load)
                .await
                .expect("axe-core loads")
        })
        .await
}

fn load() -> String {
    let dir = folder();
    let tarball = dir.join(format!("axe-core-{VERSION}.tgz"));
    let script = dir.join("package/axe.min.js");
    let checked = std::fs::read(&tarball).is_ok_and(|bytes| sha512_hex(&bytes) == TARBALL_SHA512);
    if !checked {
        std::fs::create_dir_all(&dir).expect("the axe-core folder under target/");
        let url = format!("https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz");
        let bytes = fetch(&url);
        let got = sha512_hex(&bytes);
        assert_eq!(
            got, TARBALL_SHA512,
            "the axe-core {VERSION} tarball from {url} is not the one pinned (SHA-512)"
        );
        std::fs::write(&tarball, &bytes).expect("the tarball is kept under target/");
        let _ = std::fs::remove_file(&script);
    }
    if !script.is_file() {
        let status = std::process::Command::new("tar")
            .arg("-xzf")
            .arg(&tarball)
            .arg("-C")
            .arg(&dir)
            .arg("package/axe.min.js")
            .status()
            .expect("tar runs (the browser tests need it to unpack axe-core)");
        assert!(
            status.success(),
            "tar could not unpack {}",
            tarball.display()
        );
    }
    std::fs::read_to_string(&script).expect("axe.min.js is readable")
}

/// `url`'s body, through the system's `curl` (which trusts the system's certificate store, as
/// a proxy in between may need), in at most a minute.
fn fetch(url: &str) -> Vec<u8> {
    let out = std::process::Command::new("curl")
        .args([
            "--fail",
            "--silent",
            "--show-error",
            "--location",
            "--max-time",
            "60",
        ])
        .arg(url)
        .output()
        .expect("curl runs (the browser tests need it to fetch axe-core once)");
    assert!(
        out.status.success(),
        "axe-core could not be fetched from {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn sha512_hex(bytes: &[u8]) -> String {
    hex::encode(Sha512::digest(bytes))
}

/// Runs axe-core on the page `client` shows (`what` names it) and fails, listing each rule and
/// the elements it found, on any serious or critical violation.
pub async fn assert_accessible(client: &Client, what: &str) {
    let source = axe_source().await;
    // WebDriver's scripts are not bound by the page's Content-Security-Policy.
    client
        .execute(&format!("{source}\n;return true"), vec![])
        .await
        .expect("axe-core loads into the page");
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then((r) => done(r.violations
                 .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .map((v) => `${v.impact} ${v.id}: ${v.help}; at ${v.nodes.slice(0, 5).map((n) => n.target.join(' ')).join(' | ')}`)))
               .catch((e) => done([`axe-core failed: ${e}`]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    let violations: Vec<String> = serde_json::from_value(found).expect("a list of violations");
    assert!(
        violations.is_empty(),
        "{what}: {} serious or critical accessibility violation(s):\n{}",
        violations.len(),
        violations.join("\n")
    );
}
