//! Tournaments: create, list, read, join, leave, start.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::domain::TournamentId;
use crate::service::tournaments::{
    Format, FormatKind, NewTournament, TournamentSummary, TournamentView, WithdrawalRule,
};
use crate::service::{ClockSpec, TournamentVacation};

use super::ApiResult;
use super::request_terms::{invalid, rules_choice};
use crate::AppState;
use crate::http::auth::Authed;
use crate::http::error::{ApiError, ErrorBody};
use crate::http::extract::{ApiJson, ApiPath};

/// A tournament: its name, format, rules (`variant` or `rules`), clock and size.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTournamentBody {
    name: String,
    format: FormatKind,
    /// The number of rounds of a Swiss tournament (and only of one).
    rounds: Option<u32>,
    /// The largest group of a groups-then-knockout tournament (and only of one).
    group_size: Option<u32>,
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
    #[serde(default = "default_min_players")]
    min_players: u32,
    #[serde(default = "default_max_players")]
    max_players: u32,
    /// When sign-up closes and the first round starts (milliseconds since the Unix epoch);
    /// absent: the organiser starts it.
    starts_at: Option<i64>,
    /// Whether a player's vacation stops the clocks of its games: `"allowed"` (the default),
    /// `"forbidden"`, or `{"max_days": N}` (at most N days per player in all its games).
    #[serde(default)]
    vacation: TournamentVacation,
    /// Rounds at set times: round N starts no earlier than the start plus N - 1 times this
    /// many days (1 to 90), and not before the round before is done; absent: each round as
    /// soon as the one before ends.
    round_days: Option<u32>,
    /// What a withdrawal does to the player's games: `"forfeit"` (the default: results played
    /// stand, the games left are won by the opponents), `"annul"` (none of the player's games
    /// count, and the player is unranked) or `"annul_under_half"` (annul when they had
    /// finished fewer than half of their games, else forfeit). Round robins and the group
    /// stage of groups then knockout; a Swiss tournament takes only `"forfeit"`.
    #[serde(default)]
    withdrawal: WithdrawalRule,
}

fn default_min_players() -> u32 {
    2
}

fn default_max_players() -> u32 {
    64
}

impl NewTournamentBody {
    fn format(&self) -> Result<Format, ApiError> {
        match (self.format, self.rounds, self.group_size) {
            (FormatKind::Swiss, Some(rounds), None) => Ok(Format::Swiss { rounds }),
            (FormatKind::Swiss, None, _) => Err(invalid("a Swiss tournament needs rounds")),
            (FormatKind::GroupsKnockout, None, Some(group_size)) => {
                Ok(Format::GroupsKnockout { group_size })
            }
            (FormatKind::GroupsKnockout, _, None) => {
                Err(invalid("a groups_knockout tournament needs group_size"))
            }
            (_, Some(_), _) => Err(invalid("rounds is only for a Swiss tournament")),
            (_, _, Some(_)) => Err(invalid(
                "group_size is only for a groups_knockout tournament",
            )),
            (FormatKind::RoundRobin, None, None) => Ok(Format::RoundRobin),
            (FormatKind::DoubleRoundRobin, None, None) => Ok(Format::DoubleRoundRobin),
        }
    }
}

/// Create a tournament (I organise it; I join it like anyone else)
#[utoipa::path(
    post, path = "/tournaments", tag = "tournaments", security(("bearer" = [])),
    request_body = NewTournamentBody,
    responses(
        (status = 201, description = "The tournament, in sign-up", body = TournamentView),
        (status = 422, description = "A name empty or too long, a format without its rounds or group size, both a variant and rules, unknown or unplayable rules, a clock out of range, a vacation cap out of range, rated custom rules, player counts out of range, a start in the past, an unknown withdrawal rule, or one that annuls for a Swiss tournament", body = ErrorBody),
    )
)]
pub async fn create_tournament(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiJson(body): ApiJson<NewTournamentBody>,
) -> ApiResult<Response> {
    let format = body.format()?;
    let rules = rules_choice(body.variant, body.rules)?;
    let created = state
        .service
        .tournaments()
        .create(
            me,
            NewTournament {
                name: body.name,
                format,
                rules,
                clock: body.clock,
                rated: body.rated,
                min_players: body.min_players,
                max_players: body.max_players,
                starts_at: body.starts_at,
                vacation: body.vacation,
                round_days: body.round_days,
                withdrawal: body.withdrawal,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The newest tournaments
#[utoipa::path(
    get, path = "/tournaments", tag = "tournaments", security((), ("bearer" = [])),
    responses((status = 200, description = "The newest tournaments first", body = Vec<TournamentSummary>))
)]
pub async fn list_tournaments(State(state): State<AppState>) -> ApiResult<Response> {
    Ok(Json(state.service.tournaments().list().await?).into_response())
}

/// A tournament: players, rounds with their games, standings
#[utoipa::path(
    get, path = "/tournaments/{id}", tag = "tournaments", security((), ("bearer" = [])),
    params(("id" = TournamentId, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 404, description = "No such tournament", body = ErrorBody),
    )
)]
pub async fn get_tournament(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<TournamentId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.tournaments().get(id).await?).into_response())
}

/// Join a tournament in sign-up
#[utoipa::path(
    post, path = "/tournaments/{id}/join", tag = "tournaments", security(("bearer" = [])),
    params(("id" = TournamentId, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament with me in it", body = TournamentView),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Already joined, full, or past sign-up", body = ErrorBody),
    )
)]
pub async fn join_tournament(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TournamentId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.tournaments().join(me, id).await?).into_response())
}

/// Leave a tournament: before the start I am taken off; once it runs I withdraw (my game in
/// progress is resigned, my later pairings are forfeited, and the tournament's withdrawal rule
/// says whether all my games are annulled)
#[utoipa::path(
    post, path = "/tournaments/{id}/leave", tag = "tournaments", security(("bearer" = [])),
    params(("id" = TournamentId, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament without me", body = TournamentView),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Not playing in it, or it is over", body = ErrorBody),
    )
)]
pub async fn leave_tournament(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TournamentId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.tournaments().leave(me, id).await?).into_response())
}

/// Start a tournament I organise: round 1's games begin at once
#[utoipa::path(
    post, path = "/tournaments/{id}/start", tag = "tournaments", security(("bearer" = [])),
    params(("id" = TournamentId, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament, running", body = TournamentView),
        (status = 403, description = "Not its organiser", body = ErrorBody),
        (status = 404, description = "No such tournament", body = ErrorBody),
        (status = 409, description = "Too few players for its format, or past sign-up", body = ErrorBody),
    )
)]
pub async fn start_tournament(
    State(state): State<AppState>,
    Authed(me): Authed,
    ApiPath(id): ApiPath<TournamentId>,
) -> ApiResult<Response> {
    Ok(Json(state.service.tournaments().start(me, id).await?).into_response())
}
