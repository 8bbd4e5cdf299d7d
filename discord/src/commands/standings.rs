//! `/leaderboard` and `/stats`: ratings and results, for everyone to see. Names people typed are
//! shown literally (they ping nobody); handles are shown as code.

use crate::answers::command::send;
use serenity::all::User;

use super::common::{autocomplete_variant, fitted};
use super::info::{MAX_LISTING, listing_page};
use crate::domain::{PlayerId, PlayerKind, Title};
use crate::mentions;
use crate::service::ratings::ai_players::{ai_player_name, level_may_be_rated};
use crate::service::{PlayerProfile, variant_label};
use crate::{BotError, Context};

/// A variant's best rated players (provisional ratings are left out)
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which variant"]
    #[autocomplete = "autocomplete_variant"]
    variant: String,
    #[description = "Only players who used the bot in this server (default: everyone)"]
    server_only: Option<bool>,
    #[description = "Which page (default: 1)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let guild = match (server_only.unwrap_or(false), ctx.guild_id()) {
        (false, _) => None,
        (true, Some(guild)) => Some(guild.get()),
        (true, None) => {
            return Err(BotError::BadOption(
                "`server_only` needs a server; here there is none.".into(),
            ));
        }
    };
    // The top 50 (one page of the service's), shown in pages that fit a message.
    let board = data
        .service
        .ratings()
        .leaderboard(&variant, guild, 1)
        .await?;
    let scope = if guild.is_some() {
        " (this server)"
    } else {
        ""
    };
    let title = format!(
        "**Leaderboard: {}**{scope}",
        mentions::literal(variant.trim())
    );
    let lines: Vec<String> = board
        .items
        .iter()
        .map(|e| {
            // The AI levels are marked: their ratings are measured from games against people.
            let ai = match e.kind {
                PlayerKind::Ai => ", AI",
                PlayerKind::Person => "",
            };
            format!(
                "{}. {}{} (`{}`{ai}) {:.0} ±{:.0} · {} rated game{}",
                e.rank,
                title_before(e.title),
                mentions::literal(&e.name),
                e.handle,
                e.rating,
                e.deviation,
                e.games,
                if e.games == 1 { "" } else { "s" }
            )
        })
        .collect();
    let text = if lines.is_empty() {
        format!(
            "{title}\nNobody is on it yet: ratings show here once their deviation is 110 or \
             less (after a few rated games)."
        )
    } else {
        format!(
            "{title}\n{}",
            listing_page(&lines, page.unwrap_or(1), MAX_LISTING - 100, "leaderboard")
        )
    };
    send(&ctx, poise::CreateReply::default().content(text)).await?;
    Ok(())
}

/// Ratings, results and current games of a player
#[poise::command(slash_command)]
pub async fn stats(
    ctx: Context<'_>,
    #[description = "Whose (default: yours)"] user: Option<User>,
    #[description = "The AI at this level instead: its rating measured in rated games"]
    #[min = 1]
    #[max = 5]
    level: Option<u8>,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    if let Some(level) = level {
        if user.is_some() {
            return Err(BotError::BadOption(
                "Name a user or an AI level, not both.".into(),
            ));
        }
        return ai_level_stats(&ctx, me, level).await;
    }
    let (player, label) = match &user {
        None => (me, "Your stats".to_owned()),
        Some(user) => {
            let Some(player) = data
                .service
                .accounts()
                .player_of_discord_user(user.id.get())
                .await?
            else {
                return Err(BotError::BadOption(format!(
                    "{} has not played here yet.",
                    mentions::literal(user.global_name.as_deref().unwrap_or(&user.name))
                )));
            };
            (player.id, format!("Stats of <@{}>", user.id.get()))
        }
    };
    let profile = data
        .service
        .ratings()
        .player_profile_of(player, Some(me))
        .await?;
    send(
        &ctx,
        poise::CreateReply::default().content(stats_text(&label, &profile)),
    )
    .await?;
    Ok(())
}

/// `/stats level:N`: the AI level's ratings and results, or why it has none.
async fn ai_level_stats(ctx: &Context<'_>, me: PlayerId, level: u8) -> Result<(), BotError> {
    if !level_may_be_rated(level) {
        return Err(BotError::BadOption(format!(
            "Level {level} is never rated: it thinks for a time on every core, so its strength \
             follows the machine's load. Levels 1 to 4 are rated."
        )));
    }
    let Some(profile) = ctx
        .data()
        .service
        .ratings()
        .ai_level_profile(level, Some(me))
        .await?
    else {
        return Err(BotError::BadOption(format!(
            "The AI at level {level} has played no rated game yet: \
             `/play level:{level} rated:true` starts one."
        )));
    };
    let label = format!("Stats of {}", ai_player_name(level));
    send(
        ctx,
        poise::CreateReply::default().content(stats_text(&label, &profile)),
    )
    .await?;
    Ok(())
}

/// "**GM** " before a name or rating, or nothing without a title.
fn title_before(title: Option<Title>) -> String {
    title.map_or_else(String::new, |t| format!("**{t}** "))
}

fn stats_text(label: &str, p: &PlayerProfile) -> String {
    let mut lines = vec![format!("**{label}** (`{}`)", p.player.handle)];
    if p.ratings.is_empty() {
        lines.push("Ratings: none yet (rated games count).".to_owned());
    }
    for r in &p.ratings {
        lines.push(format!(
            "{}: {}{:.0} ±{:.0}{} · {} rated game{}",
            mentions::literal(&r.variant),
            title_before(r.title),
            r.rating,
            r.deviation,
            if r.provisional { " (provisional)" } else { "" },
            r.games,
            if r.games == 1 { "" } else { "s" }
        ));
    }
    if !p.results.is_empty() {
        let results: Vec<String> = p
            .results
            .iter()
            .map(|r| {
                format!(
                    "{} {}W {}L {}D",
                    mentions::literal(variant_label(r.variant.as_deref())),
                    r.wins,
                    r.losses,
                    r.draws
                )
            })
            .collect();
        lines.push(format!("Results: {}", results.join(" · ")));
    }
    let games: Vec<String> = p
        .current_games
        .iter()
        .map(|g| format!("#{}", g.id))
        .collect();
    lines.push(match games.len() {
        0 => "No current games.".to_owned(),
        n => format!(
            "{n} current game{}: {}",
            if n == 1 { "" } else { "s" },
            games.join(", ")
        ),
    });
    // Many variants could exceed a message: cut, never fail.
    fitted(lines.join("\n"))
}
