//! Notifications to the outside world: webhook deliveries from the transactional outbox.

mod signature;
mod webhooks;

pub use signature::{SIGNATURE_HEADER, TIMESTAMP_HEADER, sign, verify};
pub use webhooks::{DeliveryWorker, EVENT_ID_HEADER};
