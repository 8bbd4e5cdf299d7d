//! The analysis board over HTTP: a position's legal moves and the result of a move, for any
//! start (a preset, a rules string, a pasted position, a game's moves), with variations.
//! The web client's `/analysis` page is the same board.

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::domain::GameId;
use crate::http::auth::Viewer;
use crate::http::error::ErrorBody;
use crate::http::extract::ApiQuery;
use crate::service::analysis::board::{AnalysisBoardView, BoardAsk, BoardFrom, StartAsked};

use super::ApiResult;

/// Where the board starts, its moves, the move shown, and a move to play there.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalysisBoardQuery {
    /// A preset's id (`brandubh`).
    variant: Option<String>,
    /// An OpenTafl rules string, when no preset is named (at most 1,000 characters).
    rules: Option<String>,
    /// An OpenTafl position (first row is rank 1); the rules' start when absent.
    position: Option<String>,
    /// Who moves first in `position` (`attackers` or `defenders`); the rules' first mover
    /// when absent.
    to_move: Option<String>,
    /// Or a game's moves (a finished game, or your own against the AI), at `ply`.
    game: Option<GameId>,
    /// The game's move to show (default: its last).
    ply: Option<u32>,
    /// The moves, with variations in parentheses: `d1-c1 d3-e3 (d3-f3) a4-a2` (at most 300).
    moves: Option<String>,
    /// The move shown: its number in `moves` (0: the start; default: the main line's end).
    at: Option<usize>,
    /// A move to play from the one shown: it follows the move there if `moves` has it, else it
    /// starts a variation (or extends the line).
    play: Option<String>,
}

/// An analysis board: the legal moves of a position, and the board after a move
///
/// Nothing is stored: the board is its query. The referee checks every move of `moves`; the
/// answer's `moves` and `at` (and `link`, the web client's address) name the board after
/// `play`. A finished game's board anyone who sees the game may open; a game still going
/// only its player against the AI.
#[utoipa::path(
    get, path = "/analysis-board", tag = "games", security((), ("bearer" = [])),
    params(AnalysisBoardQuery),
    responses(
        (status = 200, description = "The board", body = AnalysisBoardView),
        (status = 403, description = "A game still being played", body = ErrorBody),
        (status = 404, description = "No such game, or a private game and not one of its players", body = ErrorBody),
        (status = 422, description = "A start, a move of `moves` or `play` that cannot be read or played, with the reason", body = ErrorBody),
    )
)]
pub async fn analysis_board(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiQuery(q): ApiQuery<AnalysisBoardQuery>,
) -> ApiResult<Response> {
    let from = match q.game {
        Some(id) => BoardFrom::Game { id, ply: q.ply },
        None => BoardFrom::Start(StartAsked {
            variant: q.variant,
            rules: q.rules,
            position: q.position,
            to_move: q.to_move,
        }),
    };
    let ask = BoardAsk {
        from,
        moves: q.moves.unwrap_or_default(),
        at: q.at,
        play: q.play,
    };
    let board = state.service.analysis().board(viewer, ask).await?;
    Ok(Json(board.view()).into_response())
}
