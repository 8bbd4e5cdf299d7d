//! Following the fake's recording as it grows: each interaction's first answer (a deferral
//! counts: the user sees the bot working) and its reply (what a person reads, for the driver
//! to click on), and every move post (for the [`PostLedger`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::posts::PostLedger;
use crate::fake_discord::{Recorded, Recorder, SentInteraction};

/// Discord's deadline for the first answer: later, the user sees "This interaction failed".
pub const FIRST_ANSWER_DEADLINE: Duration = Duration::from_secs(3);

/// An interaction sent and not yet answered with a reply.
struct Awaited {
    sent_at: Instant,
    /// What kind of interaction, when counted in the run's figures (the set-up's are not).
    label: Option<&'static str>,
    first_answer: Option<Duration>,
    reply: Option<oneshot::Sender<Recorded>>,
}

/// Answers seen before their interaction was registered (the driver registers right after
/// sending; an answer cannot come sooner, but nothing is lost if it does).
#[derive(Default)]
struct Early {
    first_at: Option<Instant>,
    first_deferred: bool,
    reply: Option<Recorded>,
}

#[derive(Default)]
struct State {
    cursor: usize,
    awaited: HashMap<String, Awaited>,
    /// Interactions answered and replied to: later answers (an AI's follow-up) only count as
    /// posts.
    done: std::collections::HashSet<String>,
    early: HashMap<String, Early>,
    /// First answers of measured interactions.
    first_answers: Vec<FirstAnswer>,
    measured: usize,
    ledger: PostLedger,
    requests: usize,
}

/// One measured interaction's first answer.
#[derive(Debug, Clone, Copy)]
struct FirstAnswer {
    after: Duration,
    label: &'static str,
    /// The first answer was a deferral (the work took longer than the bot's budget).
    deferred: bool,
}

/// The first answers of one kind of interaction (`move`, `board`...).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindFigures {
    pub label: &'static str,
    pub count: usize,
    pub deferred: usize,
    pub p50_ms: u64,
    pub p99_ms: u64,
    pub max_ms: u64,
}

/// Measured interactions so far, as the progress lines and the report need them.
#[derive(Debug, Clone, Default)]
pub struct AnswerFigures {
    pub sent: usize,
    pub answered_in_time: usize,
    /// No answer within [`FIRST_ANSWER_DEADLINE`] (counted once the deadline passed).
    pub failed: usize,
    /// First-answer times in milliseconds, sorted; a failed interaction counts as the deadline.
    pub sorted_ms: Vec<u64>,
    /// The answered ones by kind, for finding where the time goes.
    pub by_kind: Vec<KindFigures>,
}

