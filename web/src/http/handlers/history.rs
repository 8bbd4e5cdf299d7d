//! A player's games: listed in pages, and their finished public games as one `.otg` file.

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use utoipa::IntoParams;

use super::{ApiResult, page_number};
use crate::AppState;
use crate::domain::{GameId, GameStatus, Handle};
use crate::http::auth::Viewer;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiPath, ApiQuery};
use crate::logging::ErrorChain;
use crate::service::{GAMES_PAGE_SIZE, GameSummary, HistoryQuery, Page};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerGamesQuery {
    /// Only games in this state (finished: ended with a result; aborted: ended without one).
    status: Option<GameStatus>,
    /// Only games of this preset.
    #[param(schema_with = crate::service::variant_schema)]
    variant: Option<String>,
    /// Which page (from 1; default 1); the answer's `next_page` is null on the last.
    #[param(minimum = 1)]
    page: Option<u32>,
}

/// A player's games, latest first, 50 a page (?status=active|finished|aborted&variant=&page=)
///
/// Private games are listed only to their players.
#[utoipa::path(
    get, path = "/players/{handle}/games", tag = "players", security((), ("bearer" = [])),
    params(("handle" = Handle, Path, description = "The player's handle (any case)"), PlayerGamesQuery),
    responses(
        (status = 200, description = "A page of games", body = Page<GameSummary>),
        (status = 404, description = "No player has this handle (`not_found`)", body = ErrorBody),
        (status = 422, description = "`variant` is not a preset's id", body = ErrorBody),
    )
)]
pub async fn player_games(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(handle): ApiPath<String>,
    ApiQuery(q): ApiQuery<PlayerGamesQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    let player = state.service.accounts().player_by_handle(&handle).await?;
    let games = state
        .service
        .games()
        .games_of_player(
            player.id,
            viewer,
            HistoryQuery {
                status: q.status,
                variant: q.variant,
                page,
                page_size: GAMES_PAGE_SIZE,
            },
        )
        .await?;
    Ok(Json(games).into_response())
}

/// Game ids read per query while exporting.
const EXPORT_BATCH: u32 = 100;

/// Every finished public game of a player as OpenTafl .otg records, one after another
///
/// A blank line between two records, written as they are read: a player with thousands of games costs no more
/// memory than one. A failure half-way aborts the answer, so a client never takes a cut file
/// for a whole one.
#[utoipa::path(
    get, path = "/players/{handle}/games.otg", tag = "players", security((), ("bearer" = [])),
    params(("handle" = Handle, Path, description = "The player's handle (any case)")),
    responses(
        (status = 200, description = "The records, a blank line between two; cut short (the connection aborted) when reading fails half-way", body = String, content_type = "text/plain",
            headers(("Content-Disposition" = String, description = "attachment; filename=\"taflbot-<handle>.otg\""))),
        (status = 404, description = "No player has this handle (`not_found`)", body = ErrorBody),
    )
)]
pub async fn player_games_otg(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiPath(handle): ApiPath<String>,
) -> ApiResult<Response> {
    let player = state.service.accounts().player_by_handle(&handle).await?;
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(8);
    let service = state.service.clone();
    tokio::spawn(async move {
        let mut after = GameId(0);
        loop {
            let ids = match service
                .games()
                .finished_public_games(player.id, after, EXPORT_BATCH)
                .await
            {
                Ok(ids) if ids.is_empty() => return,
                Ok(ids) => ids,
                Err(e) => {
                    tracing::warn!(player = %player.id, error = %ErrorChain(&e), "export stopped");
                    let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                    return;
                }
            };
            for id in ids {
                after = id;
                let record = match service.games().export_otg(id).await {
                    Ok(record) => record,
                    Err(e) => {
                        tracing::warn!(game = %id, error = %ErrorChain(&e), "export stopped");
                        let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                        return;
                    }
                };
                let mut text = record.trim_end().to_owned();
                text.push_str("\n\n");
                if tx.send(Ok(Bytes::from(text))).await.is_err() {
                    return;
                }
            }
        }
    });
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"taflbot-{}.otg\"", player.handle),
            ),
        ],
        Body::from_stream(ReceiverStream::new(rx)),
    )
        .into_response())
}
