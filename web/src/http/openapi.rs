//! The OpenAPI 3.1 document. Each route's operation comes from its handler's
//! `#[utoipa::path]` and the Rust types it names (bodies, parameters, answers); to each the
//! refusals of the extractors and middleware its requests pass through are added
//! ([`super::refusals`]), and the `X-Request-Id` every answer carries.

use axum::Router;
use serde_json::{Map, Value, json};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use super::AppState;
use super::error::ErrorBody;
use super::routes::{API_PREFIX, routes};
use super::stream::StreamLine;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "taflbot",
        description = include_str!("openapi_intro.md"),
    ),
    components(schemas(ErrorBody, StreamLine)),
)]
struct ApiDoc;

/// The API's router (paths under `/api/v1`, once nested there) and its document.
pub fn api() -> (Router<AppState>, Value) {
    let (router, api) = routes()
        .into_iter()
        .map(|(schemas, paths, handler)| {
            // Anyone may read what needs no token, from any web page: no credentials are
            // allowed across origins, so a page elsewhere can never act with a visitor's token.
            let handler = if super::routes::public_read(&paths) {
                handler.layer(super::public_cors())
            } else {
                handler
            };
            (schemas, paths, handler)
        })
        .fold(OpenApiRouter::new(), OpenApiRouter::routes)
        .split_for_parts();
    let mut doc = ApiDoc::openapi();
    doc.merge(api);
    let mut doc = serde_json::to_value(doc).unwrap_or_default();
    finish(&mut doc);
    (router, doc)
}

/// The document alone, as `GET /api/v1/openapi.json` serves it.
pub fn openapi_document() -> Value {
    api().1
}

/// Prefixes the paths, adds the common refusals and headers, names the security scheme.
fn finish(doc: &mut Value) {
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        let prefixed: Map<String, Value> = std::mem::take(paths)
            .into_iter()
            .map(|(path, item)| (format!("{API_PREFIX}{path}"), item))
            .collect();
        *paths = prefixed;
        for (path, item) in paths.iter_mut() {
            for (_, operation) in operations_mut(item) {
                super::refusals::add(path, operation);
                common_headers(operation);
            }
        }
    }
    refuse_unknown_fields_in_requests(doc);
    doc["webhooks"] = webhook_delivery();
    if let Some(components) = doc.get_mut("components").and_then(Value::as_object_mut) {
        components.insert(
            "securitySchemes".into(),
            json!({ "bearer": {
                "type": "http", "scheme": "bearer",
                "description": "An API token from POST /players, POST /tokens or Discord's /token"
            } }),
        );
        components.insert(
            "headers".into(),
            json!({
                "RequestId": {
                    "required": true,
                    "description": "This request's id in the server's logs: the client's own when it sent one",
                    "schema": { "type": "string" }
                },
                "RetryAfter": {
                    "description": "Seconds to wait before trying again",
                    "schema": { "type": "integer", "minimum": 0 }
                },
                "RetryAfterAlways": {
                    "required": true,
                    "description": "Seconds to wait before trying again",
                    "schema": { "type": "integer", "minimum": 0 }
                }
            }),
        );
    }
}

/// Every request body is decoded by `ApiJson` into types that deny unknown fields, and so
/// must the document say, for every object in it. utoipa says so for structs but not for
/// the variants of an enum (a `ClockSpec`).
fn refuse_unknown_fields_in_requests(doc: &mut Value) {
    let mut names: Vec<String> = Vec::new();
    let mut pending: Vec<Value> = doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|paths| paths.values())
        .flat_map(operations)
        .filter_map(|(_, op)| op.pointer("/requestBody/content/application~1json/schema"))
        .cloned()
        .collect();
    while let Some(schema) = pending.pop() {
        for name in refs_in(&schema) {
            if !names.contains(&name) {
                if let Some(target) = doc.pointer(&format!("/components/schemas/{name}")) {
                    pending.push(target.clone());
                }
                names.push(name);
            }
        }
    }
    for name in names {
        if let Some(schema) = doc.pointer_mut(&format!("/components/schemas/{name}")) {
            close_objects(schema);
        }
    }
}

