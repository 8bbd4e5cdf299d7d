//! Buttons and select menus: every component's custom id names what it does and which
//! challenge or game it is about, so a click works after a restart with nothing kept in memory.
//! Custom ids stay far under Discord's 100 characters (`game:resign-yes:<19 digits>`).

use poise::CreateReply;
use serenity::all::{ComponentInteraction, Context as SerenityContext, FullEvent, Interaction};

use super::answers::{ClickAnswer, within_budget};
use super::commands::common::fitted;
use super::commands::help;
use super::game_buttons::{self, GameButton};
use super::mentions;
use super::picker::{self, PickerStep};
use super::posts::{self, seat_label};
use super::puzzles::{self, PuzzleStep};
use super::threads;
use super::{BotError, Data, challenge_posts};
use crate::domain::{ChallengeId, GameId};

/// What a button does, read from its custom id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ButtonAction {
    /// The "How to play" button under /help.
    HowToPlay,
    /// Accept challenge #id.
    Accept(ChallengeId),
    /// Decline challenge #id.
    Decline(ChallengeId),
    /// Withdraw challenge #id (its challenger).
    Cancel(ChallengeId),
    /// One of a game's buttons (see [`GameButton`]).
    Game(GameButton, GameId),
    /// A step of the move picker's select menus.
    Pick(PickerStep),
    /// A puzzle's **Solve** button or one of its menus.
    Puzzle(PuzzleStep),
}

impl ButtonAction {
    pub fn custom_id(&self) -> String {
        match self {
            ButtonAction::HowToPlay => "help:howto".to_owned(),
            ButtonAction::Accept(id) => format!("challenge:accept:{id}"),
            ButtonAction::Decline(id) => format!("challenge:decline:{id}"),
            ButtonAction::Cancel(id) => format!("challenge:cancel:{id}"),
            ButtonAction::Game(button, id) => format!("game:{}:{id}", button.verb()),
            ButtonAction::Pick(step) => step.custom_id(),
            ButtonAction::Puzzle(step) => step.custom_id(),
        }
    }

