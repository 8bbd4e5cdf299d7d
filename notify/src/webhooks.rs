//! One delivery: the event POSTed to its webhook, signed, and the attempt recorded: done on a
//! 2xx answer, else retried with exponential backoff until `max_attempts`. A delivery is marked
//! done only after a 2xx answer, so every event arrives at least once; receivers deduplicate
//! by the stable event id in `X-Taflbot-Event-Id` (also the body's `id`). Which deliveries
//! go when, beside which others, is the dispatcher's (`dispatch.rs`).
//!
//! Before each attempt the target is checked again (`TargetPolicy`) against what its host
//! resolves to now, and the request connects to exactly the addresses checked, with no proxy
//! and no redirect followed: a webhook cannot be turned towards the server's own network.

use std::time::Duration;

use crate::backoff::Backoff;
use crate::config::WebhooksConfig;
use crate::service::{GamesService, ServiceError, WebhookDelivery};

use super::signature::{SIGNATURE_HEADER, TIMESTAMP_HEADER, sign};
use crate::webhook_target::{CheckedTarget, TargetPolicy};

pub const EVENT_ID_HEADER: &str = "x-taflbot-event-id";

/// How one delivery went.
#[derive(Debug)]
pub(super) struct Attempt {
    /// The endpoint answered 2xx.
    pub(super) delivered: bool,
    /// Whether the attempt was written down.
    pub(super) recorded: Result<(), ServiceError>,
}

pub(super) fn retry_policy(config: &WebhooksConfig) -> Backoff {
    Backoff::new(
        Duration::from_millis(config.initial_backoff_ms),
        Duration::from_millis(config.max_backoff_ms),
    )
}

/// `webhooks.give_up_after_secs` in milliseconds (0: never).
fn give_up_after_ms(config: &WebhooksConfig) -> i64 {
    i64::try_from(config.give_up_after_secs.saturating_mul(1000)).unwrap_or(i64::MAX)
}

/// Milliseconds until the retry after `attempts_done` failed tries.
fn backoff_ms(config: &WebhooksConfig, attempts_done: u32) -> i64 {
    let wait = retry_policy(config).wait(attempts_done);
    i64::try_from(wait.as_millis()).unwrap_or(i64::MAX / 2)
}

/// Sends `d` and records the attempt.
pub(super) async fn deliver(
    policy: &TargetPolicy,
    service: &GamesService,
    config: &WebhooksConfig,
    d: WebhookDelivery,
) -> Attempt {
    let Some(event) = d.event else {
        let recorded = service.webhooks().abandon(d.id, "event missing").await;
        // Not the endpoint's failure: it was never asked.
        return Attempt {
            delivered: true,
            recorded,
        };
    };
    let body = match serde_json::to_vec(&event) {
        Ok(body) => body,
        Err(e) => {
            return Attempt {
                delivered: true,
                recorded: Err(ServiceError::internal(e)),
            };
        }
    };
    let timestamp = service.now_ms() / 1000;
    let result = match checked_client(policy, config, &d.url).await {
        Ok((url, client)) => {
            let outcome = client
                .post(url)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .header(EVENT_ID_HEADER, event.id.to_string())
                .header(TIMESTAMP_HEADER, timestamp.to_string())
                .header(SIGNATURE_HEADER, sign(&d.secret, timestamp, &body))
                .body(body)
                .send()
                .await;
            match outcome {
                Ok(r) if r.status().is_success() => Ok(()),
                Ok(r) => Err(format!("answered {}", r.status())),
                Err(e) => Err(format!("request failed: {e}")),
            }
        }
        Err(e) => Err(e),
    };
    let retry_at = (d.attempts + 1 < config.max_attempts)
        .then(|| service.now_ms() + backoff_ms(config, d.attempts));
    if let Err(e) = &result {
        tracing::info!(delivery = %d.id, url = %d.url, attempt = d.attempts + 1, error = %e, "webhook delivery failed");
    }
    let delivered = result.is_ok();
    Attempt {
        delivered,
        recorded: service
            .webhooks()
            .attempted(d.id, result, retry_at, give_up_after_ms(config))
            .await,
    }
}

/// Checks `url` against `policy` as its host resolves now, and gives a client that connects
/// only to the addresses checked. The error is the delivery's recorded failure.
async fn checked_client(
    policy: &TargetPolicy,
    config: &WebhooksConfig,
    url: &str,
) -> Result<(reqwest::Url, reqwest::Client), String> {
    let url = reqwest::Url::parse(url).map_err(|e| format!("bad url: {e}"))?;
    let target = policy
        .check_with_system_resolver(&url)
        .await
        .map_err(|e| format!("refused: {e}"))?;
    let client =
        pinned_client(config, &target).map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    Ok((url, client))
}

/// A client for one delivery: `target`'s domain resolves to the checked addresses only (an
/// address in the URL is connected to as it is), through no proxy, following no redirect.
fn pinned_client(
    config: &WebhooksConfig,
    target: &CheckedTarget,
) -> reqwest::Result<reqwest::Client> {
    let mut builder = reqwest::Client::builder()
        .timeout(Duration::from_millis(config.timeout_ms.max(1)))
        .user_agent(concat!("taflbot/", env!("CARGO_PKG_VERSION")))
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    if let Some(domain) = &target.domain {
        builder = builder.resolve_to_addrs(domain, &target.addrs);
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a failed unwrap is a failed test")]

    use super::*;

    /// A local server: `/` answers 200, `/away` redirects to `/`.
    async fn local_server() -> std::net::SocketAddr {
        let app = axum::Router::new()
            .route("/", axum::routing::get(|| async { "here" }))
            .route(
                "/away",
                axum::routing::get(|| async { axum::response::Redirect::temporary("/") }),
            );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        addr
    }

    #[tokio::test]
    async fn a_delivery_connects_to_the_checked_address_and_follows_no_redirect() {
        let addr = local_server().await;
        // `rebind.test` resolves nowhere: the request can only arrive through the pin.
        let target = CheckedTarget {
            domain: Some("rebind.test".into()),
            addrs: vec![addr],
        };
        let client = pinned_client(&WebhooksConfig::default(), &target).unwrap();
        let port = addr.port();
        let here = client
            .get(format!("http://rebind.test:{port}/"))
            .send()
            .await
            .unwrap();
        assert_eq!(here.text().await.unwrap(), "here");
        let away = client
            .get(format!("http://rebind.test:{port}/away"))
            .send()
            .await
            .unwrap();
        assert!(away.status().is_redirection(), "{}", away.status());
    }

    #[tokio::test]
    async fn a_target_refused_now_is_not_contacted() {
        let policy = TargetPolicy::default();
        let config = WebhooksConfig::default();
        let err = checked_client(&policy, &config, "https://127.0.0.1:9/hook")
            .await
            .unwrap_err();
        assert!(err.starts_with("refused: "), "{err}");
        assert!(err.contains("127.0.0.1, a loopback address"), "{err}");
    }

    #[test]
    fn backoff_follows_the_configured_policy() {
        let config = WebhooksConfig {
            initial_backoff_ms: 100,
            max_backoff_ms: 1000,
            ..WebhooksConfig::default()
        };
        let policy = retry_policy(&config);
        assert_eq!(policy.ceiling(1), Duration::from_millis(200));
        assert_eq!(policy.ceiling(40), Duration::from_millis(1000));
        for tries in [0, 1, 3, 40] {
            let ms = backoff_ms(&config, tries);
            assert!(
                (0..=policy.ceiling(tries).as_millis() as i64).contains(&ms),
                "{ms}"
            );
        }
    }
}
