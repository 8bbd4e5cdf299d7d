//! Commands about the game of this channel: `/board`, `/resign`, `/draw`, `/record`.

use crate::answers::command::{send, send_private};
use serenity::all::CreateAttachment;

use super::common::{answer, autocomplete_game, fitted, game_here};
use crate::domain::{GameId, Side};
use crate::posts::{self, Post};
use crate::service::GameView;
use crate::{BotError, Context};
use crate::{game_buttons, text_board};

/// Discord refuses messages longer than 2000 characters.
const MAX_CONTENT: usize = 1900;

async fn my_game(
    ctx: &Context<'_>,
    game: Option<GameId>,
) -> Result<(crate::domain::PlayerId, GameView), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let summary = game_here(ctx, me, game).await?;
    Ok((me, data.service.games().game(Some(me), summary.id).await?))
}

/// Show the board of this channel's game
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
    #[description = "As monospace text with coordinates instead of an image"] text: Option<bool>,
    #[description = "Remember: show boards only you see turned round (answers privately)"]
    flip: Option<bool>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, view) = my_game(&ctx, game.map(GameId)).await?;
    let mut post = posts::board_post(data, &view).await;
    let mut private = false;
    if let Some(flip) = flip {
        // A preference: remembered, and this answer is the first private board drawn by it.
        data.service.accounts().set_board_flipped(me, flip).await?;
        private = true;
        if let Some(board) = posts::board_image(data, view.id, None, flip).await {
            post.png = Some(board.png);
            post.alt = board.alt;
        }
        post.content = format!(
            "{}\n*From now on, boards shown only to you are drawn {}.*",
            post.content,
            if flip {
                "turned round"
            } else {
                "the usual way"
            }
        );
    }
    if text == Some(true) {
        let snapshot = data.service.games().board_snapshot(view.id, None).await?;
        let board = text_board::render(&snapshot);
        post.content = fitted(format!("{board}\n{}", post.content));
        post.png = None;
    }
    if private {
        send_private(&ctx, post.reply()).await?;
    } else {
        send(&ctx, post.reply()).await?;
    }
    Ok(())
}

/// Give up this channel's game
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    act(&ctx, game.map(GameId), Action::Resign).await
}

/// What a player does to this channel's game, besides moving.
enum Action {
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

/// Applies `action` to this channel's game and answers in the channel; the outbox posts the
/// same news only if that answer does not go out.
async fn act(ctx: &Context<'_>, game: Option<GameId>, action: Action) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, view) = my_game(ctx, game).await?;
    let scope = data.service.discord().in_reply_in(ctx.channel_id().get());
    let service = scope.service();
    let after = match action {
        Action::Resign => service.games().resign(me, view.id).await?,
        Action::OfferDraw => service.games().offer_draw(me, view.id).await?,
        Action::AcceptDraw => service.games().accept_draw(me, view.id).await?,
        Action::DeclineDraw => service.games().decline_draw(me, view.id).await?,
    };
    let (mine, theirs) = match after.your_side {
        Some(Side::Attackers) => (&after.attackers, &after.defenders),
        _ => (&after.defenders, &after.attackers),
    };
    let them: Vec<u64> = posts::discord_user(theirs).into_iter().collect();
    let post = match action {
        Action::Resign | Action::AcceptDraw => {
            posts::end_post(data, &after, Some(ctx.author().id.get())).await
        }
        Action::OfferDraw => Post::text(
            format!(
                "{} offers a draw in game #{}. {}: accept or decline with the buttons (or `/draw accept`, `/draw decline`).",
                posts::seat_label(mine),
                after.id,
                posts::seat_label(theirs)
            ),
            them,
        )
        .with_components(game_buttons::draw_answer_rows(after.id)),
        Action::DeclineDraw => Post::text(
            format!(
                "Draw declined in game #{}, {}: play on.",
                after.id,
                posts::seat_label(theirs)
            ),
            them,
        ),
    };
    answer(ctx, scope, post.reply()).await
}

/// Offer, accept or decline a draw
#[poise::command(
    slash_command,
    subcommands("draw_offer", "draw_accept", "draw_decline"),
    subcommand_required
)]
pub async fn draw(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Offer a draw to your opponent
#[poise::command(slash_command, rename = "offer")]
pub async fn draw_offer(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    act(&ctx, game.map(GameId), Action::OfferDraw).await
}

/// Accept the draw your opponent offered
#[poise::command(slash_command, rename = "accept")]
pub async fn draw_accept(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    act(&ctx, game.map(GameId), Action::AcceptDraw).await
}

/// Decline the draw your opponent offered
#[poise::command(slash_command, rename = "decline")]
pub async fn draw_decline(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    act(&ctx, game.map(GameId), Action::DeclineDraw).await
}

/// Numbered move list: "1. e4-e6 d1-d3  2. ...".
pub fn move_list(view: &GameView) -> String {
    let mut text = String::new();
    for (i, pair) in view.moves.chunks(2).enumerate() {
        let notations: Vec<&str> = pair.iter().map(|m| m.notation.as_str()).collect();
        text.push_str(&format!("{}. {}  ", i + 1, notations.join(" ")));
    }
    text.trim_end().to_owned()
}

/// The moves of this channel's game, and the game as an OpenTafl record (.otg)
#[poise::command(slash_command)]
pub async fn record(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (_, view) = my_game(&ctx, game.map(GameId)).await?;
    let mut moves = move_list(&view);
    if moves.is_empty() {
        moves = "no moves yet".to_owned();
    }
    if moves.chars().count() > MAX_CONTENT {
        let skip = moves.chars().count() - MAX_CONTENT;
        moves = format!("...{}", moves.chars().skip(skip).collect::<String>());
    }
    let mut reply = poise::CreateReply::default();
    let mut content = format!("**Game #{}** ({} moves)\n{moves}", view.id, view.ply);
    match data.service.games().export_otg(view.id).await {
        Ok(record) => {
            reply = reply.attachment(CreateAttachment::bytes(
                record.into_bytes(),
                format!("game-{}.otg", view.id),
            ));
        }
        Err(e) => content.push_str(&format!("\n(The .otg record is not available: {e}.)")),
    }
    send(&ctx, reply.content(content)).await?;
    Ok(())
}