    pub fn parse(custom_id: &str) -> Result<ButtonAction, BotError> {
        let unknown = || BotError::UnknownButton(custom_id.to_owned());
        let parts: Vec<&str> = custom_id.split(':').collect();
        match parts.as_slice() {
            ["help", "howto"] => Ok(ButtonAction::HowToPlay),
            ["challenge", verb, id] => {
                let id: ChallengeId = id.parse().map_err(|_| unknown())?;
                match *verb {
                    "accept" => Ok(ButtonAction::Accept(id)),
                    "decline" => Ok(ButtonAction::Decline(id)),
                    "cancel" => Ok(ButtonAction::Cancel(id)),
                    _ => Err(unknown()),
                }
            }
            ["game", verb, id] => {
                let id: GameId = id.parse().map_err(|_| unknown())?;
                let button = GameButton::from_verb(verb).ok_or_else(unknown)?;
                Ok(ButtonAction::Game(button, id))
            }
            ["pick", ..] => PickerStep::parse(&parts)
                .map(ButtonAction::Pick)
                .ok_or_else(unknown),
            ["pz", ..] => PuzzleStep::parse(&parts)
                .map(ButtonAction::Puzzle)
                .ok_or_else(unknown),
            _ => Err(unknown()),
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

/// Every click gets an answer, within its budget or after a deferral: the action's, or a
/// private error.
async fn on_button(ctx: &SerenityContext, press: &ComponentInteraction, data: &Data) {
    let click = ClickAnswer::new(ctx, press);
    let work = async {
        let action = ButtonAction::parse(&press.data.custom_id)?;
        run(&click, data, action).await
    };
    let outcome = within_budget(data.answer_budget(), work, click.defer()).await;
    if let Err(error) = outcome {
        error.log(&format!("button {}", press.data.custom_id));
        if let Err(e) = click.message(private(error.user_message())).await {
            tracing::warn!("could not answer a button click: {e}");
        }
    }
}

/// Whether the clicked message is one only the presser sees (an ephemeral reply).
pub fn on_private_message(press: &ComponentInteraction) -> bool {
    press
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::all::MessageFlags::EPHEMERAL))
}

/// A message only the presser sees, pinging nobody.
pub fn private(text: impl Into<String>) -> CreateReply {
    CreateReply::default()
        .content(fitted(text.into()))
        .allowed_mentions(mentions::nobody())
        .ephemeral(true)
}

/// Answers a click with a message only the presser sees.
pub async fn answer_privately(click: &ClickAnswer<'_>, reply: CreateReply) -> Result<(), BotError> {
    let reply = reply.allowed_mentions(mentions::nobody()).ephemeral(true);
    click.message(reply).await?;
    Ok(())
}

/// A challenge accepted in a channel without a thread: the challenge message becomes the start
/// (the outbox only if that fails), and a follow-up pings the first to move, since an edited
/// message pings nobody.
async fn accepted_here(
    click: &ClickAnswer<'_>,
    data: &Data,
    scope: crate::service::InReply,
    id: ChallengeId,
    game: &crate::service::GameView,
) -> Result<(), BotError> {
    let post = posts::start_post(data, game).await;
    let mut update = CreateReply::default()
        .content(format!("Challenge #{id} accepted.\n{}", post.content))
        .allowed_mentions(mentions::only(&post.pings))
        .components(post.components.clone());
    if let Some(file) = post.attachment() {
        update = update.attachment(file);
    }
    if let Err(e) = click.update(update).await {
        scope.not_shown().await;
        return Err(BotError::ReplyNotSent(Box::new(e)));
    }
    scope.shown().await;
    if !post.pings.is_empty() {
        let ping = CreateReply::default()
            .content(format!(
                "{}, you move first in game #{}.",
                post.pings
                    .iter()
                    .map(|u| format!("<@{u}>"))
                    .collect::<Vec<_>>()
                    .join(" "),
                game.id
            ))
            .allowed_mentions(mentions::only(&post.pings));
        if let Err(e) = click.message(ping).await {
            tracing::info!(game = %game.id, "could not ping the first to move: {e}");
        }
    }
    Ok(())
}

/// Only the challenged player may answer a challenge (anyone but the challenger, if open).
async fn check_may_answer(
    press: &ComponentInteraction,
    data: &Data,
    id: ChallengeId,
) -> Result<(), BotError> {
    let challenge = data.service.challenges().get(id).await?;
    let presser = press.user.id.get();
    match &challenge.opponent {
        Some(opponent) if opponent.discord_user_id != Some(presser) => {
            Err(BotError::NotYourChallenge(seat_label(opponent)))
        }
        None if challenge.challenger.discord_user_id == Some(presser) => Err(BotError::BadOption(
            "You cannot accept your own challenge.".into(),
        )),
        _ => Ok(()),
    }
}

/// A challenge accepted: the game starts in a thread of its own where it may (the challenge
/// message links to it), else in the challenge's channel.
async fn accept(click: &ClickAnswer<'_>, data: &Data, id: ChallengeId) -> Result<(), BotError> {
    let press = click.press();
    check_may_answer(press, data, id).await?;
    let me = data.player_of(&press.user).await?;
    let scope = data.service.discord().in_reply_in(press.channel_id.get());
    let game = scope.service().challenges().accept(me, id).await?;
    let place = threads::StartPlace {
        channel: press.channel_id,
        guild: press.guild_id,
        parent: press.channel.as_ref().and_then(|c| c.parent_id),
        bot_permissions: press.app_permissions,
    };
    let thread = threads::open_game_thread(click.http(), data, &game, place).await;
    let Some(thread) = thread else {
        return accepted_here(click, data, scope, id, &game).await;
    };
    // The start goes out in the thread (the outbox), pinging the first to move; the
    // challenge message links to it.
    let update = CreateReply::default()
        .content(format!(
            "Challenge #{id} accepted. {}",
            threads::link_line(data, &game, thread)
        ))
        .allowed_mentions(mentions::nobody())
        .components(Vec::new());
    let sent = click.update(update).await;
    scope.not_shown().await;
    sent.map_err(|e| BotError::ReplyNotSent(Box::new(e)))?;
    Ok(())
}

async fn run(click: &ClickAnswer<'_>, data: &Data, action: ButtonAction) -> Result<(), BotError> {
    let press = click.press();
    let http = click.http();
    match action {
        ButtonAction::HowToPlay => {
            let reply = CreateReply::default()
                .embed(help::how_to_play_embed())
                .allowed_mentions(mentions::nobody())
                .ephemeral(true);
            click.message(reply).await?;
        }
        ButtonAction::Accept(id) if on_private_message(press) => {
            // From /challenges: the game starts in the challenge's channel, posted there.
            check_may_answer(press, data, id).await?;
            let me = data.player_of(&press.user).await?;
            let game = data.service.challenges().accept(me, id).await?;
            challenge_posts::take_buttons_off(http, data, id).await;
            let text = format!(
                "Challenge #{id} accepted: game #{} starts{}.",
                game.id,
                challenge_posts::where_shown(game.context.as_deref())
            );
            click.message(private(text)).await?;
        }
        ButtonAction::Accept(id) => accept(click, data, id).await?,
        ButtonAction::Decline(id) => {
            check_may_answer(press, data, id).await?;
            let me = data.player_of(&press.user).await?;
            let challenge = data.service.challenges().decline(me, id).await?;
            if on_private_message(press) {
                challenge_posts::take_buttons_off(http, data, id).await;
                click
                    .message(private(format!("You declined challenge #{id}.")))
                    .await?;
                return Ok(());
            }
            let update = CreateReply::default()
                .content(format!(
                    "Challenge #{id} from {} was declined by <@{}>.",
                    seat_label(&challenge.challenger),
                    press.user.id.get()
                ))
                .allowed_mentions(mentions::only(
                    &challenge
                        .challenger
                        .discord_user_id
                        .into_iter()
                        .collect::<Vec<_>>(),
                ))
                .components(Vec::new());
            click.update(update).await?;
        }
        ButtonAction::Cancel(id) => {
            let me = data.player_of(&press.user).await?;
            data.service.challenges().cancel(me, id).await?;
            if on_private_message(press) {
                challenge_posts::take_buttons_off(http, data, id).await;
                click
                    .message(private(format!("You withdrew challenge #{id}.")))
                    .await?;
                return Ok(());
            }
            let update = CreateReply::default()
                .content(format!(
                    "Challenge #{id} was withdrawn by <@{}>.",
                    press.user.id.get()
                ))
                .allowed_mentions(mentions::nobody())
                .components(Vec::new());
            click.update(update).await?;
        }
        ButtonAction::Game(button, game) => game_buttons::run(click, data, button, game).await?,
        ButtonAction::Pick(step) => picker::run(click, data, step).await?,
        ButtonAction::Puzzle(step) => puzzles::run(click, data, step).await?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        for action in [
            ButtonAction::HowToPlay,
            ButtonAction::Accept(ChallengeId(17)),
            ButtonAction::Decline(ChallengeId(9_000_000_001)),
            ButtonAction::Cancel(ChallengeId(3)),
            ButtonAction::Game(GameButton::ResignYes, GameId(i64::MAX)),
            ButtonAction::Game(GameButton::Rematch, GameId(12)),
            ButtonAction::Pick(PickerStep::Targets {
                game: GameId(i64::MAX),
                ply: u32::MAX,
                from: "s19".into(),
            }),
        ] {
            assert!(action.custom_id().len() <= 100, "{}", action.custom_id());
            assert_eq!(ButtonAction::parse(&action.custom_id()).unwrap(), action);
        }
    }

    #[test]
    fn unknown_or_forged_custom_ids_are_refused() {
        for id in [
            "nope:1",
            "challenge:accept:x",
            "challenge:steal:1",
            "challenge:accept",
            "game:explode:1",
            "game:resign:x",
            "pick:to:1:2",
            "",
        ] {
            assert!(
                matches!(ButtonAction::parse(id), Err(BotError::UnknownButton(got)) if got == id),
                "{id}"
            );
        }
    }
}
