//! `GET /games/{id}/live`: a game's events as Server-Sent Events, from the service's event
//! broadcast (as the API's per-game NDJSON stream). The page redraws on each; no data it
//! needs rides the event, so a missed one (a lagging stream) costs nothing but a redraw.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;

use crate::domain::GameId;
use crate::http::stream_slots::StreamOwner;
use crate::http::{AppState, ClientKey};

use super::super::error::Plain;
use super::super::error::WebError;
use super::super::session::MaybeSignedIn;

pub async fn game_events(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    ClientKey(client): ClientKey,
    Path(id): Path<GameId>,
) -> Result<Response, Plain> {
    let viewer = session.map(|s| s.player);
    state.service.ensure_visible(viewer, id).await?;
    let owner = viewer.map_or(StreamOwner::Address(client), StreamOwner::Player);
    let slot = state
        .streams
        .take(owner)
        .map_err(|_| WebError::BadInput("too many live pages open; close one and reload".into()))?;
    let mut events = state.service.subscribe_game(id);
    let mut shutdown = state.shutdown.clone();
    let stream = async_stream(move |tx| async move {
        let _slot = slot;
        loop {
            let kind = tokio::select! {
                received = events.recv() => match received {
                    Ok(e) if e.game_id == Some(id) => e.payload.kind().to_owned(),
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
    let keepalive = Duration::from_secs(state.config.stream_keepalive_secs.max(1));
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(keepalive))
        .into_response())
}

type Sent = Result<SseEvent, Infallible>;

/// A stream fed by a task that owns `tx`: the task ends when the client leaves.
fn async_stream<F, Fut>(run: F) -> tokio_stream::wrappers::ReceiverStream<Sent>
where
    F: FnOnce(tokio::sync::mpsc::Sender<Sent>) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = tokio::sync::mpsc::channel(16);
    tokio::spawn(run(tx));
    tokio_stream::wrappers::ReceiverStream::new(rx)
}
