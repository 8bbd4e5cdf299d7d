//! Live pages: Server-Sent Events from the service's event broadcast (as the API's NDJSON
//! streams), one event per change, carrying only its kind. The page then asks for what it shows
//! again, so a missed event (a lagging stream) costs nothing but a redraw.
//! - `GET /games/{id}/live`: a game's events, for anyone who may see the game;
//! - `GET /me/live`: the events concerning the signed-in player (my games and challenges);
//! - `GET /games/live`: that a public game started, moved or ended, for the list of public
//!   games (only the kind; a private game's events are not sent at all, not even their kind).

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::domain::GameId;
use crate::service::mail::PRESENCE_EVERY_MS;
use crate::service::{Event, EventPayload, GamesService};
use crate::stream_slots::{StreamOwner, StreamSlot};
use crate::{AppState, ClientKey};

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
    Ok(live(
        &state,
        slot,
        events,
        move |e| Concern::when(e.game_id == Some(id)),
        None,
    ))
}

pub async fn my_events(
    State(state): State<AppState>,
    session: SignedIn,
) -> Result<Response, Plain> {
    let me = session.player;
    let slot = slot(&state, StreamOwner::Player(me))?;
    let events = state.service.events().subscribe_player(me);
    // A tab left open is the player on the web: no turn notice by mail while it stays.
    let service = state.service.clone();
    let present: Heartbeat = Box::new(move || service.mail().saw(me));
    Ok(live(
        &state,
        slot,
        events,
        move |e| Concern::when(e.players.contains(&me)),
        Some(present),
    ))
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
    Ok(live(
        &state,
        slot,
        events,
        |e| match (&e.payload, e.game_id) {
            (
                EventPayload::GameStarted(_)
                | EventPayload::MovePlayed(_)
                | EventPayload::GameEnded(_),
                Some(game),
            ) => Concern::IfPublic(game),
            _ => Concern::No,
        },
        None,
    ))
}

pub(super) fn slot(state: &AppState, owner: StreamOwner) -> Result<StreamSlot, WebError> {
    state
        .streams
        .take(owner)
        .map_err(|_| WebError::BadInput("too many live pages open; close one and reload".into()))
}

/// Called every [`PRESENCE_EVERY_MS`] while a stream stays open.
type Heartbeat = Box<dyn Fn() + Send + Sync>;

/// Whether a stream passes an event on.
enum Concern {
    Yes,
    No,
    /// If the game is public (the list of public games shows nothing of private ones).
    IfPublic(GameId),
}

impl Concern {
    fn when(yes: bool) -> Concern {
        if yes { Concern::Yes } else { Concern::No }
    }
}

/// Whether games are public, as one stream has asked: a game's privacy never changes, so
/// each game is read once per stream (at most `PUBLIC_CACHE` remembered).
#[derive(Default)]
struct PublicGames(HashMap<GameId, bool>);

const PUBLIC_CACHE: usize = 1024;

impl PublicGames {
    async fn public(&mut self, service: &GamesService, game: GameId) -> bool {
        if let Some(public) = self.0.get(&game) {
            return *public;
        }
        // Missing or private to everyone without a session: not shown; a failure to read
        // is not remembered.
        let public = match service.games().ensure_visible(None, game).await {
            Ok(()) => true,
            Err(e) if e.is_failure() => return false,
            Err(_) => false,
        };
        if self.0.len() >= PUBLIC_CACHE {
            self.0.clear();
        }
        self.0.insert(game, public);
        public
    }
}

/// Sends the kind of each event `concerns` keeps, until the client leaves or the server stops;
/// `slot` is held as long, and `heartbeat` called the while.
fn live(
    state: &AppState,
    slot: StreamSlot,
    mut events: broadcast::Receiver<Event>,
    concerns: impl Fn(&Event) -> Concern + Send + 'static,
    heartbeat: Option<Heartbeat>,
) -> Response {
    let mut shutdown = state.shutdown.clone();
    let service = state.service.clone();
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<SseEvent, Infallible>>(16);
    let every = Duration::from_millis(PRESENCE_EVERY_MS.unsigned_abs());
    tokio::spawn(async move {
        let _slot = slot;
        let mut beat = tokio::time::interval(every);
        let mut public = PublicGames::default();
        loop {
            let kind = tokio::select! {
                _ = beat.tick(), if heartbeat.is_some() => {
                    if let Some(heartbeat) = &heartbeat {
                        heartbeat();
                    }
                    continue;
                }
                received = events.recv() => match received {
                    Ok(e) => {
                        let passed = match concerns(&e) {
                            Concern::Yes => true,
                            Concern::No => false,
                            Concern::IfPublic(game) => public.public(&service, game).await,
                        };
                        if !passed {
                            continue;
                        }
                        e.payload.kind().to_owned()
                    }
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