/// The tracker the driver and the collector share.
#[derive(Default)]
pub struct Answers {
    state: Mutex<State>,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Answers {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers `sent`; the receiver gets its reply (the first accepted answer that is not a
    /// bare deferral).
    /// `label` names the kind of a measured interaction; `None` for the set-up's.
    pub fn expect(
        &self,
        sent: &SentInteraction,
        label: Option<&'static str>,
    ) -> oneshot::Receiver<Recorded> {
        let (tx, rx) = oneshot::channel();
        let mut state = self.state();
        let early = state.early.remove(&sent.token).unwrap_or_default();
        let first_answer = early
            .first_at
            .map(|at| at.saturating_duration_since(sent.sent_at));
        if let Some(label) = label {
            state.measured += 1;
            if let Some(after) = first_answer {
                state.first_answers.push(FirstAnswer {
                    after,
                    label,
                    deferred: early.first_deferred,
                });
            }
        }
        match early.reply {
            Some(reply) => {
                let _ = tx.send(reply);
                state.done.insert(sent.token.clone());
            }
            None => {
                state.awaited.insert(
                    sent.token.clone(),
                    Awaited {
                        sent_at: sent.sent_at,
                        label,
                        first_answer,
                        reply: Some(tx),
                    },
                );
            }
        }
        drop(state);
        rx
    }

    /// Reads what the fake recorded since the last call.
    pub fn collect(&self, recorder: &Recorder) {
        let mut state = self.state();
        let from = state.cursor;
        let state = &mut *state;
        state.cursor = recorder.visit_since(from, |recorded| {
            state.requests += 1;
            state.ledger.observe(recorded);
            let Some(token) = recorded.interaction_token() else {
                return;
            };
            if !recorded.accepted() || state.done.contains(token) {
                return;
            }
            let is_reply = !matches!(recorded.callback_type(), Some(5 | 6));
            match state.awaited.get_mut(token) {
                Some(awaited) => {
                    if awaited.first_answer.is_none() {
                        let after = recorded.at.saturating_duration_since(awaited.sent_at);
                        awaited.first_answer = Some(after);
                        if let Some(label) = awaited.label {
                            state.first_answers.push(FirstAnswer {
                                after,
                                label,
                                deferred: !is_reply,
                            });
                        }
                    }
                    if is_reply {
                        if let Some(tx) = awaited.reply.take() {
                            let _ = tx.send(recorded.clone());
                        }
                        state.awaited.remove(token);
                        state.done.insert(token.to_owned());
                    }
                }
                None => {
                    let early = state.early.entry(token.to_owned()).or_default();
                    if early.first_at.is_none() {
                        early.first_at = Some(recorded.at);
                        early.first_deferred = !is_reply;
                    }
                    if is_reply && early.reply.is_none() {
                        early.reply = Some(recorded.clone());
                    }
                }
            }
        });
    }

    /// The measured interactions' figures as of `now`.
    pub fn figures(&self, now: Instant) -> AnswerFigures {
        let state = self.state();
        let deadline = FIRST_ANSWER_DEADLINE;
        let in_time = state
            .first_answers
            .iter()
            .filter(|f| f.after <= deadline)
            .count();
        let late = state.first_answers.len() - in_time;
        let overdue = state
            .awaited
            .values()
            .filter(|a| {
                a.label.is_some()
                    && a.first_answer.is_none()
                    && now.saturating_duration_since(a.sent_at) > deadline
            })
            .count();
        let failed = late + overdue;
        let mut sorted_ms: Vec<u64> = state
            .first_answers
            .iter()
            .map(|f| millis(f.after.min(deadline)))
            .collect();
        sorted_ms.extend(std::iter::repeat_n(millis(deadline), overdue));
        sorted_ms.sort_unstable();
        AnswerFigures {
            sent: state.measured,
            answered_in_time: in_time,
            failed,
            sorted_ms,
            by_kind: by_kind(&state.first_answers),
        }
    }

    /// Measured interactions still without a first answer that may yet get one in time (those
    /// past [`FIRST_ANSWER_DEADLINE`] have failed already: Discord refuses a late answer).
    pub fn unanswered(&self, now: Instant) -> usize {
        self.state()
            .awaited
            .values()
            .filter(|a| {
                a.label.is_some()
                    && a.first_answer.is_none()
                    && now.saturating_duration_since(a.sent_at) <= FIRST_ANSWER_DEADLINE
            })
            .count()
    }

    /// A copy of the move posts counted so far.
    pub fn ledger(&self) -> PostLedger {
        self.state().ledger.clone()
    }

    /// Whether every post in `owed` has arrived.
    pub fn has_all(&self, owed: &[super::posts::OwedPosts]) -> bool {
        self.state().ledger.has_all(owed)
    }

    /// Move posts counted so far (repeats included).
    pub fn posts(&self) -> u64 {
        self.state().ledger.total()
    }

    /// Requests the fake recorded (the bot's, all routes), as read so far.
    pub fn requests(&self) -> usize {
        self.state().requests
    }
}

/// The answered interactions' figures, kind by kind, in the order kinds first appear.
fn by_kind(answers: &[FirstAnswer]) -> Vec<KindFigures> {
    let mut labels: Vec<&'static str> = Vec::new();
    for answer in answers {
        if !labels.contains(&answer.label) {
            labels.push(answer.label);
        }
    }
    labels
        .into_iter()
        .map(|label| {
            let of_kind: Vec<&FirstAnswer> = answers.iter().filter(|a| a.label == label).collect();
            let mut sorted: Vec<u64> = of_kind.iter().map(|a| millis(a.after)).collect();
            sorted.sort_unstable();
            KindFigures {
                label,
                count: of_kind.len(),
                deferred: of_kind.iter().filter(|a| a.deferred).count(),
                p50_ms: percentile(&sorted, 50.0),
                p99_ms: percentile(&sorted, 99.0),
                max_ms: percentile(&sorted, 100.0),
            }
        })
        .collect()
}

/// The `p`th percentile (nearest rank) of sorted values; 0 for none.
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let last = sorted.len() - 1;
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a rank within the slice, rounded"
    )]
    let rank = ((p / 100.0) * last as f64).round() as usize;
    sorted[rank.min(last)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake_discord::RouteKind;

    fn callback(token: &str, kind: u64, at: Instant) -> Recorded {
        Recorded {
            index: 0,
            method: "POST".into(),
            path: "/".into(),
            kind: RouteKind::InteractionCallback {
                interaction_id: 1,
                token: token.into(),
            },
            json: Some(serde_json::json!({ "type": kind })),
            attachments: Vec::new(),
            message: None,
            at,
            status: 204,
            error_code: None,
        }
    }

    #[test]
    fn a_deferral_is_a_first_answer_and_an_answer_after_3_s_or_none_is_a_failure() {
        let recorder = Recorder::default();
        let answers = Answers::default();
        let t0 = Instant::now();
        let sent = |n: u64| SentInteraction {
            id: n,
            token: format!("t{n}"),
            channel_id: 1,
            sent_at: t0,
        };
        let mut deferred = answers.expect(&sent(1), Some("move"));
        let mut late = answers.expect(&sent(2), Some("board"));
        let _never = answers.expect(&sent(3), Some("move"));
        let _setup = answers.expect(&sent(4), None);
        recorder.push(callback("t1", 5, t0 + Duration::from_millis(200)));
        recorder.push(callback("t2", 4, t0 + Duration::from_secs(4)));
        recorder.push(callback("t4", 4, t0 + Duration::from_secs(9)));
        answers.collect(&recorder);
        let figures = answers.figures(t0 + Duration::from_secs(5));
        assert_eq!(
            (figures.sent, figures.answered_in_time, figures.failed),
            (3, 1, 2)
        );
        assert_eq!(figures.sorted_ms, vec![200, 3000, 3000]);
        let kinds: Vec<(&str, usize, usize, u64)> = figures
            .by_kind
            .iter()
            .map(|k| (k.label, k.count, k.deferred, k.max_ms))
            .collect();
        assert_eq!(kinds, vec![("move", 1, 1, 200), ("board", 1, 0, 4000)]);
        assert!(deferred.try_recv().is_err(), "a deferral is not the reply");
        assert!(late.try_recv().is_ok(), "the reply reaches the driver");
        assert_eq!(answers.unanswered(t0 + Duration::from_secs(5)), 0);
        assert_eq!(answers.unanswered(t0 + Duration::from_secs(2)), 1);
        assert_eq!(answers.requests(), 3);
    }

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let values: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&values, 99.0), 99);
        assert_eq!(percentile(&values, 50.0), 51);
        assert_eq!(percentile(&[], 99.0), 0);
        assert_eq!(percentile(&[7], 99.0), 7);
    }
}
