//! `GET /tournaments/{id}/live`: Server-Sent Events that tell a tournament's page to redraw:
//! its start, each round's start, its end, the end of any of its games, and each player who
//! joins or leaves ([`followed_live`](super::followed_live): the kind only; the page asks for
//! itself again). The tournament's games are read again when a round starts.

use std::collections::HashSet;

use axum::extract::{Path, State};
use axum::response::Response;

use crate::domain::{GameId, TournamentId};
use crate::service::EventPayload;
use crate::service::events::TournamentEntry;
use crate::service::tournaments::TournamentView;
use crate::{AppState, ClientKey};

use super::super::error::Plain;
use super::super::session::MaybeSignedIn;
use super::followed_live::{Redraw, follow, read_games};

pub async fn tournament_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
    Path(id): Path<TournamentId>,
) -> Result<Response, Plain> {
    let games = games_of(&state.service.tournaments().get(id).await?);
    let service = state.service.clone();
    let read = read_games(move || {
        let service = service.clone();
        async move {
            service
                .tournaments()
                .get(id)
                .await
                .ok()
                .map(|t| games_of(&t))
        }
    });
    // A tournament's news comes once per player: one redraw is enough.
    let mut last_round_news: Option<(&'static str, u32)> = None;
    let mut last_entry: Option<TournamentEntry> = None;
    Ok(follow(
        &state,
        (session, client),
        games,
        read,
        move |event| {
            let kind = event.payload.kind();
            match &event.payload {
                EventPayload::TournamentStarted(r) | EventPayload::RoundStarted(r)
                    if r.tournament_id == id =>
                {
                    let news = Some((kind, r.round));
                    let fresh = last_round_news != news;
                    last_round_news = news;
                    // The round's new games, read once per round.
                    if fresh {
                        Redraw::AfterReadingGames
                    } else {
                        Redraw::No
                    }
                }
                EventPayload::TournamentEnded(ended) if ended.tournament_id == id => {
                    let news = Some((kind, 0));
                    let fresh = last_round_news != news;
                    last_round_news = news;
                    if fresh { Redraw::Yes } else { Redraw::No }
                }
                // Sent to the player and the organiser: one redraw per change is enough.
                EventPayload::TournamentJoined(entry) | EventPayload::TournamentLeft(entry)
                    if entry.tournament_id == id =>
                {
                    let fresh = last_entry.as_ref() != Some(entry);
                    last_entry = Some(entry.clone());
                    if fresh { Redraw::Yes } else { Redraw::No }
                }
                _ => Redraw::No,
            }
        },
    )?)
}

fn games_of(t: &TournamentView) -> HashSet<GameId> {
    t.rounds
        .iter()
        .flat_map(|r| r.games.iter().filter_map(|g| g.game_id))
        .collect()
}
