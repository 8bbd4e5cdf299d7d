//! The live stream of a page that follows a set of games: a tournament's, a team match's. Like
//! the other live pages it sends only an event's kind and the page asks for itself again.
//!
//! A game's end does not name the tournament or match it belongs to, so the stream keeps that
//! set of games and reads it again when the page's own news says it grew (a round started, a
//! match started), and after a lag (when it also tells the page to redraw).

use std::collections::HashSet;
use std::convert::Infallible;
use std::future::Future;

use axum::response::Response;
use axum::response::sse::Event as SseEvent;
use futures_util::future::BoxFuture;
use tokio::sync::broadcast::error::RecvError;

use crate::AppState;
use crate::domain::GameId;
use crate::service::{Event, EventPayload};
use crate::stream_slots::StreamOwner;

use super::super::error::WebError;
use super::super::session::SignedIn;
use super::live::{slot, sse};

/// What an event asks of a followed page.
pub(super) enum Redraw {
    No,
    Yes,
    /// Redraw, and read the page's games again first (they changed).
    AfterReadingGames,
}

/// Reads the games a page follows; `None` when the read fails (the old set is kept).
pub(super) type ReadGames = Box<dyn Fn() -> BoxFuture<'static, Option<HashSet<GameId>>> + Send>;

/// Boxes `read` as a [`ReadGames`].
pub(super) fn read_games<F, Fut>(read: F) -> ReadGames
where
    F: Fn() -> Fut + Send + 'static,
    Fut: Future<Output = Option<HashSet<GameId>>> + Send + 'static,
{
    Box::new(move || Box::pin(read()))
}

/// Streams the kinds of the events that `concern` says redraw the page, the end of any of its
/// games included, until the page goes or the server stops. The stream takes one of its
/// viewer's live slots (the signed-in player's, else the address's).
pub(super) fn follow(
    state: &AppState,
    viewer: (Option<SignedIn>, Option<std::net::IpAddr>),
    mut games: HashSet<GameId>,
    read: ReadGames,
    mut concern: impl FnMut(&Event) -> Redraw + Send + 'static,
) -> Result<Response, WebError> {
    let (session, client) = viewer;
    let owner = session.map_or(StreamOwner::Address(client), |s| {
        StreamOwner::Player(s.player)
    });
    let slot = slot(state, owner)?;
    let mut events = state.service.events().subscribe();
    let mut shutdown = state.shutdown.clone();
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<SseEvent, Infallible>>(16);
    tokio::spawn(async move {
        let _slot = slot;
        loop {
            let event = tokio::select! {
                received = events.recv() => match received {
                    Ok(e) => e,
                    Err(RecvError::Lagged(_)) => {
                        if let Some(fresh) = read().await {
                            games = fresh;
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
            let redraw = match (&event.payload, event.game_id) {
                (EventPayload::GameEnded(_), Some(game)) => {
                    if games.contains(&game) {
                        Redraw::Yes
                    } else {
                        Redraw::No
                    }
                }
                _ => concern(&event),
            };
            match redraw {
                Redraw::No => continue,
                Redraw::Yes => {}
                Redraw::AfterReadingGames => {
                    if let Some(fresh) = read().await {
                        games = fresh;
                    }
                }
            }
            let kind = event.payload.kind();
            if tx.send(Ok(SseEvent::default().data(kind))).await.is_err() {
                return;
            }
        }
    });
    Ok(sse(state, rx))
}
