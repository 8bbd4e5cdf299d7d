//! Sends the mail outbox over SMTP (lettre): each pass makes the turn notices due into mails
//! (`service.mail().make_due_mails()`), claims the mails due and sends them one by one, each
//! attempt bounded by `mail.timeout_ms`. It runs apart from every request: a slow or dead
//! SMTP server delays only mail. A refusal the server calls permanent (an unknown mailbox)
//! gives the mail up at once; anything else is retried with back-off.

use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tokio::sync::watch;

use crate::config::{ConfigError, MailConfig};
use crate::service::GamesService;
use crate::service::mail::OutgoingMail;

/// Mails claimed in one pass (their claim outlasts sending them all, each at its timeout).
pub const MAILS_PER_PASS: u32 = 10;

const LIST_UNSUBSCRIBE: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe");
const LIST_UNSUBSCRIBE_POST: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe-Post");

/// The worker: one per instance, while mail is on.
pub struct MailWorker {
    service: GamesService,
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    poll: Duration,
    timeout: Duration,
}

/// Why one attempt failed, and whether to try again.
struct Failure {
    reason: String,
    permanent: bool,
}

impl MailWorker {
    pub fn new(service: GamesService, config: &MailConfig) -> Result<MailWorker, ConfigError> {
        let timeout = Duration::from_millis(config.timeout_ms.max(1));
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(config.smtp_url.trim())
            .map_err(|e| ConfigError::Invalid(format!("mail.smtp_url: {e}")))?
            .timeout(Some(timeout))
            .build();
        let from = config
            .from
            .trim()
            .parse()
            .map_err(|e| ConfigError::Invalid(format!("mail.from {:?}: {e}", config.from)))?;
        Ok(MailWorker {
            service,
            transport,
            from,
            poll: Duration::from_millis(config.poll_interval_ms.max(1)),
            timeout,
        })
    }

    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        loop {
            if self.pass(&mut shutdown).await.is_err() {
                return;
            }
            tokio::select! {
                () = tokio::time::sleep(self.poll) => {}
                () = self.service.mail().queued().notified() => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    /// One pass; `Err` when the app is stopping.
    async fn pass(&self, shutdown: &mut watch::Receiver<bool>) -> Result<(), ()> {
        let mail = self.service.mail();
        if let Err(e) = mail.make_due_mails().await {
            tracing::warn!("turn notices not made into mails: {e}");
        }
        let due = match mail.claim_due(MAILS_PER_PASS).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!("mails due not read: {e}");
                return Ok(());
            }
        };
        for outgoing in due {
            let attempt = tokio::time::timeout(self.timeout, self.send(&outgoing));
            let outcome = tokio::select! {
                outcome = attempt => outcome,
                _ = shutdown.changed() => return Err(()),
            };
            let recorded = match outcome {
                Ok(Ok(())) => mail.sent(&outgoing).await,
                Ok(Err(failure)) => {
                    tracing::info!(mail = %outgoing.id, "mail not sent: {}", failure.reason);
                    mail.failed(&outgoing, &failure.reason, failure.permanent)
                        .await
                }
                Err(_) => {
                    mail.failed(&outgoing, "the SMTP server did not answer in time", false)
                        .await
                }
            };
            if let Err(e) = recorded {
                tracing::warn!(mail = %outgoing.id, "a mail's outcome was not recorded: {e}");
            }
        }
        Ok(())
    }

    async fn send(&self, outgoing: &OutgoingMail) -> Result<(), Failure> {
        let message = message(&self.from, outgoing).map_err(|reason| Failure {
            reason,
            permanent: true,
        })?;
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| Failure {
                permanent: e.is_permanent(),
                reason: e.to_string(),
            })
    }
}

/// The message: plain text, with `List-Unsubscribe` (RFC 2369) and its one-click form
/// (RFC 8058) on turn notices. Header values are encoded by lettre (no line break of a value
/// can start a header); the subject was made on one line (`service/src/mail/compose.rs`).
fn message(from: &Mailbox, outgoing: &OutgoingMail) -> Result<Message, String> {
    let to: Mailbox = outgoing
        .address
        .parse()
        .map_err(|e| format!("the address {:?} is not valid: {e}", outgoing.address))?;
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to)
        .subject(outgoing.subject.clone())
        .header(ContentType::TEXT_PLAIN);
    if let Some(url) = &outgoing.unsubscribe_url {
        builder = builder
            .raw_header(HeaderValue::new(LIST_UNSUBSCRIBE, format!("<{url}>")))
            .raw_header(HeaderValue::new(
                LIST_UNSUBSCRIBE_POST,
                "List-Unsubscribe=One-Click".to_owned(),
            ));
    }
    builder
        .body(outgoing.body.clone())
        .map_err(|e| format!("the mail was not made: {e}"))
}
