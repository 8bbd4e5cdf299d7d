//! `/vacation`: time away from correspondence games, their clocks stopped meanwhile.

use crate::answers::command::send;
use crate::posts::discord_time;
use crate::service::{VacationRequest, VacationView};
use crate::{BotError, Context};

/// Take vacation days, come back early, or see your balance
#[poise::command(
    slash_command,
    subcommands("vacation_start", "vacation_end", "vacation_status"),
    subcommand_required
)]
pub async fn vacation(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Go on vacation: your clocks stop in your correspondence games, your opponents are told
#[poise::command(slash_command, ephemeral, rename = "start")]
pub async fn vacation_start(
    ctx: Context<'_>,
    #[description = "How many days, from now"]
    #[min = 1]
    #[max = 366]
    days: u32,
) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let view = data
        .service
        .vacations()
        .take(me, VacationRequest { days })
        .await?;
    reply(&ctx, describe(&view)).await
}

/// Come back from vacation early: your clocks run again, the days not begun are yours again
#[poise::command(slash_command, ephemeral, rename = "end")]
pub async fn vacation_end(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let view = data.service.vacations().come_back(me).await?;
    reply(
        &ctx,
        format!("Welcome back: your clocks run again. {}", describe(&view)),
    )
    .await
}

/// Your vacation days: used, left, and whether you are away
#[poise::command(slash_command, ephemeral, rename = "status")]
pub async fn vacation_status(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let view = data.service.vacations().status(me).await?;
    reply(&ctx, describe(&view)).await
}

/// The balance and state in words.
fn describe(view: &VacationView) -> String {
    let mut text = match &view.vacation {
        Some(away) => format!(
            "You are on vacation until {}: your clocks stand still in your correspondence \
             games. `/vacation end` (or a move) brings you back sooner. ",
            discord_time(away.until)
        ),
        None => String::new(),
    };
    text.push_str(&format!(
        "{} of your {} vacation days used in the last 365 days; {} left. When a clock of a day \
         or more per move runs out, a day is spent for you before the game is lost on time.",
        view.days_used, view.days_per_year, view.days_left
    ));
    if !view.unprotected_games.is_empty() {
        let games: Vec<String> = view
            .unprotected_games
            .iter()
            .map(|g| format!("#{g}"))
            .collect();
        text.push_str(&format!(
            " Not protected (a clock under a day, or a tournament without vacation): {}.",
            games.join(", ")
        ));
    }
    text
}

async fn reply(ctx: &Context<'_>, text: String) -> Result<(), BotError> {
    let reply = poise::CreateReply::default()
        .content(text)
        .allowed_mentions(crate::mentions::nobody())
        .ephemeral(true);
    send(ctx, reply).await?;
    Ok(())
}
