//! Team matches: create, list, read, join, leave, start, call off.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::{TeamMatchId, TeamSide};
use crate::service::ClockSpec;
use crate::service::matches::{NewTeam, NewTeamMatch, TeamMatchSummary, TeamMatchView};

use super::ApiResult;
use super::request_terms::{invalid, rules_choice};
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::ErrorBody;
use crate::http::extract::{ApiJson, ApiPath};

/// A team match: its name, rules (`variant` or `rules`), clock, and its two teams.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTeamMatchBody {
    name: String,
    /// A preset's id from `/variants`.
    #[schema(schema_with = crate::service::variant_schema)]
    variant: Option<String>,
    /// An OpenTafl rules string, for rules no preset has.
    rules: Option<String>,
    /// Every game's clock.
    #[serde(default)]
    clock: ClockSpec,
    /// Whether the games count for ratings; by default rated on a preset with a clock.
    rated: Option<bool>,
    /// The number of boards (players a team); by default as many as the larger team names.
    boards: Option<u32>,
    /// Exactly two: home, then away.
    teams: Vec<NewTeamBody>,
}

/// A team: its name and its players' handles in board order. When both teams name as many
/// players as there are boards, the match starts at once; otherwise players join it.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTeamBody {
    name: String,
    #[serde(default)]
    players: Vec<String>,
}

/// Which team I join.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinTeamBody {
    team: TeamSide,
}

/// Create a team match (I organise it; I play only if a team names me)
#[utoipa::path(
    post, path = "/matches", tag = "matches", security(("bearer" = [])),
    request_body = NewTeamMatchBody,
    responses(
        (status = 201, description = "The match: running when both teams were named in full, else in sign-up", body = TeamMatchView),
        (status = 422, description = "Not two teams, a name empty or too long, teams of the same name, an unknown handle, a player named twice, more players than boards, both a variant and rules, unknown rules, a clock out of range, or rated custom rules", body = ErrorBody),
    )
)]
pub async fn create_match(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewTeamMatchBody>,
) -> ApiResult<Response> {
    let rules = rules_choice(body.variant, body.rules)?;
    let teams: [NewTeamBody; 2] = body
        .teams
        .try_into()
        .map_err(|_| invalid("a team match has exactly two teams: home, then away"))?;
    let created = state
        .service
        .matches()
        .create(
            me,
            NewTeamMatch {
                name: body.name,
                rules,
                clock: body.clock,
                rated: body.rated,
                boards: body.boards,
                teams: teams.map(|t| NewTeam {
                    name: t.name,
                    players: t.players,
                }),
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The newest team matches
#[utoipa::path(
    get, path = "/matches", tag = "matches", security((), ("bearer" = [])),
    responses((status = 200, description = "The newest team matches first", body = Vec<TeamMatchSummary>))
)]
pub async fn list_matches(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.matches().list().await?).into_response())
}

/// A team match: teams, boards with their games, score, status, winner
#[utoipa::path(
    get, path = "/matches/{id}", tag = "matches", security((), ("bearer" = [])),
    params(("id" = TeamMatchId, Path, description = "The match's id")),
    responses(
        (status = 200, description = "The match", body = TeamMatchView),
        (status = 404, description = "No such match", body = ErrorBody),
    )
)]
pub async fn get_match(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<TeamMatchId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.matches().get(id).await?).into_response())
}

/// Join a team of a match in sign-up (I take its next board)
#[utoipa::path(
    post, path = "/matches/{id}/join", tag = "matches", security(("bearer" = [])),
    params(("id" = TeamMatchId, Path, description = "The match's id")),
    request_body = JoinTeamBody,
    responses(
        (status = 200, description = "The match with me in the team", body = TeamMatchView),
        (status = 404, description = "No such match", body = ErrorBody),
        (status = 409, description = "Already playing in it, the team full, or past sign-up", body = ErrorBody),
    )
)]
pub async fn join_match(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TeamMatchId>,
    ApiJson(body): ApiJson<JoinTeamBody>,
) -> ApiResult<Response> {
    Ok(Json(state.service.matches().join(me, id, body.team).await?).into_response())
}

/// Start a team match I organise: every game begins at once
#[utoipa::path(
    post, path = "/matches/{id}/start", tag = "matches", security(("bearer" = [])),
    params(("id" = TeamMatchId, Path, description = "The match's id")),
    responses(
        (status = 200, description = "The match, running", body = TeamMatchView),
        (status = 403, description = "Not its organiser", body = ErrorBody),
        (status = 404, description = "No such match", body = ErrorBody),
        (status = 409, description = "The teams of different sizes or empty, or past sign-up", body = ErrorBody),
    )
)]
pub async fn start_match(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TeamMatchId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.matches().start(me, id).await?).into_response())
}

/// Leave my team of a match in sign-up (the players after me move up a board)
#[utoipa::path(
    post, path = "/matches/{id}/leave", tag = "matches", security(("bearer" = [])),
    params(("id" = TeamMatchId, Path, description = "The match's id")),
    responses(
        (status = 200, description = "The match without me", body = TeamMatchView),
        (status = 404, description = "No such match", body = ErrorBody),
        (status = 409, description = "Not playing in it, or past sign-up (once it has started my games are under way: resign them instead)", body = ErrorBody),
    )
)]
pub async fn leave_match(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TeamMatchId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.matches().leave(me, id).await?).into_response())
}

/// Call off a match I organise, before it starts: no game of it is played
#[utoipa::path(
    post, path = "/matches/{id}/cancel", tag = "matches", security(("bearer" = [])),
    params(("id" = TeamMatchId, Path, description = "The match's id")),
    responses(
        (status = 200, description = "The match, cancelled", body = TeamMatchView),
        (status = 403, description = "Not its organiser", body = ErrorBody),
        (status = 404, description = "No such match", body = ErrorBody),
        (status = 409, description = "Past sign-up: started, over, or already called off", body = ErrorBody),
    )
)]
pub async fn cancel_match(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TeamMatchId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.matches().cancel(me, id).await?).into_response())
}
