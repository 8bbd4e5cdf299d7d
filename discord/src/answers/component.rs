//! Buttons and select menus under the budget: a click's handler answers through its
//! [`ClickAnswer`], with a message of its own or by updating the clicked message; once the
//! budget is spent without an answer, the click is acknowledged with a deferred update (nothing
//! changes on screen), and the answer then edits the clicked message or follows up.

use poise::CreateReply;
use serenity::all::{
    ComponentInteraction, Context as SerenityContext, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, EditInteractionResponse,
    Http, Message,
};
use tokio::sync::Mutex;

use super::budget::{AnswerState, Deferral};

/// The answer to one click: what it was, and how far its answer has got.
pub struct ClickAnswer<'a> {
    ctx: &'a SerenityContext,
    press: &'a ComponentInteraction,
    /// Held while an answer or the deferral is being sent, so only one is the callback.
    state: Mutex<AnswerState>,
}

impl<'a> ClickAnswer<'a> {
    pub fn new(ctx: &'a SerenityContext, press: &'a ComponentInteraction) -> Self {
        ClickAnswer {
            ctx,
            press,
            state: Mutex::new(AnswerState::Unanswered),
        }
    }

    /// The click.
    pub fn press(&self) -> &'a ComponentInteraction {
        self.press
    }

    /// The REST client, for the requests that are not this click's answer.
    pub fn http(&self) -> &'a Http {
        &self.ctx.http
    }

    /// Answers with a message of its own (private if `reply` is ephemeral); after the first
    /// answer or a deferral, a follow-up. The message, when Discord's answer carries it.
    pub async fn message(&self, reply: CreateReply) -> Result<Option<Message>, serenity::Error> {
        let mut state = self.state.lock().await;
        if *state == AnswerState::Unanswered {
            let message = reply.to_slash_initial_response(CreateInteractionResponseMessage::new());
            self.press
                .create_response(self.ctx, CreateInteractionResponse::Message(message))
                .await?;
            *state = AnswerState::Answered;
            return Ok(None);
        }
        self.follow_up(&mut state, reply).await.map(Some)
    }

    /// Answers by changing the clicked message; after a deferral, by editing it. (After
    /// another answer the clicked message is no longer the interaction's to edit: the change
    /// follows up instead.)
    pub async fn update(&self, reply: CreateReply) -> Result<Option<Message>, serenity::Error> {
        let mut state = self.state.lock().await;
        match *state {
            AnswerState::Unanswered => {
                let update =
                    reply.to_slash_initial_response(CreateInteractionResponseMessage::new());
                self.press
                    .create_response(self.ctx, CreateInteractionResponse::UpdateMessage(update))
                    .await?;
                *state = AnswerState::Answered;
                Ok(None)
            }
            AnswerState::Deferred(Deferral::Update) => {
                let edit = reply.to_slash_initial_response_edit(EditInteractionResponse::new());
                let shown = self.press.edit_response(self.ctx, edit).await?;
                *state = AnswerState::Answered;
                Ok(Some(shown))
            }
            AnswerState::Deferred(Deferral::Message { .. }) | AnswerState::Answered => {
                self.follow_up(&mut state, reply).await.map(Some)
            }
        }
    }

    async fn follow_up(
        &self,
        state: &mut AnswerState,
        reply: CreateReply,
    ) -> Result<Message, serenity::Error> {
        let followup = reply.to_slash_followup_response(CreateInteractionResponseFollowup::new());
        let shown = self.press.create_followup(self.ctx, followup).await?;
        *state = AnswerState::Answered;
        Ok(shown)
    }

    /// Acknowledges the click without changing anything, unless it was answered.
    pub async fn defer(&self) {
        let mut state = self.state.lock().await;
        if *state != AnswerState::Unanswered {
            return;
        }
        match self
            .press
            .create_response(self.ctx, CreateInteractionResponse::Acknowledge)
            .await
        {
            Ok(()) => {
                *state = AnswerState::Deferred(Deferral::Update);
                tracing::debug!(custom_id = %self.press.data.custom_id, "click deferred: the answer takes longer than its budget");
            }
            Err(e) => {
                tracing::warn!(custom_id = %self.press.data.custom_id, "could not defer a click: {e}")
            }
        }
    }
}
