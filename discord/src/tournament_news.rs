//! A tournament's news as posted in each channel its players joined it from: its start, each
//! round's start with its pairings (each game is posted in its own thread), its end with the
//! winner. Names are shown literally and the post pings nobody: the games' own posts ping
//! whoever is to move.

use super::commands::common::{cut_to, fitted};
use super::posts::{Post, seat_label};
use super::{BotError, Data, mentions};
use crate::domain::{PlayerId, TournamentStatus};
use crate::service::tournaments::{MAX_NAME_CHARS, TournamentView, score_text};
use crate::service::{Event, EventPayload};

/// The post of a tournament's piece of news, or `None` for any other event.
pub async fn compose(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    let id = match &event.payload {
        EventPayload::TournamentStarted(r) | EventPayload::RoundStarted(r) => r.tournament_id,
        EventPayload::TournamentEnded(ended) => ended.tournament_id,
        _ => return Ok(None),
    };
    let t = data.service.tournaments().get(id).await?;
    let text = match &event.payload {
        EventPayload::TournamentStarted(_) => format!(
            "{} has started: {} players, {}.",
            title(&t),
            t.players.len(),
            format_words(&t)
        ),
        EventPayload::RoundStarted(r) => round_text(&t, r.round),
        EventPayload::TournamentEnded(ended) => match (ended.status, ended.winner) {
            (TournamentStatus::Finished, Some(winner)) => {
                let points = t
                    .standings
                    .iter()
                    .find(|s| s.player == winner)
                    .map(|s| s.points)
                    .unwrap_or_default();
                let unit = if points == 1.0 { "point" } else { "points" };
                let points = score_text(points);
                format!(
                    "{} is over. Winner: {} with {points} {unit}. Standings: `/tournament standings`.",
                    title(&t),
                    name_of(&t, winner)
                )
            }
            (TournamentStatus::Cancelled, _) => {
                format!("{} is cancelled: too few players joined.", title(&t))
            }
            _ => format!("{} is over.", title(&t)),
        },
        _ => return Ok(None),
    };
    Ok(Some(Post::text(fitted(text), Vec::new())))
}

/// "**Tournament #3 · Winter cup**", the name shown literally and cut to the service's limit.
pub fn title(t: &TournamentView) -> String {
    format!(
        "**Tournament #{} · {}**",
        t.id,
        mentions::literal_long(&cut_to(&t.name, MAX_NAME_CHARS))
    )
}

/// "round robin in 3 rounds", "groups then knockout (groups of up to 4)".
pub fn format_words(t: &TournamentView) -> String {
    use crate::service::tournaments::FormatKind;
    let format = match t.format {
        FormatKind::RoundRobin => "round robin",
        FormatKind::DoubleRoundRobin => "double round robin",
        FormatKind::Swiss => "Swiss",
        FormatKind::GroupsKnockout => "groups then knockout",
    };
    if let Some(size) = t.group_size {
        return format!("{format} (groups of up to {size})");
    }
    match t.planned_rounds {
        Some(rounds) => format!("{format} in {rounds} rounds"),
        None => format.to_owned(),
    }
}

fn round_text(t: &TournamentView, number: u32) -> String {
    let mut text = format!("{}: round {number} has started.", title(t));
    let Some(round) = t.rounds.iter().find(|r| r.number == number) else {
        return text;
    };
    for g in &round.games {
        text.push_str(&format!(
            "\n- {} (attackers) vs {} (defenders)",
            name_of(t, g.attackers),
            name_of(t, g.defenders)
        ));
        match g.game_id {
            Some(game) => text.push_str(&format!(": game #{game}")),
            None => text.push_str(": forfeit"),
        }
    }
    if let Some(bye) = round.bye {
        text.push_str(&format!("\n- {}: a bye (1 point)", name_of(t, bye)));
    }
    text
}

/// A player as a post names them: a mention of a Discord user (pinging nobody), else the name
/// shown literally.
pub fn name_of(t: &TournamentView, player: PlayerId) -> String {
    t.players
        .iter()
        .find(|p| p.player.player_id == Some(player))
        .map_or_else(|| format!("player {player}"), |p| seat_label(&p.player))
}
