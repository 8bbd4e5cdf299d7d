//! `/games`, `/rules`, `/token`: about the player and the variants.

use serenity::all::{CreateAttachment, CreateEmbed};

use super::common::autocomplete_variant;
use super::help::EMBED_COLOUR;
use crate::discord::places::channel_of;
use crate::discord::posts::{self, discord_time, seat_label};
use crate::discord::{BotError, Context};

/// Your active games: where, whose turn, deadline
#[poise::command(slash_command)]
pub async fn games(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let list = data.service.list_games(me).await?;
    let active: Vec<_> = list.iter().filter(|g| g.status == "active").collect();
    let text = if active.is_empty() {
        "You have no active games. Start one with `/challenge` or `/play`.".to_owned()
    } else {
        active
            .iter()
            .map(|g| {
                let place = g
                    .context
                    .as_deref()
                    .and_then(channel_of)
                    .map(|c| format!("<#{}>", c.get()))
                    .unwrap_or_else(|| "over HTTP".to_owned());
                let turn = if g.your_turn {
                    "**your turn**".to_owned()
                } else {
                    "their turn".to_owned()
                };
                let deadline = g
                    .deadline_at
                    .map(|d| format!(", deadline {}", discord_time(d)))
                    .unwrap_or_default();
                format!(
                    "#{} {}: {} vs {} in {place}, {turn}{deadline}",
                    g.id,
                    g.variant.as_deref().unwrap_or("custom rules"),
                    seat_label(&g.attackers),
                    seat_label(&g.defenders)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}

/// The rules of a variant, and its start position
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which variant"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
) -> Result<(), BotError> {
    let Some(preset) = tafl_engine::variant(variant.trim()) else {
        let known: Vec<&str> = tafl_engine::variants().iter().map(|v| v.id).collect();
        return Err(BotError::BadOption(format!(
            "I do not know the variant {variant:?}; try one of: {}.",
            known.join(", ")
        )));
    };
    let rules = preset.rules();
    let summary: String = rules.summary().chars().take(3500).collect();
    let embed = CreateEmbed::new()
        .title(format!("{} ({}x{})", preset.name, rules.dim(), rules.dim()))
        .description(summary)
        .footer(serenity::all::CreateEmbedFooter::new(format!(
            "Rules: {}",
            preset.source
        )))
        .colour(EMBED_COLOUR);
    let mut reply = poise::CreateReply::default();
    match posts::start_position_png(rules).await {
        Ok(png) => {
            let name = format!("{}-start.png", preset.id);
            reply = reply.attachment(CreateAttachment::bytes(png, name.clone()));
            ctx.send(reply.embed(embed.image(format!("attachment://{name}"))))
                .await?;
        }
        Err(e) => {
            tracing::warn!("no start image for {}: {e}", preset.id);
            ctx.send(reply.embed(embed)).await?;
        }
    }
    Ok(())
}

/// A private API token to play your games over HTTP
#[poise::command(slash_command)]
pub async fn token(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let issued = data.service.issue_api_token(me, "discord /token").await?;
    let text = format!(
        "Your API token (shown once, keep it secret):\n`{}`\nSend it as `Authorization: Bearer <token>` to the HTTP API (`/api/v1`); it plays the same games as you do here.",
        issued.token
    );
    ctx.send(poise::CreateReply::default().content(text).ephemeral(true))
        .await?;
    Ok(())
}
