//! Notifications to the outside world: webhook deliveries from the transactional outbox, to
//! targets checked against the server's own network (`crate::webhook_target`, shared with the
//! service, which checks a webhook's URL when it is registered).

mod signature;
mod webhooks;

pub use signature::{SIGNATURE_HEADER, TIMESTAMP_HEADER, sign, verify};
pub use webhooks::{DeliveryWorker, EVENT_ID_HEADER};
