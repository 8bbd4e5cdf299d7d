//! Challenges: create, list, accept, decline, cancel.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::{ChallengeId, PlayerId};
use crate::service::{
    ChallengeCreated, ChallengeLists, ChallengeView, ClockSpec, GameView, NewChallenge, Opponent,
    Place, SideChoice,
};

use super::ApiResult;
use super::request_terms::{invalid, rules_choice};
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath};

/// A challenge: give `opponent_id`, or `ai_level`, or neither for an open challenge; give
/// `variant` or `rules`, or neither for the default variant.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewChallengeBody {
    /// The player challenged.
    opponent_id: Option<PlayerId>,
    /// The opponent's handle (instead of `opponent_id`).
    #[schema(value_type = Option<crate::domain::Handle>)]
    opponent: Option<String>,
    /// Challenge the AI at this level: the game starts at once. Any whole number is read, so
    /// one out of range gets the service's "between 1 and N".
    #[schema(schema_with = crate::service::ai_level_schema)]
    ai_level: Option<i64>,
    /// A preset's id from `/variants`.
    #[schema(schema_with = crate::service::variant_schema)]
    variant: Option<String>,
    /// An OpenTafl rules string, for rules no preset has.
    rules: Option<String>,
    #[serde(default)]
    side: SideChoice,
    #[serde(default)]
    clock: ClockSpec,
    #[schema(schema_with = crate::service::context_schema)]
    context: Option<String>,
    /// Whether the game counts for ratings; by default rated between two players on a
    /// preset variant.
    rated: Option<bool>,
    /// A private game is seen only by its players.
    #[serde(default)]
    private: bool,
}

/// Challenge a player, anyone (open) or the AI
///
/// Rules whose start cannot be played are refused with 422 naming why: no king, no
/// attackers, the king already on a winning square or captured, encircled, in an edge fort,
/// or no legal move for the side to move first.
#[utoipa::path(
    post, path = "/challenges", tag = "challenges", security(("bearer" = [])),
    request_body = NewChallengeBody,
    responses(
        (status = 201, description = "The challenge, and the game when it started at once (against the AI)", body = ChallengeCreated),
        (status = 404, description = "No such opponent", body = ErrorBody),
        (status = 422, description = "Both an opponent and an AI level, both a variant and rules, an unknown variant, rules that are not valid or cannot start, a clock out of range, a Discord label, an AI level out of range, or yourself as the opponent", body = ErrorBody),
        (status = 503, description = "The AI is not available on this server", body = ErrorBody),
    )
)]
pub async fn create_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewChallengeBody>,
) -> ApiResult<Response> {
    let opponent = match (body.opponent_id, body.opponent, body.ai_level) {
        (Some(_), Some(_), _) => {
            return Err(invalid("give opponent (a handle) or opponent_id, not both"));
        }
        (Some(_), None, Some(_)) | (None, Some(_), Some(_)) => {
            return Err(invalid("give an opponent or ai_level, not both"));
        }
        (Some(id), None, None) => Opponent::Player(id),
        (None, Some(handle), None) => {
            Opponent::Player(state.service.accounts().player_by_handle(&handle).await?.id)
        }
        (None, None, Some(level)) => Opponent::Ai {
            level: u8::try_from(level).unwrap_or(0),
        },
        (None, None, None) => Opponent::Open,
    };
    let rules = rules_choice(body.variant, body.rules)?;
    let created = state
        .service
        .challenges()
        .create(
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

/// My pending challenges, incoming and outgoing
#[utoipa::path(
    get, path = "/challenges", tag = "challenges", security(("bearer" = [])),
    responses((status = 200, description = "Pending challenges to me or open to anyone, and mine", body = ChallengeLists))
)]
pub async fn list_challenges(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.challenges().list(me).await?).into_response())
}

/// Accept a challenge; starts the game
#[utoipa::path(
    post, path = "/challenges/{id}/accept", tag = "challenges", security(("bearer" = [])),
    params(("id" = ChallengeId, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The game it started", body = GameView),
        (status = 403, description = "My own challenge, or one sent to someone else", body = ErrorBody),
        (status = 409, description = "No longer pending, or expired", body = ErrorBody),
    )
)]
pub async fn accept_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.challenges().accept(me, id).await?).into_response())
}

/// Decline a challenge sent to me
#[utoipa::path(
    post, path = "/challenges/{id}/decline", tag = "challenges", security(("bearer" = [])),
    params(("id" = ChallengeId, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The declined challenge", body = ChallengeView),
        (status = 403, description = "Not sent to me", body = ErrorBody),
        (status = 409, description = "No longer pending, or expired", body = ErrorBody),
    )
)]
pub async fn decline_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.challenges().decline(me, id).await?).into_response())
}

/// Cancel a challenge I sent
#[utoipa::path(
    post, path = "/challenges/{id}/cancel", tag = "challenges", security(("bearer" = [])),
    params(("id" = ChallengeId, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The cancelled challenge", body = ChallengeView),
        (status = 403, description = "Not my challenge", body = ErrorBody),
        (status = 409, description = "No longer pending, or expired", body = ErrorBody),
    )
)]
pub async fn cancel_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<ChallengeId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.challenges().cancel(me, id).await?).into_response())
}
