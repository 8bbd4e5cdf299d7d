//! `GET /games/{id}/board.png`: a board image per (game, ply, flip, theme). Moves are never
//! undone, so an image of an earlier ply never changes; the last ply's changes once, when the
//! game ends and its result is drawn on it. Images are cached in memory and served with a
//! strong ETag (naming the result when one is drawn) that a client can revalidate without the
//! image being rendered again; only a settled image is promised to be immutable.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa::openapi::schema::{Object, ObjectBuilder, SchemaType, Type};

use crate::domain::GameId;

use super::AppState;
use super::auth::Viewer;
use super::error::{ApiError, ErrorBody};
use super::extract::{ApiPath, ApiQuery};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardKey {
    pub game: GameId,
    pub ply: u32,
    pub flip: bool,
    pub theme: String,
}

impl BoardKey {
    /// The image's tag: the key, and whether the picture shows the game's result.
    fn etag(&self, with_result: bool) -> String {
        format!(
            "\"g{}-p{}-{}-{}{}\"",
            self.game,
            self.ply,
            u8::from(self.flip),
            self.theme,
            if with_result { "-over" } else { "" }
        )
    }
}

/// A rendered board and what a client may be told of it.
#[derive(Clone)]
pub struct CachedBoard {
    pub png: Bytes,
    pub etag: String,
    /// The picture can never change (see `BoardSnapshot::settled`).
    pub settled: bool,
    /// Anyone may see it (a game's privacy never changes, so this may be cached too).
    pub public: bool,
}

/// Bounded first-in-first-out cache of rendered boards.
pub struct BoardCache {
    capacity: usize,
    inner: Mutex<(HashMap<BoardKey, CachedBoard>, VecDeque<BoardKey>)>,
}

impl BoardCache {
    pub fn new(capacity: usize) -> BoardCache {
        BoardCache {
            capacity: capacity.max(1),
            inner: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    pub fn get(&self, key: &BoardKey) -> Option<CachedBoard> {
        self.inner.lock().ok()?.0.get(key).cloned()
    }

    pub fn put(&self, key: BoardKey, board: CachedBoard) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(key.clone(), board).is_none() {
            order.push_back(key);
        }
        while order.len() > self.capacity {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// The position after this many moves (default: now).
    ply: Option<u32>,
    /// Turn the board around.
    #[serde(default)]
    flip: bool,
    /// Colours (default light).
    #[param(schema_with = theme_schema)]
    theme: Option<String>,
}

pub const THEMES: &[&str] = &["light", "dark"];

/// `theme`: one of [`THEMES`].
fn theme_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(THEMES.iter().copied()))
        .build()
}

/// The board as PNG (?ply=&flip=&theme=), immutable per ply, with ETag
///
/// The last ply of a finished game is drawn with its result (a winner badge, the captured
/// king crossed out), however the game ended; its ETag then ends in `-over`. Images that can
/// no longer change (earlier plies, finished games) are served immutable when `ply` is given.
#[utoipa::path(
    get, path = "/games/{id}/board.png", tag = "games", security((), ("bearer" = [])),
    params(
        ("id" = GameId, Path, description = "The game's id"),
        BoardQuery,
        ("If-None-Match" = Option<String>, Header, description = "An ETag this client holds: 304 when the image is still that one"),
    ),
    responses(
        (status = 200, description = "The image", body = Vec<u8>, content_type = "image/png", headers(
            ("ETag" = String, description = "The image's tag (game, ply, flip, theme, and `-over` when the result is drawn)"),
            ("Cache-Control" = String, description = "`public, max-age=31536000, immutable` for an image that can no longer change and was asked for by `ply`; else `no-cache`"),
        )),
        (status = 304, description = "Not modified: the If-None-Match tag is the image's", headers(
            ("ETag" = String, description = "The image's tag"),
            ("Cache-Control" = String, description = "As for 200"),
        )),
        (status = 404, description = "No such game, a private game and not one of its players, or `ply` is ahead of the game", body = ErrorBody),
        (status = 422, description = "Not a theme", body = ErrorBody),
    )
)]
pub async fn board_png(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<BoardQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let theme = q.theme.unwrap_or_else(|| THEMES[0].to_owned());
    if !THEMES.contains(&theme.as_str()) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            format!("theme must be {}, not {theme:?}", THEMES.join(" or ")),
        ));
    }
    // A request naming its ply can be answered from the cache without touching the store,
    // when its image can no longer change and anyone may see it.
    let explicit = q.ply.map(|ply| BoardKey {
        game: id,
        ply,
        flip: q.flip,
        theme: theme.clone(),
    });
    if let Some(key) = &explicit
        && let Some(board) = state.boards.get(key)
        && board.settled
        && board.public
    {
        return Ok(answer(board, &headers, true));
    }
    state.service.games().ensure_visible(viewer, id).await?;
    let snapshot = state.service.games().board_snapshot(id, q.ply).await?;
    let key = BoardKey {
        game: id,
        ply: snapshot.ply,
        flip: q.flip,
        theme,
    };
    let etag = key.etag(snapshot.result.is_some());
    let immutable = explicit.is_some() && snapshot.settled;
    if let Some(board) = state.boards.get(&key)
        && board.etag == etag
    {
        return Ok(answer(board, &headers, immutable));
    }
    let png = Bytes::from(crate::service::render_board(&snapshot, key.flip, &key.theme).await?);
    let board = CachedBoard {
        png,
        etag,
        settled: snapshot.settled,
        public: snapshot.public,
    };
    state.boards.put(key, board.clone());
    Ok(answer(board, &headers, immutable))
}

fn answer(board: CachedBoard, headers: &HeaderMap, immutable: bool) -> Response {
    let CachedBoard { png, etag, .. } = board;
    let cache_control = if immutable {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let etag_value = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"\""));
    if matches {
        return (
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, etag_value),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(cache_control),
                ),
            ],
        )
            .into_response();
    }
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            (header::ETAG, etag_value),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static(cache_control),
            ),
        ],
        png,
    )
        .into_response()
}
