//! `taflbot-bench http` holds what it is asked to through the move load (event streams and
//! half-open connections, opened again whenever the server closes one), and a stream the
//! server refuses fails the run instead of being quietly left out.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::service::ManualClock;
use taflbot::store::params;
use taflbot_bench::{self as bench, BenchCommand, Cli, HalfOpen, HttpBenchArgs};

/// How long a test waits for what it expects before failing loudly.
const WAIT: Duration = Duration::from_secs(10);
/// A whole (short) bench run, setup included.
const RUN: Duration = Duration::from_secs(60);

/// The real app as the bench runs it in-process by default (`server_config`), on a temporary
/// database file, with a stopped clock and no scheduler.
struct TestApp {
    app: RunningApp,
    base: String,
    _dir: tempfile::TempDir,
}

impl TestApp {
    async fn start() -> TestApp {
        TestApp::start_with(|_| {}).await
    }

    async fn start_with(tweak: impl FnOnce(&mut Config)) -> TestApp {
        let dir = tempfile::tempdir().unwrap();
        let mut config = bench::server_config(&bench_args(&[]));
        config.database.path = dir.path().join("taflbot.db");
        // Keep-alive lines on the held streams during the run too.
        config.http.stream_keepalive_secs = 1;
        tweak(&mut config);
        let options = AppOptions {
            clock: Arc::new(ManualClock::new(1_700_000_000_000)),
            picker: None,
            scheduler: false,
        };
        let app = RunningApp::start(config, options).await.unwrap();
        TestApp {
            base: app.base_url().unwrap(),
            app,
            _dir: dir,
        }
    }

    fn service(&self) -> &taflbot::service::GamesService {
        &self.app.service
    }
}

fn bench_args(words: &[&str]) -> HttpBenchArgs {
    let line = ["taflbot-bench", "http"].iter().chain(words);
    match Cli::try_parse_from(line).unwrap().what {
        BenchCommand::Http(args) => args,
        other => panic!("`http` parsed as {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_http_holds_its_streams_and_half_open_connections_through_the_load() {
    // A header read timeout far beyond the run: nothing held is closed, so the counts are exact.
    let app = TestApp::start_with(|c| c.http.header_read_timeout_ms = 600_000).await;
    let args = bench_args(&[
        "--url",
        &app.base,
        "--games",
        "2",
        "--rate",
        "40",
        "--secs",
        "1",
        "--board-clients",
        "0",
        "--idle-streams",
        "3",
        "--streams-per-player",
        "2",
        "--half-open",
        "3",
    ]);
    let report = tokio::time::timeout(RUN, bench::load(&args, std::slice::from_ref(&app.base)))
        .await
        .expect("the bench run ends")
        .unwrap();
    assert!(report.accepted > 0, "{report:?}");
    assert_eq!(report.errors, 0);

    let streams = report.streams.expect("streams were held");
    assert_eq!((streams.at_start, streams.at_end, streams.min), (3, 3, 3));
    assert_eq!(streams.closed, 0);
    assert_eq!(streams.events, 0, "streams of players in no game stay idle");
    let half_open = report.half_open.expect("half-open connections were held");
    assert_eq!(
        (half_open.at_start, half_open.at_end, half_open.min),
        (3, 3, 3)
    );
}

/// With `--idempotency-keys`, every accepted move is stored under its key.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_http_can_send_every_move_with_an_idempotency_key() {
    let app = TestApp::start().await;
    let args = bench_args(&[
        "--url",
        &app.base,
        "--games",
        "2",
        "--rate",
        "40",
        "--secs",
        "1",
        "--board-clients",
        "0",
        "--idempotency-keys",
    ]);
    let report = tokio::time::timeout(RUN, bench::load(&args, std::slice::from_ref(&app.base)))
        .await
        .expect("the bench run ends")
        .unwrap();
    assert!(report.accepted > 0, "{report:?}");
    assert_eq!(report.errors, 0);
    let stored: i64 = app
        .service()
        .store()
        .read(|c| {
            c.query_one("SELECT COUNT(*) FROM idempotency_keys", params![], |r| {
                r.get(0)
            })
        })
        .await
        .unwrap();
    assert_eq!(stored as u64, report.accepted);
}

#[tokio::test]
async fn half_open_connections_the_server_closes_are_opened_again() {
    let app = TestApp::start_with(|c| c.http.header_read_timeout_ms = 200).await;
    let addr = app.base.trim_start_matches("http://").parse().unwrap();
    let half_open = HalfOpen::start(&tokio::runtime::Handle::current(), addr, "test", 3);
    let held = half_open.held();
    held.wait_for(3, WAIT, "half-open connections")
        .await
        .unwrap();
    held.start_run();

    let mut counts = held.watch();
    tokio::time::timeout(WAIT, counts.wait_for(|c| c.reopened >= 6))
        .await
        .expect("connections closed by the header read timeout are opened again")
        .unwrap();
    held.wait_for(3, WAIT, "half-open connections")
        .await
        .unwrap();
    let report = held.end_run().unwrap();
    assert_eq!(report.at_start, 3);
    assert!(report.closed >= 6, "{report:?}");
    assert!(report.reopened >= 6, "{report:?}");
}

#[tokio::test]
async fn a_stream_the_server_refuses_fails_the_run_naming_the_limits() {
    let app = TestApp::start_with(|c| c.http.max_streams_per_player = 1).await;
    let args = bench_args(&[
        "--url",
        &app.base,
        "--games",
        "1",
        "--secs",
        "1",
        "--board-clients",
        "0",
        "--idle-streams",
        "2",
        "--streams-per-player",
        "2",
    ]);
    let error = tokio::time::timeout(RUN, bench::load(&args, std::slice::from_ref(&app.base)))
        .await
        .expect("the bench run ends")
        .unwrap_err();
    let text = format!("{error:#}");
    assert!(text.contains("429"), "{text}");
    assert!(text.contains("http.max_streams_per_player"), "{text}");
}
