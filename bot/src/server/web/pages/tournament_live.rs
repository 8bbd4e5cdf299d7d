//! `GET /tournaments/{id}/live`: Server-Sent Events that tell a tournament's page to redraw:
//! its start, each round's start, its end, the end of any of its games, and each player who
//! joins or leaves. Like the other live pages it sends only the event's kind; the page asks for
//! itself again.
//!
//! A game's end does not name its tournament, so the stream keeps the tournament's games and
//! reads them again when a round starts (a few rows, once a round).

use std::collections::HashSet;
use std::convert::Infallible;

use axum::extract::{Path, State};
use axum::response::Response;
use axum::response::sse::Event as SseEvent;
use tokio::sync::broadcast::error::RecvError;

use crate::domain::{GameId, TournamentId};
use crate::server::stream_slots::StreamOwner;
use crate::server::{AppState, ClientKey};
use crate::service::EventPayload;
use crate::service::events::TournamentEntry;
use crate::service::tournaments::TournamentView;

use super::super::error::Plain;
use super::super::session::MaybeSignedIn;
use super::live::{slot, sse};

pub async fn tournament_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
    Path(id): Path<TournamentId>,
) -> Result<Response, Plain> {
    let mut games = games_of(&state.service.tournaments().get(id).await?);
    let owner = session.map_or(StreamOwner::Address(client), |s| {
        StreamOwner::Player(s.player)
    });
    let slot = slot(&state, owner)?;
    let mut events = state.service.events().subscribe();
    let mut shutdown = state.shutdown.clone();
    let service = state.service.clone();
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<SseEvent, Infallible>>(16);
    tokio::spawn(async move {
        let _slot = slot;
        // A tournament's news comes once per player: one redraw is enough.
        let mut last_round_news: Option<(&'static str, u32)> = None;
        let mut last_entry: Option<TournamentEntry> = None;
        loop {
            let event = tokio::select! {
                received = events.recv() => match received {
                    Ok(e) => e,
                    Err(RecvError::Lagged(_)) => {
                        if let Ok(t) = service.tournaments().get(id).await {
                            games = games_of(&t);
                        }
                        if tx.send(Ok(SseEvent::default().data("resync"))).await.is_err() {
                            return;
                        }
                        continue;
                    }
                    Err(RecvError::Closed) => return,
                },
                _ = shutdown.changed() => return,
                () = tx.closed() => return,
            };
            let kind = event.payload.kind();
            let send = match &event.payload {
                EventPayload::TournamentStarted(r) | EventPayload::RoundStarted(r)
                    if r.tournament_id == id =>
                {
                    let news = Some((kind, r.round));
                    let fresh = last_round_news != news;
                    last_round_news = news;
                    // The round's new games, read once per round.
                    if fresh && let Ok(t) = service.tournaments().get(id).await {
                        games = games_of(&t);
                    }
                    fresh
                }
                EventPayload::TournamentEnded(ended) if ended.tournament_id == id => {
                    let news = Some((kind, 0));
                    let fresh = last_round_news != news;
                    last_round_news = news;
                    fresh
                }
                // Sent to the player and the organiser: one redraw per change is enough.
                EventPayload::TournamentJoined(entry) | EventPayload::TournamentLeft(entry)
                    if entry.tournament_id == id =>
                {
                    let fresh = last_entry.as_ref() != Some(entry);
                    last_entry = Some(entry.clone());
                    fresh
                }
                EventPayload::GameEnded(_) => event.game_id.is_some_and(|g| games.contains(&g)),
                _ => false,
            };
            if send && tx.send(Ok(SseEvent::default().data(kind))).await.is_err() {
                return;
            }
        }
    });
    Ok(sse(&state, rx))
}

fn games_of(t: &TournamentView) -> HashSet<GameId> {
    t.rounds
        .iter()
        .flat_map(|r| r.games.iter().filter_map(|g| g.game_id))
        .collect()
}
