//! Request handlers: parse, call the games service, answer JSON.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::service::{ClockSpec, MoveRequest, NewChallenge, Opponent, RulesChoice, SideChoice};
use crate::store::rows::{ChallengeId, GameId, WebhookId};

use super::AppState;
use super::auth::Authed;
use super::error::ApiError;
use super::extract::{ApiJson, ApiPath, ApiQuery};

pub use super::board::board_png;

type ApiResult<T> = Result<T, ApiError>;

pub async fn health() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

pub async fn openapi_json() -> Json<Value> {
    Json(super::openapi_document())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPlayerBody {
    name: String,
}

pub async fn register_player(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewPlayerBody>,
) -> ApiResult<Response> {
    if !state.config.allow_registration {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "registration_closed",
            "registration over HTTP is turned off here; ask the Discord bot for a token with /token",
        ));
    }
    // Registration needs no token, so it shares one bucket for everyone.
    if let Err(secs) = state.limiter.check([0u8; 32]) {
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("too many registrations; retry in {secs} s"),
        );
        e.retry_after_secs = Some(secs);
        return Err(e);
    }
    let issued = state.service.register_player(&body.name).await?;
    Ok((StatusCode::CREATED, Json(issued)).into_response())
}

pub async fn me(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.player(me).await?).into_response())
}

pub async fn list_variants(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.variants()).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewChallengeBody {
    opponent_id: Option<i64>,
    ai_level: Option<u8>,
    variant: Option<String>,
    rules: Option<String>,
    #[serde(default)]
    side: SideChoice,
    #[serde(default)]
    clock: ClockSpec,
    context: Option<String>,
}

pub async fn create_challenge(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewChallengeBody>,
) -> ApiResult<Response> {
    let opponent = match (body.opponent_id, body.ai_level) {
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid",
                "give opponent_id or ai_level, not both",
            ));
        }
        (Some(id), None) => Opponent::Player(id),
        (None, Some(level)) => Opponent::Ai { level },
        (None, None) => Opponent::Open,
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
        (None, None) => RulesChoice::Variant("copenhagen".into()),
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
                context: body.context,
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

pub async fn list_games(State(state): State<AppState>, Authed(me): Authed) -> ApiResult<Response> {
    Ok(Json(state.service.list_games(me).await?).into_response())
}

pub async fn get_game(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.game(Some(me), id).await?).into_response())
}

#[derive(Deserialize)]
pub struct LegalQuery {
    from: Option<String>,
}

pub async fn legal_moves(
    State(state): State<AppState>,
    Authed(_me): Authed,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<LegalQuery>,
) -> ApiResult<Response> {
    let moves = state.service.legal_moves(id, q.from.as_deref()).await?;
    Ok(Json(json!({ "game_id": id, "from": q.from, "moves": moves })).into_response())
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
    Authed(_me): Authed,
    ApiPath(id): ApiPath<GameId>,
) -> ApiResult<Response> {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewWebhookBody {
    url: String,
    secret: String,
}

pub async fn add_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewWebhookBody>,
) -> ApiResult<Response> {
    let hook = state
        .service
        .add_webhook(me, &body.url, &body.secret)
        .await?;
    Ok((StatusCode::CREATED, Json(hook)).into_response())
}

pub async fn list_webhooks(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.webhooks(me).await?).into_response())
}

pub async fn remove_webhook(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<WebhookId>,
) -> ApiResult<Response> {
    state.service.remove_webhook(me, id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}
