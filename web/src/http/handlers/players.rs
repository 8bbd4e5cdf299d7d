//! Players: registration, the token's own player, handles, finding players.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::{ApiResult, page_number};
use crate::domain::Handle;
use crate::http::auth::{Authed, Viewer};
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, ApiPath, ApiQuery};
use crate::service::{AccountChange, AccountView, Page, PlayerProfile, PlayerView};
use crate::{AppState, ClientKey, registration_refused};

/// A new player.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    #[schema(schema_with = crate::service::accounts::players::name_schema)]
    name: String,
    /// Made from the name when absent (ada, ada2, ...).
    #[schema(value_type = Option<Handle>)]
    handle: Option<String>,
}

/// Register a player; returns its API token (shown once)
///
/// Needs no token. Registrations are limited per client address (an IPv6 client by its /64).
#[utoipa::path(
    post, path = "/players", tag = "players",
    request_body = NewPlayerBody,
    responses(
        (status = 201, description = "The player and its first API token", body = crate::service::IssuedToken),
        (status = 403, description = "Registration over HTTP is turned off here (`registration_closed`)", body = ErrorBody),
        (status = 409, description = "The handle is taken (`conflict`)", body = ErrorBody),
        (status = 422, description = "The name is not 1 to 64 printable characters, or the handle does not follow the rule", body = ErrorBody),
        (status = 429, description = "Too many registrations from this address (`rate_limited`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The store is out of reach for now (`unavailable`)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait"))),
    )
)]
pub async fn register_player(
    State(state): State<AppState>,
    ClientKey(client): ClientKey,
    ApiJson(body): ApiJson<NewPlayerBody>,
) -> ApiResult<Response> {
    if !state.config.allow_registration {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "registration_closed",
            "registration over HTTP is turned off here; ask the Discord bot for a token with /token",
        ));
    }
    if let Some(secs) = registration_refused(&state, client).await? {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many registrations from your address; retry in {secs} s"),
        );
        e.retry_after_secs = Some(secs);
        return Err(e);
    }
    let issued = state
        .service
        .accounts()
        .register(&body.name, body.handle.as_deref())
        .await?;
    Ok((StatusCode::CREATED, Json(issued)).into_response())
}

/// The player of this token
#[utoipa::path(
    get, path = "/me", tag = "players", security(("bearer" = [])),
    responses((status = 200, description = "The token's player, with their Discord account and preferences", body = AccountView))
)]
pub async fn me(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.accounts().account(me).await?).into_response())
}

/// What to change about me; what is left out stays as it is.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateMeBody {
    /// My new handle.
    #[schema(value_type = Option<Handle>)]
    handle: Option<String>,
    /// Whether the boards shown only to me (Discord's private boards) are turned half a turn.
    board_flipped: Option<bool>,
}

/// Change my handle or my preferences
#[utoipa::path(
    patch, path = "/me", tag = "players", security(("bearer" = [])),
    request_body = UpdateMeBody,
    responses(
        (status = 200, description = "The token's player, as changed", body = AccountView),
        (status = 409, description = "The handle is taken (`conflict`)", body = ErrorBody),
        (status = 422, description = "The handle does not follow the rule", body = ErrorBody),
    )
)]
pub async fn update_me(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<UpdateMeBody>,
) -> ApiResult<Response> {
    let change = AccountChange {
        handle: body.handle,
        board_flipped: body.board_flipped,
    };
    Ok(Json(state.service.accounts().change_account(me, change).await?).into_response())
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayersQuery {
    /// Only handles starting with this (any case; a leading `@` is ignored): at most 24 of
    /// what handles hold.
    prefix: Option<String>,
    /// Which page (from 1; default 1); the answer's `next_page` is null on the last.
    #[param(minimum = 1)]
    page: Option<u32>,
}

/// Players whose handle starts with ?prefix=, by handle, 50 a page (?page=)
#[utoipa::path(
    get, path = "/players", tag = "players", security((), ("bearer" = [])),
    params(PlayersQuery),
    responses(
        (status = 200, description = "A page of players", body = Page<PlayerView>),
        (status = 422, description = "`prefix` is longer than a handle, or holds what no handle holds", body = ErrorBody),
    )
)]
pub async fn list_players(
    State(state): State<AppState>,
    Viewer(_viewer): Viewer,
    ApiQuery(q): ApiQuery<PlayersQuery>,
) -> ApiResult<Response> {
    let page = page_number(q.page)?;
    let found = state
        .service
        .accounts()
        .players_by_prefix(q.prefix.as_deref().unwrap_or_default(), page)
        .await?;
    Ok(Json(found).into_response())
}

/// A player by handle: ratings and results per variant, current games
///
/// Private games are among `current_games` only when one of their players asks.
#[utoipa::path(
    get, path = "/players/{handle}", tag = "players", security((), ("bearer" = [])),
    params(("handle" = Handle, Path, description = "The player's handle (any case)")),
    responses(
        (status = 200, description = "The player", body = PlayerProfile),
        (status = 404, description = "No player has this handle (`not_found`)", body = ErrorBody),
    )
)]
pub async fn get_player(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(handle): ApiPath<String>,
) -> ApiResult<Response> {
    Ok(Json(
        state
            .service
            .ratings()
            .player_profile(&handle, viewer)
            .await?,
    )
    .into_response())
}
