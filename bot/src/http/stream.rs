//! `GET /stream/events?since=ID`: the player's stored events after ID, then live ones, as
//! newline-delimited JSON, with a keep-alive line when nothing happens. A client that
//! reconnects with the last id it saw misses nothing and sees nothing twice.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::{broadcast, mpsc};
use tokio_stream::wrappers::ReceiverStream;

use crate::domain::{EventId, PlayerId};
use crate::service::{Event, GamesService};

use super::AppState;
use super::auth::Authed;
use super::error::ApiError;
use super::extract::ApiQuery;
use super::stream_slots::NoSlot;

#[derive(Deserialize)]
pub struct StreamQuery {
    since: Option<EventId>,
}

/// Stored events sent per query while catching up.
const PAGE: u32 = 500;

pub async fn events_stream(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiQuery(q): ApiQuery<StreamQuery>,
) -> Result<Response, ApiError> {
    let since = q.since.unwrap_or(EventId(0)).max(EventId(0));
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

fn line(event: &Event) -> Bytes {
    let mut text = serde_json::to_string(event).unwrap_or_else(|_| "{}".to_owned());
    text.push('\n');
    Bytes::from(text)
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
            tx.send(Ok(line(&e))).await.ok()?;
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
                        if tx.send(Ok(line(&e))).await.is_err() {
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
                let ping = format!("{{\"keepalive\":true,\"last_id\":{last}}}\n");
                if tx.send(Ok(Bytes::from(ping))).await.is_err() {
                    return;
                }
            }
            _ = shutdown.changed() => return,
            () = tx.closed() => return,
        }
    }
}
