//! Everything the bot sent to the fake, in order, with the status the fake answered; the problems
//! the fake found; and a way for tests to wait for a request that stops at the first problem.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Notify;

/// A file the bot uploaded with a request.
#[derive(Debug, Clone)]
pub struct RecordedAttachment {
    /// The multipart field name, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
}

impl RecordedAttachment {
    pub fn is_png(&self) -> bool {
        self.bytes.starts_with(b"\x89PNG\r\n\x1a\n")
    }
}

/// What a request was for, read off its route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteKind {
    /// `POST /interactions/{id}/{token}/callback`
    InteractionCallback { interaction_id: u64, token: String },
    /// `POST /webhooks/{app}/{token}` (an interaction follow-up)
    Followup { token: String },
    /// `PATCH /webhooks/{app}/{token}/messages/{@original|id}`
    EditResponse { token: String, message: String },
    /// `POST /channels/{id}/messages`
    ChannelMessage { channel_id: u64 },
    /// `PATCH /channels/{id}/messages/{message_id}`
    ChannelMessageEdit { channel_id: u64, message_id: u64 },
    /// `POST /channels/{id}/threads`: a thread created under `channel_id`.
    ThreadCreate { channel_id: u64 },
    /// `PATCH /channels/{id}`: a channel or thread changed (archived, locked, name).
    ChannelEdit { channel_id: u64 },
    /// `POST /users/@me/channels`: a direct-message channel opened.
    DmOpen,
    /// Application command registration (global or guild).
    CommandRegistration,
    /// Any other route the fake knows (gateway URL, users/@me...).
    Other,
    /// A route the fake does not know: answered 404.
    Unknown,
}

impl RouteKind {
    /// The channel a message is posted to or edited in, for channel routes.
    pub fn channel_id(&self) -> Option<u64> {
        match self {
            RouteKind::ChannelMessage { channel_id }
            | RouteKind::ChannelMessageEdit { channel_id, .. } => Some(*channel_id),
            _ => None,
        }
    }
}

/// One request the bot made, as the fake saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Position in the recording (0-based).
    pub index: usize,
    pub method: String,
    pub path: String,
    pub kind: RouteKind,
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Option<Value>,
    pub attachments: Vec<RecordedAttachment>,
    /// The message the fake stored for this request, when it created or edited one.
    pub message: Option<Value>,
    pub at: Instant,
    /// The HTTP status the fake answered: 2xx accepted, anything else refused (scripted faults,
    /// limits, late or doubled interaction answers, missing permissions...); 0 for a request
    /// held unanswered ([`super::faults::Hold::Never`]).
    pub status: u16,
    /// Discord's JSON error code when the request was refused (e.g. 50035, 10062, 50013).
    pub error_code: Option<u64>,
}

