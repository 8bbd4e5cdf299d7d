//! Notifications to the outside world: webhook deliveries from the transactional outbox, to
//! targets checked against the server's own network (`crate::webhook_target`, shared with the
//! service, which checks a webhook's URL when it is registered). `dispatch.rs` decides which
//! delivery goes when (endpoints never wait for each other), `breaker.rs` leaves a failing
//! endpoint alone for a while, `webhooks.rs` sends one delivery. `mail_delivery.rs` sends the
//! mail outbox (turn notices, confirmation links) over SMTP.

use taflbot_config as config;
use taflbot_config::backoff;
use taflbot_config::logging;
use taflbot_config::telemetry;
use taflbot_domain as domain;
use taflbot_domain::webhook_target;
use taflbot_service as service;

mod breaker;
mod dispatch;
mod mail_delivery;
mod signature;
mod webhooks;

pub use dispatch::DeliveryWorker;
pub use mail_delivery::{MAILS_PER_PASS, MailWorker};
pub use signature::{SIGNATURE_HEADER, TIMESTAMP_HEADER, sign, verify};
pub use webhooks::EVENT_ID_HEADER;
