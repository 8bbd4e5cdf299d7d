//! `taflbot login-link HANDLE`: on the server, a one-time link that signs a player in to the
//! web client, at `http.public_url`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::{Command, Output};

mod cli_support;

use cli_support::service_on;

fn login_link(db: &Path, handle: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["login-link", handle])
        .env("TAFLBOT_DATABASE_PATH", db)
        .env("TAFLBOT_HTTP_PUBLIC_URL", "https://tafl.example.org/")
        .env("RUST_LOG", "off")
        .output()
        .unwrap()
}

#[tokio::test]
async fn login_link_prints_a_link_that_signs_the_player_in_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("taflbot.db");
    let service = service_on(&db);
    let ada = service
        .accounts()
        .register("Ada", None)
        .await
        .unwrap()
        .player;

    let output = login_link(&db, "@Ada");
    assert!(output.status.success(), "{output:?}");
    let url = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    let token = url
        .strip_prefix("https://tafl.example.org/login/")
        .unwrap_or_else(|| panic!("not a link at http.public_url: {url}"));
    let session = service
        .credentials()
        .redeem_login_link(token, None)
        .await
        .unwrap();
    assert_eq!(session.player, ada.id);
    assert!(
        service
            .credentials()
            .redeem_login_link(token, None)
            .await
            .is_err(),
        "used twice"
    );
}

#[tokio::test]
async fn login_link_for_nobody_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("taflbot.db");
    drop(service_on(&db));
    let output = login_link(&db, "nobody");
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("no player has the handle \"nobody\""),
        "{stderr}"
    );
}

#[test]
fn login_link_where_there_is_no_database_refuses_and_creates_none() {
    let dir = tempfile::tempdir().unwrap();
    // Run from a folder without the server's database, its config not named.
    let output = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["login-link", "ada"])
        .current_dir(dir.path())
        .env_remove("TAFLBOT_CONFIG")
        .env_remove("TAFLBOT_DATABASE_PATH")
        .env_remove("TAFLBOT_DATABASE_URL")
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("no database at ./taflbot.db") && stderr.contains("--config"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("taflbot.db").exists(),
        "a database was created"
    );
}

#[tokio::test]
async fn login_link_without_a_public_url_points_at_the_listen_address_as_serve_does() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("taflbot.db");
    let service = service_on(&db);
    service.accounts().register("Ada", None).await.unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_taflbot"))
        .args(["login-link", "ada"])
        .env("TAFLBOT_DATABASE_PATH", &db)
        .env_remove("TAFLBOT_HTTP_PUBLIC_URL")
        // Bound to every address: the link names this machine's loopback, which opens.
        .env("TAFLBOT_HTTP_LISTEN", "0.0.0.0:9187")
        .env("RUST_LOG", "off")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let url = String::from_utf8(output.stdout).unwrap();
    assert!(url.starts_with("http://127.0.0.1:9187/login/"), "{url}");
}
