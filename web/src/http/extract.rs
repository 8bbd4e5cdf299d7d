//! Extractors whose rejections use the API's JSON error shape, each one sentence in the API's
//! terms: which field, parameter or id was wrong, what it must be, what was sent.

use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{FromRequest, FromRequestParts, MatchedPath, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::complaints::{Source, describe, quote};
use super::error::ApiError;
use super::{API_PREFIX, AppState};
use crate::text_input::{NUL_CODE, has_encoded_nul, nul_in_json, nul_in_pairs, nul_refusal};

/// A JSON body: an object whose fields deserialize into `T`.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        if !is_json(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "missing_content_type",
                "send the body as JSON with Content-Type: application/json",
            ));
        }
        let bytes = body_bytes(req, state).await?;
        decode_body(&bytes).map(ApiJson)
    }
}

/// The whole body, refused in words when it is over `http.body_limit_bytes` or cut short.
pub(super) async fn body_bytes(req: Request, state: &AppState) -> Result<Bytes, ApiError> {
    let limit = state.config.body_limit_bytes;
    Bytes::from_request(req, state).await.map_err(|r| {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                format!("the body is larger than the limit of {limit} bytes"),
            )
        } else {
            ApiError::bad_request(format!("the body could not be read: {}", r.body_text()))
        }
    })
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(essence) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
    else {
        return false;
    };
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

fn decode_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let invalid =
        |message: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_body", message);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "the body is empty: send a JSON object",
        ));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            format!("the body is not valid JSON: {e}"),
        )
    })?;
    if !value.is_object() {
        return Err(invalid(format!(
            "the body must be a JSON object, not {}",
            quote(&value)
        )));
    }
    if let Some(field) = nul_in_json(&value) {
        return Err(nul_refused(&field));
    }
    serde_path_to_error::deserialize(&value).map_err(|e| {
        let path = e.path().to_string();
        let sent = sent_at(&value, &path).map(quote);
        invalid(describe(
            Source::Body,
            &path,
            &e.inner().to_string(),
            sent.as_deref(),
        ))
    })
}

/// The refusal of a text holding a NUL, naming where it was.
fn nul_refused(field: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, NUL_CODE, nul_refusal(field))
}

/// The value at serde's dotted `path` ("clock.kind", "moves[2]"), if it is there.
fn sent_at<'v>(value: &'v Value, path: &str) -> Option<&'v Value> {
    path.trim_start_matches('.')
        .split('.')
        .filter(|s| !s.is_empty())
        .try_fold(value, |v, segment| match segment.split_once('[') {
            None => v.get(segment),
            Some((name, index)) => {
                let v = if name.is_empty() { v } else { v.get(name)? };
                v.get(index.trim_end_matches(']').parse::<usize>().ok()?)
            }
        })
}

/// Path parameters. Every one the API has is an id: a whole number from 1 up.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if has_encoded_nul(parts.uri.path().as_bytes()) {
            let name = nul_path_parameter(parts).unwrap_or_else(|| "the path".to_owned());
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_path",
                nul_refusal(&name),
            ));
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(p) => Ok(ApiPath(p.0)),
            Err(rejection) => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_path",
                bad_id_message(parts).unwrap_or_else(|| rejection.body_text()),
            )),
        }
    }
}

/// The route's pattern and the path sent, segment by segment from their ends (a nested router
/// sees the path without its prefix).
fn segments_from_the_end(parts: &Parts) -> Option<(Vec<&str>, Vec<&str>)> {
    let pattern = parts.extensions.get::<MatchedPath>()?.as_str().rsplit('/');
    Some((pattern.collect(), parts.uri.path().rsplit('/').collect()))
}

/// "\"abc\" is not a game id: ids are whole numbers from 1 up", naming the resource by the
/// path segment before the id. The route's pattern and the path are matched from their ends:
/// a nested router sees the path without its prefix.
fn bad_id_message(parts: &Parts) -> Option<String> {
    let (pattern, sent) = segments_from_the_end(parts)?;
    pattern.iter().enumerate().find_map(|(i, segment)| {
        let value = sent.get(i)?;
        let resource = pattern.get(i + 1)?;
        let resource = resource.strip_suffix('s').unwrap_or(resource);
        (segment.starts_with('{') && value.parse::<i64>().is_err())
            .then(|| format!("{value:?} is not a {resource} id: ids are whole numbers from 1 up"))
    })
}

