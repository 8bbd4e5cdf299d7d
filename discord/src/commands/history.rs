//! `/history`: finished games, yours or someone's, latest first, in pages like `/games`.

use crate::answers::command::send;
use serenity::all::User;

use super::common::fitted;
use crate::domain::GameStatus;
use crate::error::capitalized;
use crate::mentions;
use crate::posts::{discord_time, seat_label};
use crate::service::{GameSummary, HistoryQuery, variant_label};
use crate::{BotError, Context};

/// Games on one page: what fits a message (2,000 characters) even when every name shown is as
/// long as names are shown (see `mentions::literal`).
const PAGE_SIZE: u32 = 8;

/// Finished games, latest first
#[poise::command(slash_command)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Whose (default: yours)"] user: Option<User>,
    #[description = "Which page (default: 1)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let player = match &user {
        None => me,
        Some(user) => match data
            .service
            .accounts()
            .player_of_discord_user(user.id.get())
            .await?
        {
            Some(player) => player.id,
            None => {
                return Err(BotError::BadOption(format!(
                    "{} has not played here yet.",
                    mentions::literal(user.global_name.as_deref().unwrap_or(&user.name))
                )));
            }
        },
    };
    let page = page.unwrap_or(1).max(1);
    let games = data
        .service
        .games()
        .games_of_player(
            player,
            Some(me),
            HistoryQuery {
                status: Some(GameStatus::Finished),
                variant: None,
                page,
                page_size: PAGE_SIZE,
            },
        )
        .await?;
    let whose = match &user {
        None => "Your finished games".to_owned(),
        Some(user) => format!("Finished games of <@{}>", user.id.get()),
    };
    let mut lines = vec![format!("**{whose}** (page {page})")];
    if games.items.is_empty() {
        lines.push(if page == 1 {
            "None yet.".to_owned()
        } else {
            "No more: this page is past the last.".to_owned()
        });
    }
    lines.extend(games.items.iter().map(game_line));
    if let Some(next) = games.next_page {
        lines.push(format!("More on `/history page:{next}`."));
    }
    send(
        &ctx,
        poise::CreateReply::default().content(fitted(lines.join("\n"))),
    )
    .await?;
    Ok(())
}

/// "#12 brandubh: <@1> vs bob · Defenders won (resignation), 3 days ago · rated"
fn game_line(g: &GameSummary) -> String {
    let result = g
        .result
        .as_ref()
        .map_or_else(|| "over".to_owned(), |r| capitalized(&r.to_string()));
    format!(
        "#{} {}: {} vs {} · {result}, {}{}",
        g.id,
        mentions::literal(variant_label(g.variant.as_deref())),
        seat_label(&g.attackers),
        seat_label(&g.defenders),
        discord_time(g.updated_at),
        if g.rated { " · rated" } else { "" }
    )
}
