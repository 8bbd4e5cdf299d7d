//! The stylesheet and scripts, built into the binary: nothing is fetched from elsewhere.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

pub const STYLE_URL: &str = "/assets/app.css";
pub const COMMON_URL: &str = "/assets/common.js";
pub const GAME_URL: &str = "/assets/game.js";
pub const TURNS_URL: &str = "/assets/turns.js";
pub const ICON_URL: &str = "/assets/icon.svg";
pub const ANALYSIS_URL: &str = "/assets/analysis.js";
pub const ANALYSIS_STYLE_URL: &str = "/assets/analysis.css";
pub const PUZZLE_URL: &str = "/assets/puzzle.js";

const STYLE: &str = include_str!("assets/app.css");
/// Local times, confirmations: every page.
const COMMON: &str = include_str!("assets/common.js");
/// The board: moves by click, drag or text, live updates, replay.
const GAME: &str = include_str!("assets/game.js");
/// The board by keyboard alone: imported by `game.js`.
const BOARD_KEYS: &str = include_str!("assets/board_keys.js");
/// The picked piece and its destinations on a board: imported by `game.js` and `analysis.js`.
const BOARD_HINTS: &str = include_str!("assets/board_hints.js");
/// My games waiting for my move: the tab's title and icon, notifications (signed in).
const TURNS: &str = include_str!("assets/turns.js");
/// The analysis board: free moves, variations, the engine's line, the shared link.
const ANALYSIS: &str = include_str!("assets/analysis.js");
/// The analysis board's move tree and engine panel.
const ANALYSIS_STYLE: &str = include_str!("assets/analysis.css");
/// The puzzle page: a try by clicks on the board.
const PUZZLE: &str = include_str!("assets/puzzle.js");
/// The import form: a picked file read into the record's box.
const IMPORT: &str = include_str!("assets/import.js");
/// The tab's icon; `turns.js` draws its badge on it.
const ICON: &str = include_str!("assets/icon.svg");

/// `GET /assets/{name}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "app.css" => (STYLE, "text/css; charset=utf-8"),
        "common.js" => (COMMON, "text/javascript; charset=utf-8"),
        "game.js" => (GAME, "text/javascript; charset=utf-8"),
        "board_keys.js" => (BOARD_KEYS, "text/javascript; charset=utf-8"),
        "board_hints.js" => (BOARD_HINTS, "text/javascript; charset=utf-8"),
        "turns.js" => (TURNS, "text/javascript; charset=utf-8"),
        "icon.svg" => (ICON, "image/svg+xml"),
        "analysis.js" => (ANALYSIS, "text/javascript; charset=utf-8"),
        "analysis.css" => (ANALYSIS_STYLE, "text/css; charset=utf-8"),
        "puzzle.js" => (PUZZLE, "text/javascript; charset=utf-8"),
        "import.js" => (IMPORT, "text/javascript; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            // Short: a new release's files are picked up within the hour without renamed files.
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// Bytes of the assets a game page loads, for the size budget (docs/benchmarks.md).
pub fn game_page_asset_bytes() -> usize {
    STYLE.len()
        + COMMON.len()
        + GAME.len()
        + BOARD_KEYS.len()
        + BOARD_HINTS.len()
        + TURNS.len()
        + ICON.len()
}
