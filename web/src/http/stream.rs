//! Event streams as newline-delimited JSON: stored events after `since`, then live ones, with a
//! keep-alive line when nothing happens. A client that reconnects with the last id it saw misses
//! nothing and sees nothing twice.
//! - `GET /stream/events?since=ID`: the events concerning the token's player;
//! - `GET /games/{id}/stream?since=ID`: one game's events, for anyone who may see the game (no
//!   token needed for a public one): spectators.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};
use tokio_stream::wrappers::ReceiverStream;
use utoipa::{IntoParams, ToSchema};

use crate::domain::{EventId, GameId, PlayerId};
use crate::service::{Event, GamesService};

use super::auth::{Authed, Viewer};
use super::error::{ApiError, ErrorBody};
use super::extract::{ApiPath, ApiQuery};
use super::{AppState, ClientKey};
use crate::stream_slots::{NoSlot, StreamOwner};

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// Send the stored events after this id first (default 0: all of them).
    since: Option<u64>,
}

/// One line of the stream: an event, or a keep-alive when nothing happened for a while.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum StreamLine {
    Event(Box<Event>),
    Keepalive(Keepalive),
}

/// Sent when nothing happened for `http.stream_keepalive_secs`.
#[derive(Serialize, ToSchema)]
pub struct Keepalive {
    /// Always true.
    pub keepalive: bool,
    /// The last event id sent on this stream (0: none yet): reconnect with `since=` it.
    #[schema(minimum = 0)]
    pub last_id: i64,
}

/// Stored events sent per query while catching up.
const PAGE: u32 = 500;

/// What a stream follows.
#[derive(Debug, Clone, Copy)]
enum Feed {
    /// Every event concerning a player.
    Player(PlayerId),
    /// Every event of a game.
    Game(GameId),
}

impl Feed {
    async fn stored(
        self,
        service: &GamesService,
        since: EventId,
    ) -> crate::service::Result<Vec<Event>> {
        match self {
            Feed::Player(p) => service.events().of_player(p, since, PAGE).await,
            Feed::Game(g) => service.events().of_game(g, since, PAGE).await,
        }
    }

    fn concerns(self, e: &Event) -> bool {
        match self {
            Feed::Player(p) => e.players.contains(&p),
            Feed::Game(g) => e.game_id == Some(g),
        }
    }
}

