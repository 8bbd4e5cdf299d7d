//! My vacation: the balance, going away (my correspondence clocks stop) and coming back.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};

use crate::service::{VacationRequest, VacationView};

use super::ApiResult;
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::ApiJson;

/// My vacation days: used and left in the last 365 days, and the vacation I am on
#[utoipa::path(
    get, path = "/me/vacation", tag = "players", security(("bearer" = [])),
    responses((status = 200, description = "My balance and state", body = VacationView))
)]
pub async fn get_vacation(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.vacations().status(me).await?).into_response())
}

/// Go on vacation for a number of days from now
///
/// My clocks stop in my correspondence games (a day or more per move, or a bank of a day or
/// more) until it ends or I come back; each of those games gets a `vacation_started` event,
/// and a `vacation_ended` with its moved deadline when I am back. Shorter clocks, and games of
/// tournaments that forbid vacation, run on (`unprotected_games`). Making a move ends it.
#[utoipa::path(
    post, path = "/me/vacation", tag = "players", security(("bearer" = [])),
    request_body = VacationRequest,
    responses(
        (status = 200, description = "On vacation", body = VacationView),
        (status = 409, description = "Already on vacation (`conflict`)", body = ErrorBody),
        (status = 422, description = "0 days, or more than the days left (`invalid`)", body = ErrorBody),
    )
)]
pub async fn take_vacation(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<VacationRequest>,
) -> ApiResult<Response> {
    Ok(Json(state.service.vacations().take(me, body).await?).into_response())
}

/// Come back from vacation early
///
/// My clocks run again, each deadline moved on by the time its turn stood still; the whole
/// days not begun come back to my balance.
#[utoipa::path(
    delete, path = "/me/vacation", tag = "players", security(("bearer" = [])),
    responses(
        (status = 200, description = "Back", body = VacationView),
        (status = 409, description = "Not on vacation (`conflict`)", body = ErrorBody),
    )
)]
pub async fn end_vacation(
    State(state): State<AppState>,
    Authed(me): Authed,
) -> ApiResult<Response> {
    Ok(Json(state.service.vacations().come_back(me).await?).into_response())
}
