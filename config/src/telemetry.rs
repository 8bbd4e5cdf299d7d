//! Prometheus metrics through the `metrics` facade. The recorder is installed once per process
//! (several apps in one test process share it); `GET /metrics` renders it.

use std::sync::OnceLock;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

pub const HTTP_REQUESTS: &str = "taflbot_http_requests_total";
pub const HTTP_DURATION: &str = "taflbot_http_request_duration_seconds";
pub const MOVES: &str = "taflbot_moves_total";
pub const GAMES_STARTED: &str = "taflbot_games_started_total";
pub const GAMES_ENDED: &str = "taflbot_games_ended_total";
pub const AI_THINK: &str = "taflbot_ai_think_seconds";
pub const OUTBOX_PENDING: &str = "taflbot_outbox_pending";
pub const ENGINE_WAITING: &str = "taflbot_engine_waiting";
pub const DISCORD_POST_FAILURES: &str = "taflbot_discord_post_failures_total";
pub const DISCORD_POSTS_GIVEN_UP: &str = "taflbot_discord_posts_given_up_total";
pub const LOG_LINES_DROPPED: &str = "taflbot_log_lines_dropped_total";
pub const HTTP_CONNECTIONS_REFUSED: &str = "taflbot_http_connections_refused_total";
pub const WEBHOOK_CIRCUITS_OPENED: &str = "taflbot_webhook_circuits_opened_total";
pub const MAILS_SENT: &str = "taflbot_mails_sent_total";
pub const MAIL_FAILURES: &str = "taflbot_mail_failures_total";
pub const MAILS_GIVEN_UP: &str = "taflbot_mails_given_up_total";

/// Latency buckets, in seconds: from a cached read to a slow AI move.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use; `None` if another recorder was installed.
pub fn handle() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let recorder = match PrometheusBuilder::new().set_buckets(BUCKETS) {
                Ok(builder) => builder.build_recorder(),
                Err(e) => {
                    tracing::warn!("metrics off: {e}");
                    return None;
                }
            };
            let handle = recorder.handle();
            if let Err(e) = metrics::set_global_recorder(recorder) {
                tracing::warn!("metrics off: {e}");
                return None;
            }
            describe();
            Some(handle)
        })
        .as_ref()
}

fn describe() {
    describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route, method and status"
    );
    describe_histogram!(
        HTTP_DURATION,
        metrics::Unit::Seconds,
        "HTTP request latency by route"
    );
    describe_counter!(
        HTTP_CONNECTIONS_REFUSED,
        "connections closed at once because their address held http.max_connections_per_address"
    );
    describe_counter!(
        WEBHOOK_CIRCUITS_OPENED,
        "times a webhook endpoint failed webhooks.breaker_failures times in a row and was left alone for a while"
    );
    describe_counter!(
        MAILS_SENT,
        "mails the SMTP server took, by kind (confirmation, turns)"
    );
    describe_counter!(
        MAIL_FAILURES,
        "failed attempts at sending a mail (each is retried with back-off)"
    );
    describe_counter!(MAILS_GIVEN_UP, "mails given up after mail.max_attempts");
    describe_counter!(MOVES, "moves played, by who played them (player or ai)");
    describe_counter!(GAMES_STARTED, "games started");
    describe_counter!(GAMES_ENDED, "games ended, by reason");
    describe_histogram!(
        AI_THINK,
        metrics::Unit::Seconds,
        "time the AI took for a move"
    );
    describe_gauge!(
        ENGINE_WAITING,
        "searches (AI turns, hints, analysis positions) waiting for a worker"
    );
    describe_gauge!(
        OUTBOX_PENDING,
        "posts and deliveries not yet made, by outbox"
    );
    describe_counter!(
        DISCORD_POST_FAILURES,
        "failed tries of Discord posts, by kind of failure"
    );
    describe_counter!(
        DISCORD_POSTS_GIVEN_UP,
        "Discord posts given up after their tries"
    );
    describe_counter!(
        LOG_LINES_DROPPED,
        "log lines dropped because the output could not take them"
    );
}

/// One answered HTTP request.
pub fn http_request(route: String, method: String, status: u16, seconds: f64) {
    counter!(HTTP_REQUESTS, "route" => route.clone(), "method" => method.clone(), "status" => status.to_string())
        .increment(1);
    histogram!(HTTP_DURATION, "route" => route, "method" => method).record(seconds);
}
