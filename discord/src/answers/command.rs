//! Slash commands under the budget: [`under_budget`] runs each command's action in a wrapper
//! that defers the interaction once the budget is spent (privately for the commands whose
//! answers are private, poise's `ephemeral`), and every answer a command gives goes through
//! [`send`] or [`send_private`], which edit or follow the deferral as it needs.
//!
//! The answer's state lives in poise's per-invocation data, whose lock orders the deferral and
//! the command's own answers.

use std::sync::atomic::Ordering;

use poise::CreateReply;
use serenity::all::{
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    EditInteractionResponse, Message,
};

use super::budget::{AnswerState, Deferral, within_budget};
use crate::logging::ErrorChain;
use crate::{BotError, Context, Data, mentions};

type AppContext<'a> = poise::ApplicationContext<'a, Data, BotError>;
type ActionResult<'a> = Result<(), poise::FrameworkError<'a, Data, BotError>>;
type Action = for<'a> fn(AppContext<'a>) -> poise::BoxFuture<'a, ActionResult<'a>>;

/// A command's own action, kept in its `custom_data` while [`budgeted`] runs in its place.
struct OwnAction(Action);

/// Puts every command (and subcommand) under the answer budget.
pub fn under_budget(commands: &mut [poise::Command<Data, BotError>]) {
    for command in commands {
        if let Some(action) = command.slash_action.take() {
            command.custom_data = Box::new(OwnAction(action));
            command.slash_action = Some(budgeted);
        }
        under_budget(&mut command.subcommands);
    }
}

/// Runs a command's own action; once the budget is spent without an answer, defers.
fn budgeted(ctx: AppContext<'_>) -> poise::BoxFuture<'_, ActionResult<'_>> {
    Box::pin(async move {
        let Some(OwnAction(action)) = ctx.command().custom_data.downcast_ref::<OwnAction>() else {
            return Err(poise::FrameworkError::new_command_structure_mismatch(
                ctx,
                "a command put under the answer budget without its own action",
            ));
        };
        let action = *action;
        poise::Context::Application(ctx)
            .set_invocation_data(AnswerState::Unanswered)
            .await;
        let work = async move {
            note_seen_in_guild(ctx).await;
            action(ctx).await
        };
        within_budget(ctx.data().answer_budget(), work, defer(ctx)).await
    })
}

/// Who uses the bot in a guild is on that guild's leaderboard (`/leaderboard server_only`), and
/// which server the channel is in.
async fn note_seen_in_guild(ctx: AppContext<'_>) {
    if let Some(guild) = ctx.interaction.guild_id
        && let Err(e) = ctx
            .data()
            .seen_in_guild(guild.get(), &ctx.interaction.user)
            .await
    {
        tracing::warn!(%guild, error = %ErrorChain(&e), "could not note a player seen in a guild");
    }
    // The server of each channel the bot is used in: found again if it removes the bot
    // (GUILD_DELETE names only the server).
    if let Some(guild) = ctx.interaction.guild_id
        && let Err(e) = ctx
            .data()
            .service
            .discord()
            .note_channel_guild(ctx.interaction.channel_id.get(), guild.get())
            .await
    {
        tracing::warn!(%guild, error = %ErrorChain(&e), "could not note a channel's server");
    }
}

/// Acknowledges the command with Discord's "thinking…" placeholder, unless it was answered.
async fn defer(ctx: AppContext<'_>) {
    let private = ctx.command().ephemeral;
    let Some(mut state) = poise::Context::Application(ctx)
        .invocation_data::<AnswerState>()
        .await
    else {
        return;
    };
    if *state != AnswerState::Unanswered {
        return;
    }
    let http = ctx.serenity_context();
    let sent = if private {
        ctx.interaction.defer_ephemeral(http).await
    } else {
        ctx.interaction.defer(http).await
    };
    match sent {
        Ok(()) => {
            *state = AnswerState::Deferred(Deferral::Message { private });
            ctx.has_sent_initial_response.store(true, Ordering::SeqCst);
            tracing::debug!(command = %ctx.command().qualified_name, "deferred: the answer takes longer than its budget");
        }
        Err(e) => {
            tracing::warn!(command = %ctx.command().qualified_name, "could not defer: {e}")
        }
    }
}

