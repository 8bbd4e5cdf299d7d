//! Games: list, view, legal moves, moves, resign, abort, draws, export.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use tafl_engine::Side;

use crate::domain::GameId;
use crate::service::MoveRequest;

use super::ApiResult;
use crate::http::AppState;
use crate::http::auth::{Authed, Viewer};
use crate::http::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};

pub async fn list_games(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.list_games(me).await?).into_response())
}

pub async fn get_game(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.visible_game(viewer, id).await?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegalQuery {
    from: Option<String>,
    side: Option<Side>,
}

pub async fn legal_moves(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<LegalQuery>,
) -> ApiResult<Response> {
    state.service.ensure_visible(viewer, id).await?;
    let legal = state
        .service
        .legal_moves_of(id, q.side, q.from.as_deref())
        .await?;
    Ok(Json(legal).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMoveBody {
    #[serde(rename = "move")]
    mv: String,
    ply: u32,
}

const IDEMPOTENCY_KEY: &str = "idempotency-key";

pub async fn play_move(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<NewMoveBody>,
) -> ApiResult<Response> {
    let key = match headers.get(IDEMPOTENCY_KEY) {
        None => None,
        Some(v) => {
            let key = v
                .to_str()
                .ok()
                .map(str::trim)
                .filter(|k| !k.is_empty() && k.len() <= 200);
            Some(key.map(str::to_owned).ok_or_else(|| {
                ApiError::bad_request("Idempotency-Key must be 1 to 200 visible ASCII characters")
            })?)
        }
    };
    let played = state
        .service
        .play_move(
            me,
            id,
            MoveRequest {
                text: body.mv,
                expected_ply: Some(body.ply),
                idempotency_key: key,
            },
        )
        .await?;
    Ok(Json(played).into_response())
}

pub async fn resign(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.resign(me, id).await?).into_response())
}

pub async fn abort(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.abort(me, id).await?).into_response())
}

pub async fn offer_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.offer_draw(me, id).await?).into_response())
}

pub async fn accept_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.accept_draw(me, id).await?).into_response())
}

pub async fn decline_draw(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.decline_draw(me, id).await?).into_response())
}

pub async fn export_game(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    state.service.ensure_visible(viewer, id).await?;
    let text = state.service.export_otg(id).await?;
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_owned(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"taflbot-game-{id}.otg\""),
            ),
        ],
        text,
    )
        .into_response())
}
