//! Errors of the Discord front end, and the one place that turns them into replies.

use poise::CreateReply;

use super::Data;

/// Why the Discord front end could not start or keep running.
#[derive(Debug, thiserror::Error)]
pub enum DiscordError {
    #[error("discord.api_base must be an http:// or https:// URL, got {0:?}")]
    BadApiBase(String),
    #[error("the Discord bot token is empty")]
    MissingToken,
    #[error("Discord client error: {0}")]
    Client(Box<serenity::Error>),
    #[error("the Discord client task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// What a command or button can fail with. The user-caused ones are shown to the user, privately.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A button whose custom id this bot does not know (an old message, or a forged click).
    #[error("This button is no longer valid.")]
    UnknownButton(String),
    /// Discord refused or failed a request.
    #[error("Discord error: {0}")]
    Discord(Box<serenity::Error>),
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
            BotError::UnknownButton(_) => self.to_string(),
            BotError::Discord(_) => "Something went wrong on my side; please try again.".to_owned(),
        }
    }

    /// Whether the error is the user's to fix (not worth a warning in the log).
    pub fn is_user_error(&self) -> bool {
        matches!(self, BotError::UnknownButton(_))
    }
}

/// poise's single error hook: every failed command gets a private reply naming what was wrong.
pub async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            if error.is_user_error() {
                tracing::debug!(command = %ctx.command().qualified_name, "user error: {error}");
            } else {
                tracing::warn!(command = %ctx.command().qualified_name, "command failed: {error}");
            }
            let reply = CreateReply::default()
                .content(error.user_message())
                .ephemeral(true);
            if let Err(e) = ctx.send(reply).await {
                tracing::warn!("could not send the error reply: {e}");
            }
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::warn!("error while handling an error: {e}");
            }
        }
    }
}
