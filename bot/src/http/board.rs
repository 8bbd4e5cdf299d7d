//! `GET /games/{id}/board.png`: a board image per (game, ply, flip, theme). Moves are never
//! undone, so an image of a given ply never changes: it is cached in memory and served
//! with a strong ETag that a client can revalidate without the image being rendered again.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::store::rows::GameId;

use super::AppState;
use super::auth::Authed;
use super::error::ApiError;
use super::extract::{ApiPath, ApiQuery};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardKey {
    pub game: GameId,
    pub ply: u32,
    pub flip: bool,
    pub theme: String,
}

impl BoardKey {
    fn etag(&self) -> String {
        format!(
            "\"g{}-p{}-{}-{}\"",
            self.game,
            self.ply,
            u8::from(self.flip),
            self.theme
        )
    }
}

/// Bounded first-in-first-out cache of rendered boards.
pub struct BoardCache {
    capacity: usize,
    inner: Mutex<(HashMap<BoardKey, Bytes>, VecDeque<BoardKey>)>,
}

impl BoardCache {
    pub fn new(capacity: usize) -> BoardCache {
        BoardCache {
            capacity: capacity.max(1),
            inner: Mutex::new((HashMap::new(), VecDeque::new())),
        }
    }

    pub fn get(&self, key: &BoardKey) -> Option<Bytes> {
        self.inner.lock().ok()?.0.get(key).cloned()
    }

    pub fn put(&self, key: BoardKey, png: Bytes) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(key.clone(), png).is_none() {
            order.push_back(key);
        }
        while order.len() > self.capacity {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }
}

#[derive(Deserialize)]
pub struct BoardQuery {
    ply: Option<u32>,
    #[serde(default)]
    flip: bool,
    theme: Option<String>,
}

pub const THEMES: &[&str] = &["light", "dark"];

pub async fn board_png(
    State(state): State<AppState>,
    Authed(_me): Authed,
    ApiPath(id): ApiPath<GameId>,
    ApiQuery(q): ApiQuery<BoardQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let theme = q.theme.unwrap_or_else(|| THEMES[0].to_owned());
    if !THEMES.contains(&theme.as_str()) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            format!("theme must be one of {}", THEMES.join(", ")),
        ));
    }
    // A request naming its ply can be answered from the cache without touching the store.
    let explicit = q.ply.map(|ply| BoardKey {
        game: id,
        ply,
        flip: q.flip,
        theme: theme.clone(),
    });
    if let Some(key) = &explicit
        && let Some(png) = state.boards.get(key)
    {
        return Ok(answer(key, png, &headers, true));
    }
    let snapshot = state.service.board_snapshot(id, q.ply).await?;
    let key = BoardKey {
        game: id,
        ply: snapshot.ply,
        flip: q.flip,
        theme,
    };
    if let Some(png) = state.boards.get(&key) {
        return Ok(answer(&key, png, &headers, explicit.is_some()));
    }
    let png = Bytes::from(crate::service::render_board(&snapshot, key.flip, &key.theme).await?);
    state.boards.put(key.clone(), png.clone());
    Ok(answer(&key, png, &headers, explicit.is_some()))
}

fn answer(key: &BoardKey, png: Bytes, headers: &HeaderMap, immutable: bool) -> Response {
    let etag = key.etag();
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
