//! Discord's rules for answering an interaction: the first answer (the callback) within
//! 3 seconds of the event, only one callback, and follow-ups or `@original` edits only while the
//! interaction's token lives (15 minutes). Both durations can be shortened by a test.
//!
//! Deferrals as Discord treats them: a deferred message (callback 5) shows a placeholder,
//! public or ephemeral, which the first follow-up or an edit of `@original` settles, with the
//! placeholder's visibility whatever that answer's own flags say (so a private error sent as the
//! first follow-up of a public placeholder is shown to everyone); a deferred update (callback 6)
//! shows nothing, and `@original` is then the message whose component was used.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::answer::Refusal;

/// How long Discord waits for the first answer before the interaction fails for the user.
pub const DISCORD_FIRST_ANSWER: Duration = Duration::from_secs(3);
/// How long an interaction token may be used for follow-ups and edits.
pub const DISCORD_TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// The two durations the fake holds the bot to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InteractionLimits {
    pub first_answer: Duration,
    pub token_lifetime: Duration,
}

impl Default for InteractionLimits {
    fn default() -> Self {
        InteractionLimits {
            first_answer: DISCORD_FIRST_ANSWER,
            token_lifetime: DISCORD_TOKEN_LIFETIME,
        }
    }
}

/// An answer that breaks the rules: how Discord refuses it, and what the bot did wrong.
#[derive(Debug, Clone)]
pub struct RuleBroken {
    pub refusal: Refusal,
    pub what: String,
}

/// What the fake remembers about an interaction it sent, to place and judge its answers.
#[derive(Debug, Clone)]
pub struct InteractionInfo {
    pub id: u64,
    pub channel_id: u64,
    pub original_message: Option<u64>,
    /// The message whose component was used (button clicks and selections).
    pub component_message: Option<u64>,
    /// When the event was handed to the gateway connection.
    pub sent_at: Instant,
    /// Whether a callback was accepted.
    pub acknowledged: bool,
    /// The flags of a deferred message's placeholder not settled yet (callback 5).
    pub placeholder_flags: Option<u64>,
    /// Whether the interaction was acknowledged with a deferred update (callback 6).
    pub deferred_update: bool,
}

/// The ephemeral flag of a message.
pub const EPHEMERAL: u64 = 1 << 6;

impl InteractionInfo {
    pub fn new(id: u64, channel_id: u64) -> InteractionInfo {
        InteractionInfo {
            id,
            channel_id,
            original_message: None,
            component_message: None,
            sent_at: Instant::now(),
            acknowledged: false,
            placeholder_flags: None,
            deferred_update: false,
        }
    }

    /// Notes an accepted callback of `kind` with these message `flags`: a deferral leaves a
    /// placeholder (5) or makes `@original` the clicked message (6).
    pub fn note_callback(&mut self, kind: u64, flags: u64) {
        match kind {
            5 => self.placeholder_flags = Some(flags),
            6 => self.deferred_update = true,
            _ => {}
        }
    }

    /// The message `@original` names: the response, or after a deferred update the message
    /// whose component was used.
    pub fn original(&self) -> Option<u64> {
        self.original_message.or(if self.deferred_update {
            self.component_message
        } else {
            None
        })
    }

    /// A follow-up or `@original` edit arriving now: if it settles a placeholder, the payload
    /// it becomes (with the placeholder's visibility), which is then the original response.
    pub fn settle_placeholder(&mut self, payload: &Value) -> Option<Value> {
        let flags = self.placeholder_flags.take()?;
        let mut settled = payload.clone();
        if let Some(map) = settled.as_object_mut() {
            let own = map.get("flags").and_then(Value::as_u64).unwrap_or(0);
            map.insert(
                "flags".into(),
                (own & !EPHEMERAL | flags & EPHEMERAL).into(),
            );
        }
        Some(settled)
    }

    /// Judges a callback arriving now; a callback that passes acknowledges the interaction.
    pub fn take_callback(&mut self, limits: &InteractionLimits) -> Result<(), RuleBroken> {
        let waited = self.sent_at.elapsed();
        if self.acknowledged {
            return Err(RuleBroken {
                refusal: Refusal::AlreadyAcknowledged,
                what: format!(
                    "a second callback on interaction {} (it was already acknowledged)",
                    self.id
                ),
            });
        }
        if waited > limits.first_answer {
            return Err(RuleBroken {
                refusal: Refusal::UnknownInteraction,
                what: format!(
                    "the first answer to interaction {} came after {waited:?} (limit {:?})",
                    self.id, limits.first_answer
                ),
            });
        }
        self.acknowledged = true;
        Ok(())
    }

    /// Judges a follow-up, or a read, edit or deletion of a response, arriving now.
    pub fn check_token(&self, limits: &InteractionLimits) -> Result<(), RuleBroken> {
        let age = self.sent_at.elapsed();
        if age > limits.token_lifetime {
            return Err(RuleBroken {
                refusal: Refusal::InvalidWebhookToken,
                what: format!(
                    "the token of interaction {} was used {age:?} after the interaction \
                     (it lives {:?})",
                    self.id, limits.token_lifetime
                ),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_first_answer_after_a_deferred_message_takes_the_placeholders_visibility() {
        let mut public = InteractionInfo::new(1, 2);
        public.note_callback(5, 0);
        let private_error = json!({"content": "oops", "flags": EPHEMERAL});
        let settled = public.settle_placeholder(&private_error);
        assert_eq!(
            settled.and_then(|s| s["flags"].as_u64()),
            Some(0),
            "shown to everyone, like its public placeholder"
        );
        // Settled once: the next follow-up keeps its own flags.
        assert!(public.settle_placeholder(&private_error).is_none());

        let mut private = InteractionInfo::new(3, 2);
        private.note_callback(5, EPHEMERAL);
        let settled = private.settle_placeholder(&json!({"content": "board"}));
        assert_eq!(settled.and_then(|s| s["flags"].as_u64()), Some(EPHEMERAL));
    }

    #[test]
    fn after_a_deferred_update_the_original_is_the_clicked_message() {
        let mut click = InteractionInfo::new(1, 2);
        click.component_message = Some(99);
        assert_eq!(click.original(), None);
        click.note_callback(6, 0);
        assert_eq!(click.original(), Some(99));
        assert!(click.settle_placeholder(&json!({})).is_none());
    }
}
