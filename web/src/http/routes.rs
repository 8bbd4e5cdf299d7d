//! The one list of routes. Each handler's `#[utoipa::path]` names its method, path and
//! operation (parameters, body, answers); `routes!` registers the handler in the router and
//! the operation in the OpenAPI document at once, so the two cannot drift.

use axum::routing::MethodRouter;
use utoipa::openapi::path::Paths;
use utoipa_axum::router::UtoipaMethodRouter;
use utoipa_axum::routes;

use super::AppState;
use super::board::{__path_board_png, board_png};
use super::handlers::*;
use super::stream::{__path_events_stream, __path_game_stream, events_stream, game_stream};

pub const API_PREFIX: &str = "/api/v1";

/// A served route, as the document names it.
#[derive(Debug, Clone)]
pub struct RouteSpec {
    /// Upper case: `GET`, `POST`, `DELETE`.
    pub method: String,
    /// Path under `/api/v1`, with `{param}` placeholders.
    pub path: String,
}

/// Every route of the API, in the order the document lists them.
pub fn routes() -> Vec<UtoipaMethodRouter<AppState>> {
    vec![
        routes!(health),
        routes!(ready),
        routes!(openapi_json),
        routes!(register_player),
        routes!(me),
        routes!(update_me),
        routes!(get_vacation, take_vacation, end_vacation),
        routes!(list_players),
        routes!(get_player),
        routes!(player_games),
        routes!(player_games_otg),
        routes!(rating_history),
        routes!(leaderboard),
        routes!(list_tokens),
        routes!(create_token),
        routes!(revoke_token),
        routes!(create_login_link),
        routes!(list_web_sessions, end_web_sessions),
        routes!(end_web_session),
        routes!(list_variants),
        routes!(create_challenge),
        routes!(list_challenges),
        routes!(accept_challenge),
        routes!(decline_challenge),
        routes!(cancel_challenge),
        routes!(list_games),
        routes!(get_game),
        routes!(legal_moves),
        routes!(play_move),
        routes!(
            get_conditional_moves,
            queue_conditional_moves,
            drop_conditional_moves
        ),
        routes!(resign),
        routes!(abort),
        routes!(offer_draw),
        routes!(accept_draw),
        routes!(decline_draw),
        routes!(board_png),
        routes!(export_game),
        routes!(import_game),
        routes!(list_annotations, add_annotation),
        routes!(remove_annotation),
        routes!(request_analysis, get_analysis),
        routes!(analysis_board),
        routes!(next_puzzle),
        routes!(puzzle_rating),
        routes!(get_puzzle),
        routes!(attempt_puzzle),
        routes!(export_puzzle),
        routes!(explorer),
        routes!(explorer_balance),
        routes!(game_stream),
        routes!(events_stream),
        routes!(create_tournament, list_tournaments),
        routes!(get_tournament),
        routes!(join_tournament),
        routes!(leave_tournament),
        routes!(start_tournament),
        routes!(create_match, list_matches),
        routes!(get_match),
        routes!(join_match),
        routes!(leave_match),
        routes!(start_match),
        routes!(cancel_match),
        routes!(add_webhook),
        routes!(list_webhooks),
        routes!(remove_webhook),
    ]
}

/// The routes as (method and path, handler): what the router serves.
pub fn table() -> Vec<(RouteSpec, MethodRouter<AppState>)> {
    routes()
        .into_iter()
        .flat_map(|(_, paths, handler)| {
            specs(&paths)
                .into_iter()
                .map(move |spec| (spec, handler.clone()))
        })
        .collect()
}

/// Whether the operations of `paths` are all reads anyone may make: GETs that need no token
/// (none asked, or an anonymous alternative among those asked). These answer any origin.
pub fn public_read(paths: &Paths) -> bool {
    let paths = serde_json::to_value(paths).unwrap_or_default();
    let mut ops = paths
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(_, item)| super::openapi::operations(item).collect::<Vec<_>>())
        .peekable();
    ops.peek().is_some()
        && ops.all(|(method, op)| {
            method == "get"
                && op
                    .get("security")
                    .and_then(serde_json::Value::as_array)
                    .is_none_or(|requirements| {
                        requirements
                            .iter()
                            .any(|r| r.as_object().is_some_and(serde_json::Map::is_empty))
                    })
        })
}

fn specs(paths: &Paths) -> Vec<RouteSpec> {
    let paths = serde_json::to_value(paths).unwrap_or_default();
    paths
        .as_object()
        .into_iter()
        .flatten()
        .flat_map(|(path, item)| {
            super::openapi::operations(item).map(|(method, _)| RouteSpec {
                method: method.to_ascii_uppercase(),
                path: path.clone(),
            })
        })
        .collect()
}
