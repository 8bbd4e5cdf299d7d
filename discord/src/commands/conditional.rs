//! `/conditional add|list|remove|clear`: conditional moves from Discord. While your opponent
//! is to move, queue "if they play X, I play Y; then if Z, W" for the game here; when they play
//! the first move of a line, your answer is played at once. Every answer is private (only you
//! see your lines, and nobody sees you used the command); the checks are the service's, as
//! over HTTP and on the web: each move checked by the referee, your opponent to move.

use super::common::{autocomplete_game, fitted, game_here};
use crate::answers::command::send_private;
use crate::domain::{GameId, PlayerId};
use crate::service::ConditionalMovesView;
use crate::{BotError, Context, mentions};

/// Conditional moves: your answers to your opponent's next moves, played at once
#[poise::command(
    slash_command,
    guild_only,
    subcommands("add", "list", "remove", "clear"),
    subcommand_required
)]
pub async fn conditional(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Queue a line: your opponent's move, your answer, and on (e.g. d1-b1 c4-c2)
#[poise::command(slash_command, guild_only, ephemeral)]
pub async fn add(
    ctx: Context<'_>,
    #[description = "Their move, your answer, their next, your answer: d1-b1 c4-c2 a4-a2 e4-e2"]
    #[max_length = 400]
    line: String,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, id) = my_game_here(&ctx, game).await?;
    let moves: Vec<String> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    let view = data
        .service
        .games()
        .add_conditional_line(me, id, None, moves)
        .await?;
    privately(&ctx, format!("Queued.\n{}", lines_text(&view))).await
}

/// Your queued lines in the game here (only you see them)
#[poise::command(slash_command, guild_only, ephemeral)]
pub async fn list(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, id) = my_game_here(&ctx, game).await?;
    let view = data.service.games().conditional_moves(me, id).await?;
    privately(&ctx, lines_text(&view)).await
}

/// Drop one queued line, by its number in `/conditional list`
#[poise::command(slash_command, guild_only, ephemeral)]
pub async fn remove(
    ctx: Context<'_>,
    #[description = "The line's number, as /conditional list shows it"]
    #[min = 1]
    #[max = 32]
    number: u32,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, id) = my_game_here(&ctx, game).await?;
    let view = data
        .service
        .games()
        .drop_conditional_line(me, id, number as usize)
        .await?;
    privately(
        &ctx,
        format!("Line {number} dropped.\n{}", lines_text(&view)),
    )
    .await
}

/// Drop every queued line in the game here
#[poise::command(slash_command, guild_only, ephemeral)]
pub async fn clear(
    ctx: Context<'_>,
    #[description = "Which game, when this channel has several"]
    #[autocomplete = "autocomplete_game"]
    game: Option<i64>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let (me, id) = my_game_here(&ctx, game).await?;
    data.service.games().drop_conditional_moves(me, id).await?;
    privately(&ctx, format!("Game #{id}: no lines queued now.")).await
}

/// The player and the game here they mean (`game`, or the one game of theirs here).
async fn my_game_here(
    ctx: &Context<'_>,
    game: Option<i64>,
) -> Result<(PlayerId, GameId), BotError> {
    let me = ctx.data().player_of(ctx.author()).await?;
    let id = game_here(ctx, me, game.map(GameId)).await?.id;
    Ok((me, id))
}

/// "Game #4, your lines:\n1. if d1-b1, then c4-c2; if a4-a2, then e4-e2".
fn lines_text(view: &ConditionalMovesView) -> String {
    let game = view.game_id;
    if view.lines.is_empty() {
        return format!(
            "Game #{game}: no lines queued. Add one with `/conditional add line:` (their move, \
             your answer, ...)."
        );
    }
    let mut text = format!("Game #{game}, your lines (only you see them):");
    for (i, line) in view.lines.iter().enumerate() {
        let steps: Vec<String> = line
            .chunks(2)
            .map(|pair| match pair {
                [theirs, mine] => format!("if `{theirs}`, then `{mine}`"),
                other => other.join(" "),
            })
            .collect();
        text.push_str(&format!("\n{}. {}", i + 1, steps.join("; ")));
    }
    text
}

async fn privately(ctx: &Context<'_>, text: String) -> Result<(), BotError> {
    send_private(
        ctx,
        poise::CreateReply::default()
            .content(fitted(text))
            .ephemeral(true)
            .allowed_mentions(mentions::nobody()),
    )
    .await?;
    Ok(())
}
