//! API tokens: list, create (the token is shown once), revoke.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::TokenId;

use super::ApiResult;
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath};
use crate::service::{CreatedToken, TokenView};

/// A new API token.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenBody {
    /// Your label for it.
    #[schema(schema_with = crate::service::token_name_schema)]
    name: String,
}

/// My API tokens: name, created, last used (never the token)
#[utoipa::path(
    get, path = "/tokens", tag = "tokens", security(("bearer" = [])),
    responses((status = 200, description = "My tokens, never the secrets", body = Vec<TokenView>))
)]
pub async fn list_tokens(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.credentials().tokens(me).await?).into_response())
}

/// Create a named API token; returns the token (shown once)
///
/// Answers the new token's fields and `token`, the secret itself, which is never shown
/// again. At most 20 tokens per player (422 beyond).
#[utoipa::path(
    post, path = "/tokens", tag = "tokens", security(("bearer" = [])),
    request_body = NewTokenBody,
    responses(
        (status = 201, description = "The new token, its secret shown this once", body = CreatedToken),
        (status = 422, description = "The name is not 1 to 64 printable characters, or the player has 20 tokens already", body = ErrorBody),
    )
)]
pub async fn create_token(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewTokenBody>,
) -> ApiResult<Response> {
    let created = state
        .service
        .credentials()
        .create_token(me, &body.name)
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Revoke one of my tokens; refused from its next request on
///
/// The token is refused (401 `invalid_token`) from its next request on, including when it
/// is the token making this request.
#[utoipa::path(
    delete, path = "/tokens/{id}", tag = "tokens", security(("bearer" = [])),
    params(("id" = TokenId, Path, description = "The token's id")),
    responses((status = 204, description = "Revoked"))
)]
pub async fn revoke_token(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TokenId>,
) -> ApiResult<Response> {
    state.service.credentials().revoke_token(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
