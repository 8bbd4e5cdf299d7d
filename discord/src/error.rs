//! Errors of the Discord front end, and the one place that turns them into replies.

use poise::CreateReply;

use crate::domain::GameId;
use crate::logging::ErrorChain;
use crate::service::ServiceError;

use super::Data;

/// Why the Discord front end could not start or keep running.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    #[error("discord.api_base must be an http:// or https:// URL, got {0:?}")]
    BadApiBase(String),
    #[error(
        "a stand-in for discord.com is set, so discord.api_base must be Discord's own, got {0:?}"
    )]
    StandInWithApiBase(String),
    #[error("the Discord bot token is empty")]
    MissingToken,
    #[error(
        "Discord refused the bot token (401 Unauthorized): copy the token again from the \
         Developer Portal (Bot > Reset Token) into discord.token or TAFLBOT_DISCORD_TOKEN"
    )]
    InvalidToken,
    #[error("Discord client error: {0}")]
    Client(Box<serenity::Error>),
    #[error("cannot build the HTTP client for Discord: {0}")]
    HttpClient(String),
    #[error("the Discord client task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
    #[error(transparent)]
    Relay(#[from] super::gateway_relay::RelayError),
}

/// What a command or button can fail with. The user-caused ones are shown to the user, privately.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A button whose custom id this bot does not know (an old message, or a forged click).
    #[error("This button is no longer valid.")]
    UnknownButton(String),
    #[error("There is no game in this channel. Start one with `/challenge` or `/play`.")]
    NoGameHere,
    #[error("Several games are going on in this channel ({0}); pick one with the `game` option.")]
    SeveralGames(String),
    #[error("Game #{0} is not played in this channel.")]
    GameNotHere(GameId),
    #[error("Only {0} can answer this challenge.")]
    NotYourChallenge(String),
    #[error("Only the players of game #{0} can use its buttons.")]
    NotYourGame(GameId),
    #[error("{0}")]
    BadOption(String),
    /// The member may not write where they asked for a game (an announcements channel).
    #[error(
        "You may not send messages here ({0} missing), so no game of yours can be posted here; \
         use a channel where you may write."
    )]
    MemberMayNotPost(String),
    /// The bot may not post a game's messages where it was asked to.
    #[error(
        "I cannot post a game here: I am missing {0}. A server admin can grant it to me in this \
         channel's permissions."
    )]
    BotMayNotPost(String),
    /// The games service refused (illegal move, not your turn...) or failed.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Discord refused or failed a request.
    #[error("Discord error: {0}")]
    Discord(Box<serenity::Error>),
    /// A thread a moderator locked, which the bot may not reopen (no Manage Threads): its
    /// game goes back to the thread's channel at once.
    #[error("the thread is locked and the bot may not reopen it: {0}")]
    ThreadLocked(Box<BotError>),
    /// The delivery layer did not send a request, or gave up waiting for its answer.
    #[error(transparent)]
    Stopped(#[from] super::delivery::Stopped),
    /// The action was done, but its reply could not be sent: the outbox posts it instead.
    #[error("Done, but I could not show it here; it is posted in the channel.")]
    ReplyNotSent(Box<serenity::Error>),
}

// serenity's error is large; boxed, every `Result` in the front end stays small.
impl From<serenity::Error> for BotError {
    fn from(error: serenity::Error) -> Self {
        BotError::Discord(Box::new(error))
    }
}

impl From<serenity::Error> for DiscordError {
    fn from(error: serenity::Error) -> Self {
        DiscordError::Client(Box::new(error))
    }
}

impl BotError {
    /// The text to show the user: the reason when they caused it, a generic apology otherwise
    /// (the details go to the log).
    pub fn user_message(&self) -> String {
        match self {
            BotError::Service(ServiceError::Internal(_))
            | BotError::Discord(_)
            | BotError::ThreadLocked(_)
            | BotError::Stopped(_) => {
                "Something went wrong on my side; please try again.".to_owned()
            }
            BotError::Service(e) => capitalized(&e.to_string()),
            other => other.to_string(),
        }
    }

    /// Logs the error once, where the user is answered (`during` names the command or the
    /// button): a failure of ours with its causes, a user's mistake only at debug.
    pub fn log(&self, during: &str) {
        match self {
            BotError::Service(e) if e.is_failure() => e.log_failure(during),
            _ if self.is_user_error() => tracing::debug!("{during}: user error: {self}"),
            _ => tracing::warn!(error = %ErrorChain(self), "{during} failed"),
        }
    }

    /// Whether the error is the user's to fix (not worth a warning in the log).
    pub fn is_user_error(&self) -> bool {
        !matches!(
            self,
            BotError::Service(ServiceError::Internal(_) | ServiceError::StoreUnavailable(_))
                | BotError::Discord(_)
                | BotError::ThreadLocked(_)
                | BotError::Stopped(_)
                | BotError::ReplyNotSent(_)
        )
    }
}

/// `text` with its first letter in capitals, for a reply that starts with it.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// poise's single error hook: every failed command gets a private reply naming what was wrong.
pub async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            error.log(&format!("command /{}", ctx.command().qualified_name));
            let reply = CreateReply::default()
                .content(error.user_message())
                .ephemeral(true);
            // Private even after a public deferral (`answers::command`).
            if let Err(e) = super::answers::command::send_private(&ctx, reply).await {
                tracing::warn!("could not send the error reply: {e}");
            }
        }
        // poise only logs these; every interaction must still get an answer.
        poise::FrameworkError::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::warn!(command = %ctx.command().qualified_name, "options not understood: {description}");
            let reply = CreateReply::default()
                .content("I could not read this command's options; the command list may be out of date, try again in a minute.")
                .ephemeral(true);
            if let Err(e) =
                super::answers::command::send_private(&poise::Context::Application(ctx), reply)
                    .await
            {
                tracing::warn!("could not send the error reply: {e}");
            }
        }
        poise::FrameworkError::CommandCheckFailed { ctx, error, .. } => {
            let text = error
                .map(|e| e.user_message())
                .unwrap_or_else(|| "You cannot use this command here.".to_owned());
            if let Err(e) =
                super::answers::command::send_private(&ctx, CreateReply::default().content(text))
                    .await
            {
                tracing::warn!("could not send the error reply: {e}");
            }
        }
        poise::FrameworkError::UnknownInteraction {
            framework,
            interaction,
            ..
        } => {
            tracing::warn!(command = %interaction.data.name, "interaction for an unknown command");
            let reply = serenity::all::CreateInteractionResponseMessage::new()
                .content(
                    "I do not know this command (any more); the command list may be out of date.",
                )
                .allowed_mentions(super::mentions::nobody())
                .ephemeral(true);
            let response = serenity::all::CreateInteractionResponse::Message(reply);
            if let Err(e) = interaction
                .create_response(&framework.serenity_context.http, response)
                .await
            {
                tracing::warn!("could not answer an unknown command: {e}");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!("error while handling an error: {e}");
            }
        }
    }
}
