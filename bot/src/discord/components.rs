//! Buttons: every button's custom id names what it does (and, for games, which challenge or
//! game), so a click works after a restart with nothing kept in memory.

use serenity::all::{
    ComponentInteraction, Context as SerenityContext, CreateInteractionResponse,
    CreateInteractionResponseMessage, FullEvent, Interaction,
};

use super::commands::help;
use super::{BotError, Data};

/// What a button does, read from its custom id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ButtonAction {
    /// The "How to play" button under /help.
    HowToPlay,
}

impl ButtonAction {
    pub fn custom_id(&self) -> String {
        match self {
            ButtonAction::HowToPlay => "help:howto".to_owned(),
        }
    }

    pub fn parse(custom_id: &str) -> Result<ButtonAction, BotError> {
        match custom_id {
            "help:howto" => Ok(ButtonAction::HowToPlay),
            other => Err(BotError::UnknownButton(other.to_owned())),
        }
    }
}

/// poise's event hook: routes button clicks; commands and autocomplete are poise's own.
pub async fn on_event(
    ctx: &SerenityContext,
    event: &FullEvent,
    data: &Data,
) -> Result<(), BotError> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(press),
    } = event
    {
        on_button(ctx, press, data).await;
    }
    Ok(())
}

/// Every click gets an answer: the action's, or a private error.
async fn on_button(ctx: &SerenityContext, press: &ComponentInteraction, data: &Data) {
    let outcome = match ButtonAction::parse(&press.data.custom_id) {
        Ok(action) => run(ctx, press, data, action).await,
        Err(e) => Err(e),
    };
    if let Err(error) = outcome {
        if !error.is_user_error() {
            tracing::warn!(custom_id = %press.data.custom_id, "button failed: {error}");
        }
        let reply = CreateInteractionResponseMessage::new()
            .content(error.user_message())
            .ephemeral(true);
        if let Err(e) = press
            .create_response(&ctx.http, CreateInteractionResponse::Message(reply))
            .await
        {
            tracing::warn!("could not answer a button click: {e}");
        }
    }
}

async fn run(
    ctx: &SerenityContext,
    press: &ComponentInteraction,
    _data: &Data,
    action: ButtonAction,
) -> Result<(), BotError> {
    match action {
        ButtonAction::HowToPlay => {
            let reply = CreateInteractionResponseMessage::new()
                .embed(help::how_to_play_embed())
                .ephemeral(true);
            press
                .create_response(&ctx.http, CreateInteractionResponse::Message(reply))
                .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let action = ButtonAction::HowToPlay;
        assert_eq!(ButtonAction::parse(&action.custom_id()).unwrap(), action);
    }

    #[test]
    fn unknown_custom_ids_are_refused() {
        assert!(
            matches!(ButtonAction::parse("nope:1"), Err(BotError::UnknownButton(id)) if id == "nope:1")
        );
    }
}
