//! Live pages: Server-Sent Events from the service's event broadcast (as the API's NDJSON
//! streams), one event per change, carrying only its kind. The page then asks for what it shows
//! again, so a missed event (a lagging stream) costs nothing but a redraw.
//! - `GET /games/{id}/live`: a game's events, for anyone who may see the game;
//! - `GET /me/live`: the events concerning the signed-in player (my games and challenges);
//! - `GET /games/live`: that a game started, moved or ended, for the list of public games
//!   (only the kind: the list itself, asked for again, shows public games alone).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::domain::GameId;
use crate::server::stream_slots::{StreamOwner, StreamSlot};
use crate::server::{AppState, ClientKey};
use crate::service::{Event, EventPayload};

use super::super::error::{Plain, WebError};
use super::super::session::{MaybeSignedIn, SignedIn};

pub async fn game_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
    Path(id): Path<GameId>,
) -> Result<Response, Plain> {
    let viewer = session.map(|s| s.player);
    state.service.games().ensure_visible(viewer, id).await?;
    let owner = viewer.map_or(StreamOwner::Address(client), StreamOwner::Player);
    let slot = slot(&state, owner)?;
    let events = state.service.events().subscribe_game(id);
    Ok(live(&state, slot, events, move |e| e.game_id == Some(id)))
}

pub async fn my_events(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, Plain> {
    let me = session.player;
    let slot = slot(&state, StreamOwner::Player(me))?;
    let events = state.service.events().subscribe_player(me);
    Ok(live(&state, slot, events, move |e| e.players.contains(&me)))
}

pub async fn public_games_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
) -> Result<Response, Plain> {
    let owner = session.map_or(StreamOwner::Address(client), |s| {
        StreamOwner::Player(s.player)
    });
    let slot = slot(&state, owner)?;
    let events = state.service.events().subscribe();
    Ok(live(&state, slot, events, |e| {
        matches!(
            e.payload,
            EventPayload::GameStarted(_) | EventPayload::MovePlayed(_) | EventPayload::GameEnded(_)
        )
    }))
}

pub(super) fn slot(state: &AppState, owner: StreamOwner) -> Result<StreamSlot, WebError> {
    state
        .streams
        .take(owner)
        .map_err(|_| WebError::BadInput("too many live pages open; close one and reload".into()))
}

/// Sends the kind of each event `concerns` keeps, until the client leaves or the server stops;
/// `slot` is held as long.
fn live(
    state: &AppState,
    slot: StreamSlot,
    mut events: broadcast::Receiver<Event>,
    concerns: impl Fn(&Event) -> bool + Send + 'static,
) -> Response {
    let mut shutdown = state.shutdown.clone();
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<SseEvent, Infallible>>(16);
    tokio::spawn(async move {
        let _slot = slot;
        loop {
            let kind = tokio::select! {
                received = events.recv() => match received {
                    Ok(e) if concerns(&e) => e.payload.kind().to_owned(),
                    Ok(_) => continue,
                    Err(RecvError::Lagged(_)) => "resync".to_owned(),
                    Err(RecvError::Closed) => return,
                },
                _ = shutdown.changed() => return,
                () = tx.closed() => return,
            };
            if tx.send(Ok(SseEvent::default().data(kind))).await.is_err() {
                return;
            }
        }
    });
    sse(state, rx)
}

/// The Server-Sent Events response that sends what arrives on `rx`, with keep-alives.
pub(super) fn sse(
    state: &AppState,
    rx: tokio::sync::mpsc::Receiver<Result<SseEvent, Infallible>>,
) -> Response {
    let keepalive = Duration::from_secs(state.config.stream_keepalive_secs.max(1));
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(rx))
        .keep_alive(KeepAlive::new().interval(keepalive))
        .into_response()
}
