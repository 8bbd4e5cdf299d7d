//! A team match's news as posted in each team's channel: its start with the boards (each game
//! is posted in its own thread), its end with the score, or its calling off before the start. Names are shown literally and the
//! post pings nobody: the games' own posts ping whoever is to move.

use super::commands::common::{cut_to, fitted};
use super::posts::{Post, seat_label};
use super::{BotError, Data, mentions};
use crate::domain::{PlayerId, TeamSide};
use crate::service::matches::TeamMatchView;
use crate::service::tournaments::{MAX_NAME_CHARS, score_text};
use crate::service::{Event, EventPayload};

/// The post of a team match's piece of news, or `None` for any other event.
pub async fn compose(data: &Data, event: &Event) -> Result<Option<Post>, BotError> {
    let id = match &event.payload {
        EventPayload::MatchStarted(started) => started.match_id,
        EventPayload::MatchEnded(ended) => ended.match_id,
        EventPayload::MatchCancelled(cancelled) => cancelled.match_id,
        _ => return Ok(None),
    };
    let m = data.service.matches().get(id).await?;
    let text = match &event.payload {
        EventPayload::MatchStarted(_) => started_text(&m),
        EventPayload::MatchEnded(ended) => {
            let result = match ended.winner {
                Some(team) => format!("{} wins", team_name(&m, team)),
                None => "a draw".to_owned(),
            };
            format!(
                "{} is over: {} {} – {} {}, {result}.",
                title(&m),
                team_name(&m, TeamSide::Home),
                score_text(ended.home_points),
                score_text(ended.away_points),
                team_name(&m, TeamSide::Away)
            )
        }
        EventPayload::MatchCancelled(_) => format!(
            "{} was called off by its organiser, {}, before it started: no game of it is played.",
            title(&m),
            seat_label(&m.organiser)
        ),
        _ => return Ok(None),
    };
    Ok(Some(Post::text(fitted(text), Vec::new())))
}

/// "**Match #3 · North v South**", the name shown literally and cut to the service's limit.
pub fn title(m: &TeamMatchView) -> String {
    format!(
        "**Match #{} · {}**",
        m.id,
        mentions::literal_long(&cut_to(&m.name, MAX_NAME_CHARS))
    )
}

/// A team's name, shown literally.
pub fn team_name(m: &TeamMatchView, team: TeamSide) -> String {
    m.teams
        .iter()
        .find(|t| t.team == team)
        .map_or_else(|| team.to_string(), |t| mentions::literal(&t.name))
}

fn started_text(m: &TeamMatchView) -> String {
    let mut text = format!(
        "{} has started: {} against {}, {} boards, each pair playing both sides.",
        title(m),
        team_name(m, TeamSide::Home),
        team_name(m, TeamSide::Away),
        m.boards.len()
    );
    for b in &m.boards {
        let games: Vec<String> = b.games.iter().map(|g| format!("#{}", g.game_id)).collect();
        text.push_str(&format!(
            "\n- Board {}: {} vs {} (games {})",
            b.board,
            name_of(m, b.home),
            name_of(m, b.away),
            games.join(", ")
        ));
    }
    text
}

/// A player as a post names them: a mention of a Discord user (pinging nobody), else the name
/// shown literally.
pub fn name_of(m: &TeamMatchView, player: PlayerId) -> String {
    m.teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| p.player_id == Some(player))
        .map_or_else(|| format!("player {player}"), seat_label)
}