/// Sends `reply` as the command's answer (or, once answered, a follow-up), shown as the
/// command's answers are (private for poise's `ephemeral` commands). The message, when
/// Discord's answer carries it (an edit or a follow-up).
pub async fn send(
    ctx: &Context<'_>,
    reply: CreateReply,
) -> Result<Option<Message>, serenity::Error> {
    let private = ctx.command().ephemeral;
    deliver(ctx, reply, private).await
}

/// Sends `reply` only to the command's user, whatever the command's answers are: an error,
/// a private board.
pub async fn send_private(
    ctx: &Context<'_>,
    reply: CreateReply,
) -> Result<Option<Message>, serenity::Error> {
    deliver(ctx, reply, true).await
}

async fn deliver(
    ctx: &Context<'_>,
    reply: CreateReply,
    private: bool,
) -> Result<Option<Message>, serenity::Error> {
    let reply = ctx.reply_builder(reply.ephemeral(private));
    let poise::Context::Application(app) = *ctx else {
        ctx.send(reply).await?;
        return Ok(None);
    };
    let answer = Answer {
        app,
        reply,
        private,
    };
    match ctx.invocation_data::<AnswerState>().await {
        Some(mut state) => answer.send(&mut state).await,
        // Refused before the command ran (a check): nothing else sends meanwhile.
        None => {
            let mut state = if app.has_sent_initial_response.load(Ordering::SeqCst) {
                AnswerState::Answered
            } else {
                AnswerState::Unanswered
            };
            answer.send(&mut state).await
        }
    }
}

/// One answer to send, and where.
struct Answer<'a> {
    app: AppContext<'a>,
    reply: CreateReply,
    private: bool,
}

impl Answer<'_> {
    async fn send(self, state: &mut AnswerState) -> Result<Option<Message>, serenity::Error> {
        let Answer {
            app,
            reply,
            private,
        } = self;
        let http = app.serenity_context();
        let interaction = app.interaction;
        match *state {
            AnswerState::Unanswered => {
                let message =
                    reply.to_slash_initial_response(CreateInteractionResponseMessage::new());
                interaction
                    .create_response(http, CreateInteractionResponse::Message(message))
                    .await?;
                app.has_sent_initial_response.store(true, Ordering::SeqCst);
                *state = AnswerState::Answered;
                Ok(None)
            }
            // The placeholder becomes the answer (one shown privately stays private).
            AnswerState::Deferred(Deferral::Message { private: hidden }) if hidden || !private => {
                let edit = reply.to_slash_initial_response_edit(EditInteractionResponse::new());
                let shown = interaction.edit_response(http, edit).await?;
                *state = AnswerState::Answered;
                Ok(Some(shown))
            }
            // A private answer after a public placeholder: Discord would give the unsettled
            // placeholder's visibility to the first follow-up, so the placeholder is settled
            // first, the answer follows privately, and the placeholder goes.
            AnswerState::Deferred(Deferral::Message { .. }) => {
                let settle = EditInteractionResponse::new()
                    .content("(answered privately)")
                    .allowed_mentions(mentions::nobody());
                interaction.edit_response(http, settle).await?;
                *state = AnswerState::Answered;
                let followup =
                    reply.to_slash_followup_response(CreateInteractionResponseFollowup::new());
                let shown = interaction.create_followup(http, followup).await?;
                if let Err(e) = interaction.delete_response(http).await {
                    tracing::info!("the settled placeholder of a private answer stays: {e}");
                }
                Ok(Some(shown))
            }
            AnswerState::Deferred(Deferral::Update) | AnswerState::Answered => {
                let followup =
                    reply.to_slash_followup_response(CreateInteractionResponseFollowup::new());
                Ok(Some(interaction.create_followup(http, followup).await?))
            }
        }
    }
}
