//! `/challenges`: your pending challenges, received (to you, or open to anyone) and sent, with
//! buttons to accept, decline or withdraw them, privately.

use crate::answers::command::send;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use super::common::fitted;
use crate::challenge_posts::where_shown;
use crate::components::ButtonAction;
use crate::posts::{discord_time, seat_label};
use crate::service::{ChallengeView, variant_label};
use crate::{BotError, Context, mentions};

/// Discord takes at most five rows of buttons under a message: one per challenge.
const MAX_ROWS: usize = 5;

fn line(challenge: &ChallengeView, received: bool) -> String {
    let who = if received {
        format!("from {}", seat_label(&challenge.challenger))
    } else {
        match &challenge.opponent {
            Some(opponent) => format!("to {}", seat_label(opponent)),
            None => "open to anyone".to_owned(),
        }
    };
    let variant = variant_label(challenge.variant.as_deref());
    let kind = if challenge.rated { "rated" } else { "casual" };
    format!(
        "#{} {who}: **{}** ({kind}, {}){}, expires {}",
        challenge.id,
        mentions::literal(variant),
        challenge.clock,
        where_shown(challenge.context.as_deref()),
        discord_time(challenge.expires_at)
    )
}

fn button(action: ButtonAction, label: String, style: ButtonStyle) -> CreateButton {
    CreateButton::new(action.custom_id())
        .label(label)
        .style(style)
}

/// The buttons of one listed challenge: Accept/Decline what was received, Cancel what was sent.
fn row(challenge: &ChallengeView, received: bool) -> CreateActionRow {
    let id = challenge.id;
    let buttons = if received {
        let mut buttons = vec![button(
            ButtonAction::Accept(id),
            format!("Accept #{id}"),
            ButtonStyle::Success,
        )];
        if challenge.opponent.is_some() {
            buttons.push(button(
                ButtonAction::Decline(id),
                format!("Decline #{id}"),
                ButtonStyle::Danger,
            ));
        }
        buttons
    } else {
        vec![button(
            ButtonAction::Cancel(id),
            format!("Cancel #{id}"),
            ButtonStyle::Secondary,
        )]
    };
    CreateActionRow::Buttons(buttons)
}

/// Your pending challenges, with buttons to answer them
#[poise::command(slash_command, ephemeral)]
pub async fn challenges(ctx: Context<'_>) -> Result<(), BotError> {
    let data = ctx.data();
    let me = data.player_of(ctx.author()).await?;
    let lists = data.service.challenges().list(me).await?;
    let listed: Vec<(&ChallengeView, bool)> = lists
        .incoming
        .iter()
        .map(|c| (c, true))
        .chain(lists.outgoing.iter().map(|c| (c, false)))
        .collect();
    let mut text = String::new();
    if listed.is_empty() {
        text.push_str("You have no pending challenges. Start one with `/challenge`.");
    }
    if !lists.incoming.is_empty() {
        text.push_str("**Received**\n");
        for challenge in &lists.incoming {
            text.push_str(&format!("{}\n", line(challenge, true)));
        }
    }
    if !lists.outgoing.is_empty() {
        text.push_str("**Sent**\n");
        for challenge in &lists.outgoing {
            text.push_str(&format!("{}\n", line(challenge, false)));
        }
    }
    if listed.len() > MAX_ROWS {
        text.push_str(&format!(
            "Buttons for the first {MAX_ROWS}; answer the others under their own messages."
        ));
    }
    let rows: Vec<CreateActionRow> = listed
        .iter()
        .take(MAX_ROWS)
        .map(|(challenge, received)| row(challenge, *received))
        .collect();
    let reply = poise::CreateReply::default()
        .content(fitted(text))
        .components(rows)
        .allowed_mentions(mentions::nobody())
        .ephemeral(true);
    send(&ctx, reply).await?;
    Ok(())
}