/// The component names `schema` refers to.
fn refs_in(schema: &Value) -> Vec<String> {
    match schema {
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, value)| match (key.as_str(), value) {
                ("$ref", Value::String(r)) => r
                    .strip_prefix("#/components/schemas/")
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
                _ => refs_in(value),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(refs_in).collect(),
        _ => Vec::new(),
    }
}

/// Sets `additionalProperties: false` on each object schema with properties in `schema`.
fn close_objects(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(close_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// What a registered webhook receives (OpenAPI 3.1's `webhooks`): each of the player's events,
/// signed, with the headers `notify` sends.
fn webhook_delivery() -> Value {
    use crate::notify::{EVENT_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER};
    let header = |name: &str, description: &str, schema: Value| json!({ "name": name, "in": "header", "required": true, "description": description, "schema": schema });
    json!({ "event": { "post": {
        "summary": "An event, delivered to each webhook of the players it concerns",
        "description": "POSTed to the webhook's URL and retried with exponential backoff until \
            a 2xx, so at least once: deduplicate by the event id. Check the signature before \
            trusting the body.",
        "parameters": [
            header(EVENT_ID_HEADER, "The event's id, as in the body", json!({ "type": "integer", "minimum": 1 })),
            header(TIMESTAMP_HEADER, "When this delivery was signed, in Unix seconds", json!({ "type": "integer" })),
            header(SIGNATURE_HEADER, "`sha256=<hex HMAC-SHA256(secret, \"<timestamp>.<body>\")>`", json!({ "type": "string", "pattern": "^sha256=[0-9a-f]{64}$" })),
        ],
        "requestBody": { "required": true, "content": { "application/json": {
            "schema": { "$ref": "#/components/schemas/Event" } } } },
        "responses": { "2XX": { "description": "Delivered; any other answer is retried" } }
    } } })
}

/// The HTTP methods a path item may hold operations for.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The operations of a path item, by method (lower case).
pub fn operations(item: &Value) -> impl Iterator<Item = (&'static str, &Value)> {
    METHODS
        .into_iter()
        .filter_map(move |m| item.get(m).map(|op| (m, op)))
}

fn operations_mut(item: &mut Value) -> impl Iterator<Item = (&String, &mut Value)> {
    item.as_object_mut()
        .into_iter()
        .flat_map(|map| map.iter_mut())
        .filter(|(key, _)| METHODS.contains(&key.as_str()))
}

/// `observe::set_request_id` gives every answer an `x-request-id`; every 429 carries
/// `Retry-After` (the rate limiters and the stream slots all set it), a 503 only when the
/// store is why.
fn common_headers(operation: &mut Value) {
    let Some(responses) = operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (status, response) in responses.iter_mut() {
        if let Some(response) = response.as_object_mut() {
            let headers = response
                .entry("headers")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(headers) = headers.as_object_mut() {
                headers.insert(
                    "X-Request-Id".into(),
                    json!({ "$ref": "#/components/headers/RequestId" }),
                );
                if let Some(retry_after) = headers.get_mut("Retry-After") {
                    let name = if status == "429" {
                        "RetryAfterAlways"
                    } else {
                        "RetryAfter"
                    };
                    *retry_after = json!({ "$ref": format!("#/components/headers/{name}") });
                }
            }
        }
    }
}

/// Names of the query parameters the operation `method` (any case) on `path` (under the
/// prefix) takes, as the document lists them.
pub fn query_parameter_names(doc: &Value, method: &str, path: &str) -> Vec<String> {
    doc.get("paths")
        .and_then(|p| p.get(format!("{API_PREFIX}{path}")))
        .and_then(|item| item.get(method.to_ascii_lowercase()))
        .and_then(|op| op.get("parameters"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("in").and_then(Value::as_str) == Some("query"))
        .filter_map(|p| p.get("name").and_then(Value::as_str).map(str::to_owned))
        .collect()
}
