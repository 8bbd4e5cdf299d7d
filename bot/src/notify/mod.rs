//! Notifications to the outside world: webhook deliveries from the transactional outbox, to
//! targets checked against the server's own network.

mod signature;
mod target;
mod webhooks;

pub use signature::{SIGNATURE_HEADER, TIMESTAMP_HEADER, sign, verify};
pub use target::{BadAllowEntry, CheckedTarget, TargetError, TargetPolicy, forbidden_kind};
pub use webhooks::{DeliveryWorker, EVENT_ID_HEADER};
