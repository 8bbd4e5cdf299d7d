//! `GET /matches/{id}/live`: Server-Sent Events that tell a team match's page to redraw: a
//! player who joins or leaves a team, its start, its calling off, the end of any of its games
//! (a board's result) and its own end ([`followed_live`](super::followed_live): the kind
//! only; the page asks for itself again). Its games are read again when it starts.

use std::collections::HashSet;

use axum::extract::{Path, State};
use axum::response::Response;

use crate::domain::{GameId, TeamMatchId};
use crate::service::EventPayload;
use crate::service::matches::TeamMatchView;
use crate::{AppState, ClientKey};

use super::super::error::Plain;
use super::super::session::MaybeSignedIn;
use super::followed_live::{Redraw, follow, read_games};

pub async fn match_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
    Path(id): Path<TeamMatchId>,
) -> Result<Response, Plain> {
    let games = games_of(&state.service.matches().get(id).await?);
    let service = state.service.clone();
    let read = read_games(move || {
        let service = service.clone();
        async move { service.matches().get(id).await.ok().map(|m| games_of(&m)) }
    });
    // A match's news comes once to each player (and the organiser): one redraw is enough.
    let mut last_news: Option<EventPayload> = None;
    Ok(follow(
        &state,
        (session, client),
        games,
        read,
        move |event| {
            let ours = match &event.payload {
                EventPayload::MatchStarted(started) => started.match_id == id,
                EventPayload::MatchEnded(ended) => ended.match_id == id,
                EventPayload::MatchCancelled(cancelled) => cancelled.match_id == id,
                EventPayload::MatchJoined(entry) | EventPayload::MatchLeft(entry) => {
                    entry.match_id == id
                }
                _ => false,
            };
            if !ours || last_news.as_ref() == Some(&event.payload) {
                return Redraw::No;
            }
            last_news = Some(event.payload.clone());
            match event.payload {
                EventPayload::MatchStarted(_) => Redraw::AfterReadingGames,
                _ => Redraw::Yes,
            }
        },
    )?)
}

fn games_of(m: &TeamMatchView) -> HashSet<GameId> {
    m.boards
        .iter()
        .flat_map(|b| b.games.iter().map(|g| g.game_id))
        .collect()
}
