//! Challenges: create, list, accept, decline, cancel.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::domain::{ChallengeId, PlayerId};
use crate::service::{ClockSpec, NewChallenge, Opponent, Place, RulesChoice, SideChoice};

use super::ApiResult;
use crate::http::AppState;
use crate::http::auth::Authed;
use crate::http::error::ApiError;
use crate::http::extract::{ApiJson, ApiPath};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallengeBody {
    opponent_id: Option<PlayerId>,
    /// The opponent's handle (instead of `opponent_id`).
    opponent: Option<String>,
    /// Any whole number, so one out of range gets the service's "between 1 and N".
    ai_level: Option<i64>,
    variant: Option<String>,
    rules: Option<String>,
    #[serde(default)]
    side: SideChoice,
    #[serde(default)]
    clock: ClockSpec,
    context: Option<String>,
    rated: Option<bool>,
    #[serde(default)]
    private: bool,
}

pub async fn create_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewChallengeBody>,
) -> ApiResult<Response> {
    let invalid = |message: &str| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            message.to_owned(),
        )
    };
    let opponent = match (body.opponent_id, body.opponent, body.ai_level) {
        (Some(_), Some(_), _) => {
            return Err(invalid("give opponent (a handle) or opponent_id, not both"));
        }
        (Some(_), None, Some(_)) | (None, Some(_), Some(_)) => {
            return Err(invalid("give an opponent or ai_level, not both"));
        }
        (Some(id), None, None) => Opponent::Player(id),
        (None, Some(handle), None) => {
            Opponent::Player(state.service.player_by_handle(&handle).await?.id)
        }
        (None, None, Some(level)) => Opponent::Ai {
            level: u8::try_from(level).unwrap_or(0),
        },
        (None, None, None) => Opponent::Open,
    };
    let rules = match (body.variant, body.rules) {
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid",
                "give variant or rules, not both",
            ));
        }
        (Some(v), None) => RulesChoice::Variant(v),
        (None, Some(r)) => RulesChoice::Rules(r),
        (None, None) => RulesChoice::default(),
    };
    let created = state
        .service
        .create_challenge(
            me,
            NewChallenge {
                opponent,
                rules,
                side: body.side,
                clock: body.clock,
                context: body.context.map(Place::Label),
                rated: body.rated,
                private: body.private,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

pub async fn list_challenges(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.list_challenges(me).await?).into_response())
}

pub async fn accept_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.accept_challenge(me, id).await?).into_response())
}

pub async fn decline_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.decline_challenge(me, id).await?).into_response())
}

pub async fn cancel_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.cancel_challenge(me, id).await?).into_response())
}
