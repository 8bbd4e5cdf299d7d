//! Study: importing game records, and the annotations of finished games.

use axum::Json;
use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::domain::{AnnotationId, GameId};
use crate::service::study::{
    AnnotateRequest, AnnotationView, ImportRequest, ImportedGameView, RecordFormat,
};

use super::ApiResult;
use crate::AppState;
use crate::http::ApiError;
use crate::http::auth::{Authed, Viewer};
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath, ApiQuery, body_bytes};

/// How the record in the body is written.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ImportQuery {
    /// `otg` (OpenTafl's record, with its rules) or `moves` (an archive's move list,
    /// `1. d1-d3 e5-e7 ...`); absent: `otg` when the record has a `[rules:...]` tag.
    #[param(value_type = Option<String>, example = "moves")]
    pub format: Option<RecordFormat>,
    /// The variant of a move list (see `/variants`); an `.otg` record names its own rules.
    #[param(example = "copenhagen")]
    pub variant: Option<String>,
}

/// A text body: a game record, read as UTF-8.
pub struct RecordText(pub String);

impl FromRequest<AppState> for RecordText {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let bytes = body_bytes(req, state).await?;
        let text = String::from_utf8(bytes.to_vec()).map_err(|_| {
            ApiError::bad_request("the record is not UTF-8 text: send it as text/plain")
        })?;
        if text.trim().is_empty() {
            return Err(ApiError::bad_request(
                "the body is empty: send the game record as text/plain",
            ));
        }
        Ok(RecordText(text))
    }
}

/// Import a game record
///
/// The body is the record as text (`Content-Type: text/plain`): an OpenTafl `.otg` record
/// (its comments and variations become the game's annotations) or an archive's move list with
/// `?variant=`. Every move is checked by the referee; the game is stored finished, unrated and
/// public, its players the names the record gives (they are names, not taflbot accounts: a
/// seat without `player_id` or `ai_level`). A result the rules did not decide comes from the
/// record (`1-0`, `[result:-1]`, `---`) as a resignation or an agreed draw.
#[utoipa::path(
    post, path = "/games/import", tag = "games", security(("bearer" = [])),
    params(ImportQuery),
    request_body(content = String, content_type = "text/plain", description = "The record"),
    responses(
        (status = 201, description = "The game made from the record", body = ImportedGameView),
        (status = 400, description = "An empty body, or not UTF-8 (`bad_request`); a NUL character in a tag, a comment or anywhere in the record, named by where it is (`nul_character`)", body = ErrorBody),
        (status = 404, description = "No such variant", body = ErrorBody),
        (status = 413, description = "A record over `http.body_limit_bytes` (`body_too_large`)", body = ErrorBody),
        (status = 422, description = "The first illegal move, its number and the referee's reason (`illegal_move`); or a record that cannot be read, has no result, or starts from a position of its own (`invalid`)", body = ErrorBody),
    )
)]
pub async fn import_game(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiQuery(query): ApiQuery<ImportQuery>,
    RecordText(text): RecordText,
) -> ApiResult<Response> {
    let request = ImportRequest {
        text,
        format: query.format,
        variant: query.variant,
    };
    let view = state.service.study().import(Some(me), request).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// A game's annotations: comments on its moves, and variations instead of them
#[utoipa::path(
    get, path = "/games/{id}/annotations", tag = "games", security((), ("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    responses(
        (status = 200, description = "By move, in the order they were written", body = [AnnotationView]),
        (status = 404, description = "No such game (or a private game of others)", body = ErrorBody),
    )
)]
pub async fn list_annotations(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    let list = state.service.study().annotations(viewer, id).await?;
    Ok(Json(list).into_response())
}

/// Annotate a finished game: a comment on a move, or a variation instead of it
///
/// For the game's players (and whoever imported it). A variation's moves are checked by the
/// referee from the position before move `ply`; its comment goes on its first move. The game's
/// `.otg` export carries the annotations.
#[utoipa::path(
    post, path = "/games/{id}/annotations", tag = "games", security(("bearer" = [])),
    params(("id" = GameId, Path, description = "The game's id")),
    request_body = AnnotateRequest,
    responses(
        (status = 201, description = "The annotation", body = AnnotationView),
        (status = 403, description = "Not a player of the game", body = ErrorBody),
        (status = 404, description = "No such game, or no such move", body = ErrorBody),
        (status = 409, description = "The game is still being played", body = ErrorBody),
        (status = 422, description = "An illegal move in the variation (`illegal_move`); nothing said, or too long (`invalid`)", body = ErrorBody),
    )
)]
pub async fn add_annotation(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
    ApiJson(body): ApiJson<AnnotateRequest>,
) -> ApiResult<Response> {
    let view = state.service.study().annotate(me, id, body).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// Remove one of my annotations
#[utoipa::path(
    delete, path = "/games/{id}/annotations/{annotation}", tag = "games", security(("bearer" = [])),
    params(
        ("id" = GameId, Path, description = "The game's id"),
        ("annotation" = AnnotationId, Path, description = "The annotation's id"),
    ),
    responses(
        (status = 204, description = "Removed"),
        (status = 404, description = "No such game, or no such annotation of mine", body = ErrorBody),
    )
)]
pub async fn remove_annotation(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath((id, annotation)): ApiPath<(GameId, AnnotationId)>,
) -> ApiResult<Response> {
    state
        .service
        .study()
        .remove_annotation(me, id, annotation)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