impl Recorded {
    /// Whether the fake accepted the request (a 2xx answer).
    pub fn accepted(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The interaction token this request answers, when it answers one.
    pub fn interaction_token(&self) -> Option<&str> {
        match &self.kind {
            RouteKind::InteractionCallback { token, .. }
            | RouteKind::Followup { token }
            | RouteKind::EditResponse { token, .. } => Some(token),
            _ => None,
        }
    }

    /// Whether this request answers the interaction with this token (callback, follow-up, edit).
    pub fn answers(&self, token: &str) -> bool {
        self.interaction_token() == Some(token)
    }

    /// The interaction callback type (4 = message, 5 = deferred, 7 = update, 8 = autocomplete...).
    pub fn callback_type(&self) -> Option<u64> {
        match self.kind {
            RouteKind::InteractionCallback { .. } => self.json.as_ref()?.get("type")?.as_u64(),
            _ => None,
        }
    }

    /// The message fields of the payload: `data` of a callback, the body of anything else.
    pub fn message_payload(&self) -> Option<&Value> {
        let json = self.json.as_ref()?;
        match self.kind {
            RouteKind::InteractionCallback { .. } => json.get("data"),
            _ => Some(json),
        }
    }

    /// The text content the bot sent (empty when none).
    pub fn content(&self) -> &str {
        self.message_payload()
            .and_then(|p| p.get("content"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// Content plus embed titles, descriptions and field texts: everything a person reads.
    pub fn text(&self) -> String {
        let mut text = self.content().to_owned();
        let embeds = self
            .message_payload()
            .and_then(|p| p.get("embeds"))
            .and_then(Value::as_array);
        for embed in embeds.into_iter().flatten() {
            for key in ["title", "description"] {
                if let Some(s) = embed.get(key).and_then(Value::as_str) {
                    text.push('\n');
                    text.push_str(s);
                }
            }
            for field in embed
                .get("fields")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for key in ["name", "value"] {
                    if let Some(s) = field.get(key).and_then(Value::as_str) {
                        text.push('\n');
                        text.push_str(s);
                    }
                }
            }
            if let Some(s) = embed.pointer("/footer/text").and_then(Value::as_str) {
                text.push('\n');
                text.push_str(s);
            }
        }
        text
    }

    /// Whether the message is only visible to the user who acted (flag 64): as sent, or as
    /// stored (an edit that settled a private deferral carries no flags of its own).
    pub fn is_ephemeral(&self) -> bool {
        [self.message_payload(), self.message.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|m| m.get("flags").and_then(Value::as_u64))
            .any(|f| f & 64 != 0)
    }

    /// The custom_id of the first button whose id starts with `prefix`.
    pub fn button_starting_with(&self, prefix: &str) -> Option<String> {
        self.button_ids()
            .into_iter()
            .find(|id| id.starts_with(prefix))
    }

    /// The custom ids of the buttons on the message.
    pub fn button_ids(&self) -> Vec<String> {
        let rows = self
            .message_payload()
            .and_then(|p| p.get("components"))
            .and_then(Value::as_array);
        rows.into_iter()
            .flatten()
            .filter_map(|row| row.get("components").and_then(Value::as_array))
            .flatten()
            .filter_map(|c| {
                c.get("custom_id")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect()
    }

    /// The first string select menu on the message: its custom id and its options' values.
    pub fn select_menu(&self) -> Option<(String, Vec<String>)> {
        let rows = self
            .message_payload()
            .and_then(|p| p.get("components"))
            .and_then(Value::as_array)?;
        let select = rows
            .iter()
            .filter_map(|row| row.get("components").and_then(Value::as_array))
            .flatten()
            .find(|c| c.get("type").and_then(Value::as_u64) == Some(3))?;
        let id = select.get("custom_id")?.as_str()?.to_owned();
        let values = select
            .get("options")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|o| o.get("value").and_then(Value::as_str).map(str::to_owned))
            .collect();
        Some((id, values))
    }

    /// The descriptions (alt text) the payload gives its attachments, in order.
    pub fn attachment_descriptions(&self) -> Vec<String> {
        self.message_payload()
            .and_then(|p| p.get("attachments"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|a| {
                a.get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            })
            .collect()
    }

    /// The autocomplete choices offered (callback type 8), as `(name, value)`.
    pub fn choices(&self) -> Vec<(String, String)> {
        let choices = self
            .message_payload()
            .and_then(|p| p.get("choices"))
            .and_then(Value::as_array);
        choices
            .into_iter()
            .flatten()
            .map(|c| {
                let name = c
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let value = match c.get("value") {
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                (name, value)
            })
            .collect()
    }

    pub fn png_attachments(&self) -> impl Iterator<Item = &RecordedAttachment> {
        self.attachments.iter().filter(|a| a.is_png())
    }

    fn summary(&self) -> String {
        let mut line = format!("#{} {} {}", self.index, self.method, self.path);
        if let Some(t) = self.callback_type() {
            line.push_str(&format!(" type={t}"));
        }
        let text = self.text();
        if !text.is_empty() {
            let short: String = text.chars().take(160).collect();
            line.push_str(&format!(" text={short:?}"));
        }
        for a in &self.attachments {
            line.push_str(&format!(" [{} {} bytes]", a.filename, a.bytes.len()));
        }
        if self.kind == RouteKind::Unknown {
            line.push_str("  <-- UNKNOWN ROUTE (404)");
        } else if self.status == 0 {
            line.push_str("  <-- NEVER ANSWERED");
        } else if !self.accepted() {
            let code = self.error_code.map(|c| format!(" {c}")).unwrap_or_default();
            line.push_str(&format!("  <-- REFUSED {}{code}", self.status));
        }
        line
    }
}

/// Why a wait ended without what it waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitEnd {
    TimedOut,
    /// The fake found a problem (a bot bug or a fake bug): waiting on would only hide it.
    ProblemSeen,
}

/// A wait that failed: says what was awaited, why it ended, the problems the fake found and
/// everything that was recorded.
pub struct WaitFailed {
    pub waited_for: String,
    pub after: Duration,
    pub ended: WaitEnd,
    pub problems: Vec<String>,
    pub recorded: Vec<String>,
}

impl fmt::Display for WaitFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ended {
            WaitEnd::TimedOut => writeln!(
                f,
                "timed out after {:?} waiting for: {}",
                self.after, self.waited_for
            )?,
            WaitEnd::ProblemSeen => writeln!(
                f,
                "stopped after {:?} waiting for: {}, because the fake Discord found a problem",
                self.after, self.waited_for
            )?,
        }
        if !self.problems.is_empty() {
            writeln!(f, "fake Discord problems:")?;
            for problem in &self.problems {
                writeln!(f, "  * {problem}")?;
            }
        }
        writeln!(
            f,
            "the fake Discord recorded {} request(s):",
            self.recorded.len()
        )?;
        for line in &self.recorded {
            writeln!(f, "  {line}")?;
        }
        Ok(())
    }
}

// Debug shows the full story so `.unwrap()` in a test prints what the bot did send.
impl fmt::Debug for WaitFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for WaitFailed {}

/// The shared, append-only log of requests.
#[derive(Default, Clone)]
pub struct Recorder {
    inner: Arc<RecorderInner>,
}

#[derive(Default)]
struct RecorderInner {
    items: Mutex<Vec<Recorded>>,
    /// What the fake found wrong: bot requests that break Discord's contract, answers of the
    /// fake that break its description, payloads serenity cannot read.
    problems: Mutex<Vec<String>>,
    /// Woken on every new request and every new problem.
    changed: Notify,
}

impl Recorder {
    fn items(&self) -> MutexGuard<'_, Vec<Recorded>> {
        // A test that panicked while holding the lock leaves the data intact: keep reading it.
        self.inner
            .items
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn push(&self, mut recorded: Recorded) -> usize {
        let index = {
            let mut items = self.items();
            recorded.index = items.len();
            items.push(recorded);
            items.len() - 1
        };
        self.inner.changed.notify_waiters();
        index
    }

    /// Notes a problem; it fails every wait from now on, and `World::stop`.
    pub(crate) fn problem(&self, text: String) {
        tracing::error!("fake Discord: {text}");
        eprintln!("FAKE DISCORD PROBLEM: {text}");
        self.problems().push(text);
        self.inner.changed.notify_waiters();
    }

    fn problems(&self) -> MutexGuard<'_, Vec<String>> {
        self.inner
            .problems
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The problems found so far.
    pub fn problem_list(&self) -> Vec<String> {
        self.problems().clone()
    }

    /// Takes the problems found so far (for a test that provokes them on purpose).
    pub fn take_problems(&self) -> Vec<String> {
        std::mem::take(&mut *self.problems())
    }

    /// A copy of everything recorded so far.
    pub fn all(&self) -> Vec<Recorded> {
        self.items().clone()
    }

    /// How many requests have been recorded; pass it to [`Recorder::wait_for_after`] to only
    /// look at what comes later.
    pub fn mark(&self) -> usize {
        self.items().len()
    }

    /// Calls `visit` with each request recorded at index `from` or later, in order, without
    /// copying them; answers the index to pass next time. For a load generator that follows
    /// tens of thousands of requests as they come (the waits scan from their mark each time).
    pub fn visit_since(&self, from: usize, mut visit: impl FnMut(&Recorded)) -> usize {
        let items = self.items();
        for recorded in items.iter().skip(from) {
            visit(recorded);
        }
        items.len()
    }

    /// Requests to routes the fake does not know.
    pub fn unknown_routes(&self) -> Vec<Recorded> {
        self.items()
            .iter()
            .filter(|r| r.kind == RouteKind::Unknown)
            .cloned()
            .collect()
    }

    /// Waits for the first recorded request (from the start) that matches.
    pub async fn wait_for(
        &self,
        waited_for: &str,
        timeout: Duration,
        predicate: impl Fn(&Recorded) -> bool,
    ) -> Result<Recorded, WaitFailed> {
        self.wait_for_after(0, waited_for, timeout, predicate).await
    }

    /// Waits for the first request recorded at index `from` or later that matches.
    pub async fn wait_for_after(
        &self,
        from: usize,
        waited_for: &str,
        timeout: Duration,
        predicate: impl Fn(&Recorded) -> bool,
    ) -> Result<Recorded, WaitFailed> {
        let found = self
            .wait_until(waited_for, timeout, |items| {
                items.iter().skip(from).find(|r| predicate(r)).cloned()
            })
            .await?;
        Ok(found)
    }

    /// Waits until `look` finds something in the recording; stops at once when a problem is
    /// (or already was) found, and at `timeout`.
    async fn wait_until<T>(
        &self,
        waited_for: &str,
        timeout: Duration,
        look: impl Fn(&[Recorded]) -> Option<T>,
    ) -> Result<T, WaitFailed> {
        let started = tokio::time::Instant::now();
        let deadline = started + timeout;
        loop {
            let changed = self.inner.changed.notified();
            tokio::pin!(changed);
            // Register before looking, so a push between the look and the await is not missed.
            changed.as_mut().enable();
            if let Some(found) = look(&self.items()) {
                return Ok(found);
            }
            let ended = if !self.problems().is_empty() {
                Some(WaitEnd::ProblemSeen)
            } else if tokio::time::timeout_at(deadline, changed).await.is_err() {
                Some(WaitEnd::TimedOut)
            } else {
                None
            };
            if let Some(ended) = ended {
                return Err(WaitFailed {
                    waited_for: waited_for.to_owned(),
                    after: started.elapsed(),
                    ended,
                    problems: self.problem_list(),
                    recorded: self.items().iter().map(Recorded::summary).collect(),
                });
            }
        }
    }

    /// Every request from `from` on that matches, waiting until at least `count` exist.
    pub async fn wait_for_count(
        &self,
        from: usize,
        count: usize,
        waited_for: &str,
        timeout: Duration,
        predicate: impl Fn(&Recorded) -> bool,
    ) -> Result<Vec<Recorded>, WaitFailed> {
        let matching = |items: &[Recorded]| -> Vec<Recorded> {
            items
                .iter()
                .skip(from)
                .filter(|r| predicate(r))
                .cloned()
                .collect()
        };
        self.wait_until(waited_for, timeout, |items| {
            let found = matching(items);
            (found.len() >= count).then_some(found)
        })
        .await
        .map_err(|mut failed| {
            let seen = matching(&self.items()).len();
            failed.waited_for = format!("{count} x {waited_for} (saw {seen})");
            failed
        })
    }

    /// Describes everything recorded, one line per request (for failure messages).
    pub fn dump(&self) -> String {
        self.items()
            .iter()
            .map(Recorded::summary)
            .collect::<Vec<_>>()
            .join("\n")
    }
}
