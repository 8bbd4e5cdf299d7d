//! The buttons under a game's posts: pick a move, legal moves, flip, offer draw, resign (with
//! a private confirmation), the answers to a draw offer, and a rematch once the game is over.
//! Each calls the games service as the matching command does; the service decides who may
//! act. What is shown only to the presser is ephemeral; what the other player must see (a draw
//! offered or answered, a game ended) the service posts in the game's channel.

use poise::CreateReply;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton, EditMessage};

use super::answers::ClickAnswer;
use super::commands::challenge::{challenge_buttons, challenge_text};
use super::commands::common::fitted;
use super::components::{ButtonAction, answer_privately, on_private_message};
use super::posts::{self, seat_label};
use super::{BotError, Data, challenge_posts, mentions, picker};
use crate::domain::GameId;
use crate::service::GameView;

/// What a game button does; its word in the custom id is [`GameButton::verb`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameButton {
    /// Opens the move picker (select menus), privately.
    Pick,
    /// Lists the presser's legal moves, privately.
    Legal,
    /// Shows the board turned half a turn, privately.
    Flip,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Asks "Really resign?" privately.
    Resign,
    ResignYes,
    ResignNo,
    /// Challenges the other player to the same game with the sides swapped.
    Rematch,
}

const VERBS: [(GameButton, &str); 10] = [
    (GameButton::Pick, "pick"),
    (GameButton::Legal, "legal"),
    (GameButton::Flip, "flip"),
    (GameButton::OfferDraw, "draw-offer"),
    (GameButton::AcceptDraw, "draw-accept"),
    (GameButton::DeclineDraw, "draw-decline"),
    (GameButton::Resign, "resign"),
    (GameButton::ResignYes, "resign-yes"),
    (GameButton::ResignNo, "resign-no"),
    (GameButton::Rematch, "rematch"),
];

impl GameButton {
    pub fn verb(self) -> &'static str {
        VERBS
            .iter()
            .find(|(button, _)| *button == self)
            .map_or("", |(_, verb)| verb)
    }

    pub fn from_verb(verb: &str) -> Option<GameButton> {
        VERBS
            .iter()
            .find(|(_, v)| *v == verb)
            .map(|(button, _)| *button)
    }
}

fn button(game: GameId, kind: GameButton, label: &str, style: ButtonStyle) -> CreateButton {
    CreateButton::new(ButtonAction::Game(kind, game).custom_id())
        .label(label)
        .style(style)
}

/// The buttons under an active game's posts: one row of five.
pub fn game_rows(game: GameId) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        button(game, GameButton::Pick, "Pick a move", ButtonStyle::Primary),
        button(
            game,
            GameButton::Legal,
            "Legal moves",
            ButtonStyle::Secondary,
        ),
        button(game, GameButton::Flip, "Flip", ButtonStyle::Secondary),
        button(
            game,
            GameButton::OfferDraw,
            "Offer draw",
            ButtonStyle::Secondary,
        ),
        button(game, GameButton::Resign, "Resign", ButtonStyle::Danger),
    ])]
}

/// Accept and Decline under a draw offer.
pub fn draw_answer_rows(game: GameId) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        button(
            game,
            GameButton::AcceptDraw,
            "Accept draw",
            ButtonStyle::Success,
        ),
        button(
            game,
            GameButton::DeclineDraw,
            "Decline draw",
            ButtonStyle::Danger,
        ),
    ])]
}

/// The Rematch button under a finished (or aborted) game.
pub fn rematch_rows(game: &GameView) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![button(
        game.id,
        GameButton::Rematch,
        "Rematch",
        ButtonStyle::Primary,
    )])]
}

fn message(text: String) -> CreateReply {
    CreateReply::default().content(fitted(text))
}

/// Replaces the private message the button was on (the resign confirmation).
async fn update_private(click: &ClickAnswer<'_>, text: String) -> Result<(), BotError> {
    let update = message(text)
        .allowed_mentions(mentions::nobody())
        .components(Vec::new());
    click.update(update).await?;
    Ok(())
}

/// A button of a finished game: says so privately, and takes the buttons off the post it was
/// on when that post is public (best effort: the answer matters, the edit is a courtesy).
async fn game_is_over(click: &ClickAnswer<'_>, data: &Data, game: GameId) -> Result<(), BotError> {
    let press = click.press();
    answer_privately(click, message(format!("Game #{game} is over."))).await?;
    if !on_private_message(press) {
        let edit = EditMessage::new()
            .components(Vec::new())
            .allowed_mentions(mentions::nobody());
        let edited = press
            .channel_id
            .edit_message(click.http(), press.message.id, edit);
        if let Err(e) = data.rest_gate().run(edited).await {
            tracing::info!(%game, "buttons of a finished game left on: {e}");
        }
    }
    Ok(())
}

