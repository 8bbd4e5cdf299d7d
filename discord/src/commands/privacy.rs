//! `/privacy`: what taflbot keeps about the calling Discord user, shown to them alone, with a
//! button that erases it (`service/src/accounts/privacy.rs` says what goes and what stays).
//!
//! The button's custom id names the Discord user it erases (`privacy:erase:<user>`), so a
//! click works after a restart and nobody else's click can erase them.

use poise::CreateReply;
use serenity::all::{
    ButtonStyle, ComponentInteraction, Context as SerenityContext, CreateActionRow, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseMessage, EditInteractionResponse,
    FullEvent, Interaction,
};

use crate::posts::discord_time;
use crate::service::PersonalData;
use crate::{BotError, Context, Data, mentions};

/// Where taflbot's own privacy statement is, when the operator gave no address of theirs.
pub const DEFAULT_PRIVACY_STATEMENT: &str = "docs/privacy.md in taflbot's source";

const ERASE_PREFIX: &str = "privacy:erase:";

/// What taflbot keeps about you, and a button to delete it (only you see the answer)
#[poise::command(slash_command, ephemeral)]
pub async fn privacy(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let kept = data.service.accounts().personal_data(me).await?;
    let button = CreateButton::new(format!("{ERASE_PREFIX}{}", ctx.author().id.get()))
        .label("Delete my data")
        .style(ButtonStyle::Danger);
    let reply = CreateReply::default()
        .content(summary(&kept, data.privacy_statement()))
        .components(vec![CreateActionRow::Buttons(vec![button])])
        .allowed_mentions(mentions::nobody())
        .ephemeral(true);
    ctx.send(reply).await?;
    Ok(())
}

fn yes_no(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

/// The private answer of `/privacy`.
fn summary(kept: &PersonalData, statement: &str) -> String {
    let n = &kept.counts;
    format!(
        "**What taflbot keeps about you** (only you see this)\n\
         - Your player: {} (handle `{}`, #{}), since {}, linked to this Discord account\n\
         - Games: {} going on, {} over; {} pending challenges; ratings in {} variants\n\
         - Preferences: turn direct messages {} (`/notify`), private boards flipped {}\n\
         - Access: {} API tokens, {} web sessions, {} webhooks\n\
         - Servers where you used the bot (for their leaderboards): {}\n\
         Why, for how long, and whom to ask: {statement}.\n\n\
         **Delete my data** resigns your games going on, withdraws your challenges, deletes \
         your tokens, sessions, webhooks, preferences and server memberships, unlinks this \
         Discord account, and shows your finished games (kept for your opponents) under the \
         name \"{}\". It cannot be undone.",
        mentions::literal(&kept.name),
        kept.handle.as_str(),
        kept.player,
        discord_time(kept.since),
        n.active_games,
        n.finished_games,
        n.pending_challenges,
        n.rated_variants,
        yes_no(kept.turn_dms),
        yes_no(kept.board_flipped),
        n.api_tokens,
        n.web_sessions,
        n.webhooks,
        n.servers_seen_in,
        crate::service::ERASED_NAME,
    )
}

/// Handles a click on the erase button; answers whether the event was one (then nobody else
/// handles it).
pub async fn on_event(ctx: &SerenityContext, event: &FullEvent, data: &Data) -> bool {
    let FullEvent::InteractionCreate {
        interaction: Interaction::Component(press),
    } = event
    else {
        return false;
    };
    let Some(user) = press.data.custom_id.strip_prefix(ERASE_PREFIX) else {
        return false;
    };
    if let Err(e) = erase(ctx, press, data, user).await {
        e.log("button privacy:erase");
        let answer = EditInteractionResponse::new()
            .content(e.user_message())
            .allowed_mentions(mentions::nobody())
            .components(Vec::new());
        if let Err(e) = press.edit_response(&ctx.http, answer).await {
            tracing::warn!("could not answer a privacy button: {e}");
        }
    }
    true
}

async fn erase(
    ctx: &SerenityContext,
    press: &ComponentInteraction,
    data: &Data,
    user: &str,
) -> Result<(), BotError> {
    if user != press.user.id.get().to_string() {
        let refusal = CreateInteractionResponseMessage::new()
            .content("This button deletes someone else's data: use `/privacy` for yours.")
            .allowed_mentions(mentions::nobody())
            .ephemeral(true);
        press
            .create_response(&ctx.http, CreateInteractionResponse::Message(refusal))
            .await?;
        return Ok(());
    }
    // Resigning games takes a moment: answer first, then say what was done.
    press
        .create_response(&ctx.http, CreateInteractionResponse::Acknowledge)
        .await?;
    let me = data.player_of(&press.user).await?;
    let erased = data.service.accounts().erase(me).await?;
    data.forget_player(press.user.id.get());
    let done = EditInteractionResponse::new()
        .content(format!(
            "Done: your data is deleted ({} games resigned, {} challenges withdrawn). Your \
             finished games show \"{}\" now. Using the bot again starts a new player.",
            erased.games_resigned,
            erased.challenges_withdrawn,
            crate::service::ERASED_NAME
        ))
        .allowed_mentions(mentions::nobody())
        .components(Vec::new());
    press.edit_response(&ctx.http, done).await?;
    Ok(())
}
