//! Turn notices by mail, for players away from the browser (docs/web.md, "Turn notices by
//! mail"): a player gives an address and confirms it by a mailed link, may set quiet hours,
//! and from then on, when it becomes their turn in a game between people and they have not
//! been on the web since, gets one mail per game per turn, held back through quiet hours, at
//! most `max_per_hour` a hour (several games in one mail).
//!
//! - `subscriptions.rs`: the address, its confirmation link, quiet hours, unsubscribing;
//! - `address.rs`: what an address must be (a form mail is delivered to: no address literal);
//! - `turn_notices.rs`: a notice owed, written with the move that made it (the one move
//!   path's transaction), and the pass that turns the notices due into mails;
//! - `presence.rs`: when a player was last on the web (pages, an open tab);
//! - `outbox.rs`: the mails waiting, claimed, sent or retried with back-off, given up;
//! - `compose.rs`, `quiet_hours.rs`: the words of a mail, the quiet hours' arithmetic.
//!
//! Sending is `notify/src/mail_delivery.rs`'s, over SMTP, apart from every move: a slow or dead
//! SMTP server delays only mail.

mod address;
mod compose;
mod outbox;
mod presence;
pub mod quiet_hours;
mod subscriptions;
pub(crate) mod turn_notices;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use tokio::sync::Notify;

use crate::backoff::Backoff;
use crate::domain::PlayerId;

use super::GamesService;

pub use outbox::OutgoingMail;
pub use presence::PRESENCE_EVERY_MS;
pub use subscriptions::MailSubscriptionView;

/// Turn notices by mail: addresses, notices owed, the mail outbox.
#[derive(Clone, Copy)]
pub struct Mail<'s> {
    pub(super) service: &'s GamesService,
}

/// How mail works here, from `[mail]` (set once at start; absent: mail is off).
#[derive(Debug, Clone)]
pub struct MailSettings {
    /// Where the mails' links point (no trailing `/`).
    pub base_url: String,
    /// How long after a turn began a player who has not been on the web is mailed.
    pub away_ms: i64,
    pub max_per_hour: u32,
    pub confirm_link_ms: i64,
    pub confirmations_per_day: u32,
    pub max_attempts: u32,
    pub retry: Backoff,
    pub max_queued: u64,
    /// How long a claim on a mail stands (no other instance sends it meanwhile): longer than
    /// sending a claimed batch can take.
    pub claim_ms: i64,
}

/// What the service keeps for mail between requests.
#[derive(Default)]
pub(crate) struct MailState {
    settings: OnceLock<MailSettings>,
    /// When each player's presence was last written, on this instance (see `presence.rs`).
    seen_written: Mutex<HashMap<PlayerId, i64>>,
    /// Woken when a mail is queued to go at once (a confirmation link).
    queued: Notify,
}

impl<'s> Mail<'s> {
    fn state(&self) -> &'s MailState {
        &self.service.inner.mail
    }

    /// Turns mail on with `settings` (once; later calls change nothing).
    pub fn enable(&self, settings: MailSettings) {
        let _ = self.state().settings.set(settings);
    }

    /// The settings, when mail is on.
    pub fn settings(&self) -> Option<&'s MailSettings> {
        self.state().settings.get()
    }

    /// Wakes the delivery worker when a mail is queued to go at once.
    pub fn queued(&self) -> &'s Notify {
        &self.state().queued
    }
}