/// The name of the path parameter (`handle`) whose segment holds an encoded NUL.
fn nul_path_parameter(parts: &Parts) -> Option<String> {
    let (pattern, sent) = segments_from_the_end(parts)?;
    pattern.iter().zip(&sent).find_map(|(segment, value)| {
        let name = segment.strip_prefix('{')?.strip_suffix('}')?;
        has_encoded_nul(value.as_bytes()).then(|| name.to_owned())
    })
}

/// Query parameters. Unknown names are refused before this runs, by
/// [`refuse_unknown_query`]; what is left is a value of the wrong kind.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        if let Some(name) = nul_in_pairs(query.as_bytes()) {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_query",
                nul_refusal(&name),
            ));
        }
        let pairs = form_urlencoded::parse(query.as_bytes());
        serde_path_to_error::deserialize(serde_urlencoded::Deserializer::new(pairs))
            .map(ApiQuery)
            .map_err(|e| {
                let name = e.path().to_string();
                let sent = form_urlencoded::parse(query.as_bytes())
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| quote(&Value::String(v.into_owned())));
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "bad_query",
                    describe(
                        Source::Query,
                        &name,
                        &e.inner().to_string(),
                        sent.as_deref(),
                    ),
                )
            })
    }
}

/// The query parameters each route takes, by method and path (under the prefix), as the
/// OpenAPI document lists them.
pub struct QueryNames(HashMap<(String, String), Vec<String>>);

impl QueryNames {
    pub fn of(document: &Value) -> QueryNames {
        let paths = document.get("paths").and_then(Value::as_object);
        let names = paths
            .into_iter()
            .flatten()
            .flat_map(|(path, item)| {
                let route = path.strip_prefix(API_PREFIX).unwrap_or(path).to_owned();
                super::openapi::operations(item).map(move |(method, _)| {
                    let names = super::openapi::query_parameter_names(document, method, &route);
                    ((method.to_ascii_uppercase(), route.clone()), names)
                })
            })
            .collect();
        QueryNames(names)
    }

    fn of_route(&self, method: &str, route: &str) -> &[String] {
        self.0
            .get(&(method.to_owned(), route.to_owned()))
            .map_or(&[], Vec::as_slice)
    }
}

/// Middleware on every API route: a query parameter the route does not document (in the
/// OpenAPI document, built from the same route list) is refused with 400 naming it and the
/// ones the route takes, so a typo like `?plies=3` is not silently ignored.
pub async fn refuse_unknown_query(
    State(names): State<Arc<QueryNames>>,
    matched: MatchedPath,
    req: Request,
    next: Next,
) -> Response {
    let route = matched.as_str();
    let route = route.strip_prefix(API_PREFIX).unwrap_or(route);
    // HEAD is served by the GET route.
    let method = if req.method() == axum::http::Method::HEAD {
        "GET"
    } else {
        req.method().as_str()
    };
    let allowed = names.of_route(method, route);
    let mut unknown: Vec<String> = Vec::new();
    for (name, _) in form_urlencoded::parse(req.uri().query().unwrap_or_default().as_bytes()) {
        if !allowed.iter().any(|a| *a == name) && !unknown.iter().any(|u| *u == name) {
            unknown.push(name.into_owned());
        }
    }
    if unknown.is_empty() {
        return next.run(req).await;
    }
    let names = unknown
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let noun = if unknown.len() == 1 {
        "parameter"
    } else {
        "parameters"
    };
    let takes = if allowed.is_empty() {
        "this endpoint takes no query parameters".to_owned()
    } else {
        format!("this endpoint takes {}", allowed.join(", "))
    };
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "bad_query",
        format!("unknown query {noun} {names}: {takes}"),
    )
    .into_response()
}
