//! `/puzzle`: a puzzle mined from a real game, near your puzzle rating, solved privately with
//! the move picker's menus (see `discord/src/puzzles.rs`).

use crate::answers::command::send;

use super::common::autocomplete_variant;
use crate::puzzles::{board_message, describe};
use crate::{BotError, Context};

/// A puzzle from a real game, near your puzzle rating (only you see it)
#[poise::command(slash_command, ephemeral)]
pub async fn puzzle(
    ctx: Context<'_>,
    #[description = "Only puzzles of this variant (default: any)"]
    #[autocomplete = "autocomplete_variant"]
    variant: Option<String>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let view = data.service.puzzles().next(me, variant).await?;
    let reply = board_message(data, view.id, Vec::new(), describe(&view)).await?;
    send(&ctx, reply).await?;
    Ok(())
}