/// My events as NDJSON from ?since=ID, then live, with keep-alive lines
///
/// One JSON object per line, each a `StreamLine`: an `Event` (as webhooks get it), or a
/// `Keepalive`. A client that reconnects with the last id it saw misses nothing and sees
/// nothing twice. At most `http.max_streams_per_player` streams per player, all their tokens
/// together, and `http.max_streams` in all: beyond either, 429 naming the limit.
#[utoipa::path(
    get, path = "/stream/events", tag = "events", security(("bearer" = [])),
    params(StreamQuery),
    responses(
        (status = 200, description = "Newline-delimited JSON: one `StreamLine` (components/schemas/StreamLine) per line, endless", body = String, content_type = "application/x-ndjson",
            headers(("Cache-Control" = String, description = "no-cache"))),
        (status = 429, description = "Too many streams open, this player's or the server's (`too_many_streams`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn events_stream(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiQuery(q): ApiQuery<StreamQuery>,
) -> Result<Response, ApiError> {
    let since = q
        .since
        .map(|s| EventId(i64::try_from(s).unwrap_or(i64::MAX)));
    let slot = state
        .streams
        .take(StreamOwner::Player(me))
        .map_err(|no| too_many_streams(no, false))?;
    // Subscribe before reading the table, so nothing falls between the two.
    let live = state.service.events().subscribe_player(me);
    Ok(open(state, Feed::Player(me), since, live, slot))
}

/// A game's events as NDJSON from ?since=ID, then live, with keep-alive lines (spectators)
///
/// The lines are those of `/stream/events`, for one game's events. A public game (the
/// default) can be followed by anyone without a token; a private one answers 404 to anyone
/// but its players, who send their token. Streams without a token count per client address
/// against `http.max_streams_per_player`.
#[utoipa::path(
    get, path = "/games/{id}/stream", tag = "events", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id"), StreamQuery),
    responses(
        (status = 200, description = "Newline-delimited JSON: one `StreamLine` (components/schemas/StreamLine) per line, endless", body = String, content_type = "application/x-ndjson",
            headers(("Cache-Control" = String, description = "no-cache"))),
        (status = 429, description = "Too many streams open, this player's, this address's (without a token) or the server's (`too_many_streams`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn game_stream(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ClientKey(client): ClientKey,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<StreamQuery>,
) -> Result<Response, ApiError> {
    state.service.games().ensure_visible(viewer, id).await?;
    let owner = viewer.map_or(StreamOwner::Address(client), StreamOwner::Player);
    let slot = state
        .streams
        .take(owner)
        .map_err(|no| too_many_streams(no, viewer.is_none()))?;
    let live = state.service.events().subscribe_game(id);
    let since = q
        .since
        .map(|s| EventId(i64::try_from(s).unwrap_or(i64::MAX)));
    Ok(open(state, Feed::Game(id), since, live, slot))
}

/// Starts pumping `feed` into an NDJSON answer; `slot` is held until the stream ends.
fn open(
    state: AppState,
    feed: Feed,
    since: Option<EventId>,
    live: broadcast::Receiver<Event>,
    slot: crate::stream_slots::StreamSlot,
) -> Response {
    let since = since.unwrap_or(EventId(0)).max(EventId(0));
    let (tx, rx) = mpsc::channel::<Result<Bytes, Infallible>>(64);
    let keepalive = Duration::from_secs(state.config.stream_keepalive_secs.max(1));
    tokio::spawn(async move {
        // Held while the stream runs: its place is freed when it ends.
        let _slot = slot;
        pump(
            state.service.clone(),
            feed,
            since,
            live,
            tx,
            keepalive,
            state.shutdown.clone(),
        )
        .await;
    });
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(ReceiverStream::new(rx)),
    )
        .into_response()
}

fn line(line: &StreamLine) -> Bytes {
    let mut text = serde_json::to_string(line).unwrap_or_else(|_| "{}".to_owned());
    text.push('\n');
    Bytes::from(text)
}

fn event_line(event: &Event) -> Bytes {
    line(&StreamLine::Event(Box::new(event.clone())))
}

/// Sends stored events after `last`; returns the new last id, or None when the client left.
async fn catch_up(
    service: &GamesService,
    feed: Feed,
    mut last: EventId,
    tx: &mpsc::Sender<Result<Bytes, Infallible>>,
) -> Option<EventId> {
    loop {
        let page = feed.stored(service, last).await.ok()?;
        let full = page.len() as u32 == PAGE;
        for e in page {
            last = e.id;
            tx.send(Ok(event_line(&e))).await.ok()?;
        }
        if !full {
            return Some(last);
        }
    }
}

/// 429 with `Retry-After`, naming the limit that was reached.
fn too_many_streams(no: NoSlot, anonymous: bool) -> ApiError {
    let message = match no {
        NoSlot::Player { limit } if anonymous => format!(
            "your address has {limit} event streams open without a token, the most one address \
             may; close one first"
        ),
        NoSlot::Player { limit } => {
            format!("you have {limit} event streams open, the most one player may; close one first")
        }
        NoSlot::Server { limit } => {
            format!("the server has {limit} event streams open, its limit; try again later")
        }
    };
    let mut error = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_streams", message);
    error.retry_after_secs = Some(30);
    error
}

async fn pump(
    service: GamesService,
    feed: Feed,
    since: EventId,
    mut live: broadcast::Receiver<Event>,
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
    keepalive: Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let Some(mut last) = catch_up(&service, feed, since, &tx).await else {
        return;
    };
    let mut ticker = tokio::time::interval(keepalive);
    ticker.reset();
    loop {
        tokio::select! {
            received = live.recv() => match received {
                Ok(e) => {
                    if e.id > last && feed.concerns(&e) {
                        last = e.id;
                        if tx.send(Ok(event_line(&e))).await.is_err() {
                            return;
                        }
                        ticker.reset();
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let Some(l) = catch_up(&service, feed, last, &tx).await else { return };
                    last = l;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = ticker.tick() => {
                let ping = StreamLine::Keepalive(Keepalive { keepalive: true, last_id: last.get() });
                if tx.send(Ok(line(&ping))).await.is_err() {
                    return;
                }
            }
            _ = shutdown.changed() => return,
            () = tx.closed() => return,
        }
    }
}
