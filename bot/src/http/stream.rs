//! `GET /stream/events?since=ID`: the player's stored events after ID, then live ones, as
//! newline-delimited JSON, with a keep-alive line when nothing happens. A client that
//! reconnects with the last id it saw misses nothing and sees nothing twice.

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

use crate::domain::{EventId, PlayerId};
use crate::service::{Event, GamesService};

use super::AppState;
use super::auth::Authed;
use super::error::{ApiError, ErrorBody};
use super::extract::ApiQuery;
use super::stream_slots::NoSlot;

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
    let since = EventId(q.since.map_or(0, |s| i64::try_from(s).unwrap_or(i64::MAX)));
    let slot = state.streams.take(me).map_err(too_many_streams)?;
    // Subscribe before reading the table, so nothing falls between the two.
    let live = state.service.subscribe_player(me);
    let (tx, rx) = mpsc::channel::<Result<Bytes, Infallible>>(64);
    let keepalive = Duration::from_secs(state.config.stream_keepalive_secs.max(1));
    tokio::spawn(async move {
        // Held while the stream runs: its place is freed when it ends.
        let _slot = slot;
        pump(
            state.service.clone(),
            me,
            since,
            live,
            tx,
            keepalive,
            state.shutdown.clone(),
        )
        .await;
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(ReceiverStream::new(rx)),
    )
        .into_response())
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
    me: PlayerId,
    mut last: EventId,
    tx: &mpsc::Sender<Result<Bytes, Infallible>>,
) -> Option<EventId> {
    loop {
        let page = service.events_for(me, last, PAGE).await.ok()?;
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
fn too_many_streams(no: NoSlot) -> ApiError {
    let message = match no {
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
    me: PlayerId,
    since: EventId,
    mut live: broadcast::Receiver<Event>,
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
    keepalive: Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let Some(mut last) = catch_up(&service, me, since, &tx).await else {
        return;
    };
    let mut ticker = tokio::time::interval(keepalive);
    ticker.reset();
    loop {
        tokio::select! {
            received = live.recv() => match received {
                Ok(e) => {
                    if e.id > last && e.players.contains(&me) {
                        last = e.id;
                        if tx.send(Ok(event_line(&e))).await.is_err() {
                            return;
                        }
                        ticker.reset();
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let Some(l) = catch_up(&service, me, last, &tx).await else { return };
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