/// Handles a click on one of `game`'s buttons.
pub async fn run(
    click: &ClickAnswer<'_>,
    data: &Data,
    kind: GameButton,
    game: GameId,
) -> Result<(), BotError> {
    let press = click.press();
    let me = data.player_of(&press.user).await?;
    let view = data.service.games().game(Some(me), game).await?;
    // Every button but Rematch acts on a game that goes on, and only for its players.
    if kind != GameButton::Rematch {
        if !view.status.is_active() {
            return game_is_over(click, data, game).await;
        }
        if view.your_side.is_none() {
            return Err(BotError::NotYourGame(game));
        }
    }
    match kind {
        GameButton::Pick => picker::open(click, data, &view).await,
        GameButton::Legal => legal_moves(click, data, &view).await,
        GameButton::Flip => flipped_board(click, data, &view).await,
        GameButton::Resign => {
            let confirm = message(format!("Really resign game #{game}?")).components(vec![
                CreateActionRow::Buttons(vec![
                    button(
                        game,
                        GameButton::ResignYes,
                        "Yes, resign",
                        ButtonStyle::Danger,
                    ),
                    button(game, GameButton::ResignNo, "No", ButtonStyle::Secondary),
                ]),
            ]);
            answer_privately(click, confirm).await
        }
        GameButton::ResignYes => {
            // The service posts the end in the game's channel, for both players.
            data.service.games().resign(me, game).await?;
            update_private(click, format!("You resigned game #{game}.")).await
        }
        GameButton::ResignNo => update_private(click, format!("Game #{game} goes on.")).await,
        GameButton::OfferDraw => {
            data.service.games().offer_draw(me, game).await?;
            let text = format!("You offered a draw in game #{game}; your opponent is asked.");
            answer_privately(click, message(text)).await
        }
        GameButton::AcceptDraw => {
            data.service.games().accept_draw(me, game).await?;
            answer_privately(
                click,
                message(format!("You accepted the draw in game #{game}.")),
            )
            .await
        }
        GameButton::DeclineDraw => {
            data.service.games().decline_draw(me, game).await?;
            answer_privately(
                click,
                message(format!("You declined the draw in game #{game}.")),
            )
            .await
        }
        GameButton::Rematch => rematch(click, data, &view).await,
    }
}

/// The presser's legal moves, or whose turn it is.
async fn legal_moves(
    click: &ClickAnswer<'_>,
    data: &Data,
    view: &GameView,
) -> Result<(), BotError> {
    let text = match (view.your_turn, view.side_to_move) {
        (false, Some(side)) => format!(
            "It is not your turn in game #{}: {} ({side}) to move.",
            view.id,
            seat_label(posts::seat_of(view, side))
        ),
        _ => {
            let moves = data.service.games().legal_moves(view.id, None).await?;
            format!(
                "Your {} legal moves in game #{}:\n{}",
                moves.len(),
                view.id,
                moves.join(" ")
            )
        }
    };
    answer_privately(click, message(text)).await
}

/// The board turned half a turn from how the presser usually sees it.
async fn flipped_board(
    click: &ClickAnswer<'_>,
    data: &Data,
    view: &GameView,
) -> Result<(), BotError> {
    let me = data.player_of(&click.press().user).await?;
    let flip = !data.service.accounts().board_flipped(me).await?;
    let board = posts::board_image(data, view.id, None, flip).await;
    let mut reply = message(format!(
        "Game #{}, {}.",
        view.id,
        if flip {
            "seen from the other edge"
        } else {
            "seen the usual way round"
        }
    ));
    if let Some(board) = board {
        let file = serenity::all::CreateAttachment::bytes(
            board.png,
            posts::board_filename(view.id, view.ply),
        )
        .description(board.alt);
        reply = reply.attachment(file);
    }
    answer_privately(click, reply).await
}

/// A rematch of a finished game: a new challenge to the other player (sides swapped) with
/// Accept/Decline buttons, or against the AI a new game at once.
async fn rematch(click: &ClickAnswer<'_>, data: &Data, view: &GameView) -> Result<(), BotError> {
    let press = click.press();
    let me = data.player_of(&press.user).await?;
    // The service refuses a rematch of a game that goes on, or by someone not in it.
    let scope = data.service.discord().in_reply_in(press.channel_id.get());
    let created = scope.service().challenges().rematch(me, view.id).await?;
    let reply = match &created.game {
        Some(game) => {
            data.expect_ai_reply(game.id, &press.token);
            let post = posts::start_post(data, game).await;
            let mut reply = message(post.content.clone())
                .allowed_mentions(mentions::only(&post.pings))
                .components(post.components.clone());
            if let Some(file) = post.attachment() {
                reply = reply.attachment(file);
            }
            reply
        }
        None => {
            let pings: Vec<u64> = created
                .challenge
                .opponent
                .as_ref()
                .and_then(posts::discord_user)
                .into_iter()
                .collect();
            message(format!("Rematch! {}", challenge_text(&created.challenge)))
                .allowed_mentions(mentions::only(&pings))
                .components(challenge_buttons(&created.challenge))
        }
    };
    let shown = match click.message(reply).await {
        Ok(shown) => {
            scope.shown().await;
            shown
        }
        Err(e) => {
            scope.not_shown().await;
            return Err(BotError::ReplyNotSent(Box::new(e)));
        }
    };
    if created.game.is_some() {
        return Ok(());
    }
    // Remembered so the buttons can be taken off when the challenge expires.
    let shown = match shown {
        Some(message) => Ok(message),
        None => press.get_response(click.http()).await,
    };
    match shown {
        Ok(message) => challenge_posts::note(data, created.challenge.id, &message).await,
        Err(e) => {
            tracing::info!(challenge = %created.challenge.id, "rematch message not read back: {e}")
        }
    }
    Ok(())
}
