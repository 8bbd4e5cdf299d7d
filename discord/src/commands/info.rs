//! `/games`, `/rules`, `/token`: about the player and the variants.

use crate::answers::command::send;
use serenity::all::{CreateAttachment, CreateEmbed};

use super::common::autocomplete_variant;
use super::help::EMBED_COLOUR;
use crate::places::channel_of;
use crate::posts::{self, discord_time, seat_label};
use crate::service::variant_label;
use crate::{BotError, Context};

/// What a Discord message may hold, less room for the page line.
pub const MAX_LISTING: usize = 1_900;

/// Your active games: where, whose turn, deadline
#[poise::command(slash_command, ephemeral)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Which page, when you have many games (default: 1)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let list = data.service.games().list_games(me).await?;
    let lines: Vec<String> = list
        .iter()
        .filter(|g| g.status.is_active())
        .map(game_line)
        .collect();
    let text = if lines.is_empty() {
        "You have no active games. Start one with `/challenge` or `/play`.".to_owned()
    } else {
        listing_page(&lines, page.unwrap_or(1), MAX_LISTING, "games")
    };
    send(
        &ctx,
        poise::CreateReply::default().content(text).ephemeral(true),
    )
    .await?;
    Ok(())
}

fn game_line(g: &crate::service::GameSummary) -> String {
    let place = g
        .context
        .as_deref()
        .and_then(channel_of)
        .map(|c| format!("<#{}>", c.get()))
        .unwrap_or_else(|| "over HTTP".to_owned());
    let turn = if g.your_turn {
        "**your turn**"
    } else {
        "their turn"
    };
    let deadline = g
        .deadline_at
        .map(|d| format!(", deadline {}", discord_time(d)))
        .unwrap_or_default();
    format!(
        "#{} {}: {} vs {} in {place}, {turn}{deadline}",
        g.id,
        variant_label(g.variant.as_deref()),
        seat_label(&g.attackers),
        seat_label(&g.defenders)
    )
}

/// Page `page` (from 1) of `lines`, each page at most `budget` characters, with a last line
/// saying how many are left out and how to see them with `/command page:N`.
pub fn listing_page(lines: &[String], page: u32, budget: usize, command: &str) -> String {
    let pages = paginate(lines, budget);
    let total = pages.len();
    let index = usize::try_from(page.max(1) - 1).unwrap_or(usize::MAX);
    let Some(range) = pages.get(index) else {
        return format!("There are only {total} page(s); try `/{command} page:{total}`.");
    };
    let mut text = lines[range.clone()].join("\n");
    let before = range.start;
    let after = lines.len() - range.end;
    if total > 1 {
        text.push_str(&format!(
            "\nPage {page} of {total}: {} of {} shown",
            range.len(),
            lines.len()
        ));
        if after > 0 {
            text.push_str(&format!(", {after} more on `/{command} page:{}`", page + 1));
        } else if before > 0 {
            text.push_str(&format!(", {before} on earlier pages"));
        }
        text.push('.');
    }
    text
}

/// Splits `lines` into pages of at most `budget` characters (a longer line is a page alone).
fn paginate(lines: &[String], budget: usize) -> Vec<std::ops::Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let cost = line.chars().count() + 1;
        if i > start && used + cost > budget {
            pages.push(start..i);
            start = i;
            used = 0;
        }
        used += cost;
    }
    if start < lines.len() {
        pages.push(start..lines.len());
    }
    pages
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
    let alt = crate::alt_text::describe_start(preset.name, &rules);
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
            reply = reply.attachment(CreateAttachment::bytes(png, name.clone()).description(alt));
            send(
                &ctx,
                reply.embed(embed.image(format!("attachment://{name}"))),
            )
            .await?;
        }
        Err(e) => {
            tracing::warn!("no start image for {}: {e}", preset.id);
            send(&ctx, reply.embed(embed)).await?;
        }
    }
    Ok(())
}

/// A private API token to play your games over HTTP
#[poise::command(slash_command, ephemeral)]
pub async fn token(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let issued = data
        .service
        .accounts()
        .issue_api_token(me, "discord /token")
        .await?;
    let text = format!(
        "Your API token (shown once, keep it secret):\n`{}`\nSend it as `Authorization: Bearer <token>` to the HTTP API (`/api/v1`); it plays the same games as you do here.",
        issued.token
    );
    send(
        &ctx,
        poise::CreateReply::default().content(text).ephemeral(true),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("#{i} {}", "x".repeat(120)))
            .collect()
    }

    #[test]
    fn long_listings_are_paged_under_discords_limit_with_a_count() {
        let all = lines(40);
        let first = listing_page(&all, 1, MAX_LISTING, "games");
        assert!(first.chars().count() <= 2_000, "{}", first.len());
        assert!(first.contains("Page 1 of 3"), "{first}");
        assert!(first.contains("more on `/games page:2`"), "{first}");
        let mut seen = 0;
        for page in 1..=3 {
            let text = listing_page(&all, page, MAX_LISTING, "games");
            assert!(text.chars().count() <= 2_000);
            seen += text.lines().filter(|l| l.starts_with('#')).count();
        }
        assert_eq!(seen, 40, "every game is on exactly one page");
        assert!(listing_page(&all, 9, MAX_LISTING, "games").contains("only 3 page(s)"));
    }

    #[test]
    fn a_short_listing_has_no_page_line() {
        let few = lines(3);
        assert_eq!(listing_page(&few, 1, MAX_LISTING, "games"), few.join("\n"));
    }
}
