//! The OpenAPI 3.1 document, generated from the route table so it cannot drift.

use serde_json::{Map, Value, json};

use super::routes::{API_PREFIX, table};

fn body_schemas() -> Value {
    json!({
        "NewPlayer": {
            "type": "object", "required": ["name"],
            "additionalProperties": false,
            "properties": {
                "name": { "type": "string", "minLength": 1, "maxLength": 64, "description": "display name, any printable characters" },
                "handle": { "$ref": "#/components/schemas/Handle" }
            }
        },
        "UpdateMe": {
            "type": "object", "required": ["handle"],
            "additionalProperties": false,
            "properties": { "handle": { "$ref": "#/components/schemas/Handle" } }
        },
        "Handle": {
            "type": "string", "minLength": 2, "maxLength": 24, "pattern": "^@?[A-Za-z][A-Za-z0-9_-]{1,23}$",
            "description": "unique, case-insensitive (stored lowercased): 2 to 24 of a-z, 0-9, _ and -, starting with a letter; reserved words (admin, taflbot, ai, me, anonymous, everyone, here, system, ...) are refused. Taken: 409. Made from the name when absent at registration (ada, ada2, ...)"
        },
        "NewToken": {
            "type": "object", "required": ["name"],
            "additionalProperties": false,
            "properties": { "name": { "type": "string", "minLength": 1, "maxLength": 64, "description": "your label for it (printable characters)" } }
        },
        "Token": {
            "type": "object", "required": ["id", "name", "created_at", "last_used_at"],
            "properties": {
                "id": { "type": "integer", "format": "int64" },
                "name": { "type": "string" },
                "created_at": { "type": "integer", "format": "int64", "description": "ms since the epoch" },
                "last_used_at": { "type": ["integer", "null"], "format": "int64", "description": "ms since the epoch, to within a minute; null: not used yet" },
                "token": { "type": "string", "description": "only in the answer to POST /tokens" }
            }
        },
        "NewChallenge": {
            "type": "object",
            "description": "Give opponent (a handle) or opponent_id, or ai_level, or none of them for an open challenge. Give variant or rules (default copenhagen).",
            "additionalProperties": false,
            "allOf": [
                { "not": { "required": ["opponent_id", "ai_level"] } },
                { "not": { "required": ["opponent", "ai_level"] } },
                { "not": { "required": ["opponent", "opponent_id"] } },
                { "not": { "required": ["variant", "rules"] } }
            ],
            "properties": {
                "opponent_id": { "type": "integer", "format": "int64" },
                "opponent": { "type": "string", "description": "the opponent's handle" },
                "ai_level": { "type": "integer", "minimum": 1, "maximum": 5 },
                "variant": { "type": "string", "description": "a preset id from /variants" },
                "rules": { "type": "string", "description": "an OpenTafl rules string" },
                "side": { "type": "string", "enum": ["attackers", "defenders", "random"], "default": "random" },
                "clock": { "$ref": "#/components/schemas/Clock" },
                "private": { "type": "boolean", "default": false, "description": "show the game only to its players; a public game (the default) can be read by anyone without a token: its view, board, record and event stream" },
                "rated": { "type": "boolean", "description": "rated or casual; default: rated between two people on a preset variant with a clock. true is refused (422) for custom rules and for the AI" },
                "context": { "type": "string", "maxLength": 200, "description": "your own label for the game, shown back as it is; a label naming a Discord place (starting with \"discord:\") is refused with 422: only /challenge or /play used in a Discord channel binds a game to it" }
            }
        },
        "Clock": {
            "oneOf": [
                { "type": "object", "required": ["kind"], "properties": { "kind": { "const": "unlimited" } } },
                { "type": "object", "required": ["kind", "seconds"], "properties": { "kind": { "const": "per_move" }, "seconds": { "type": "integer", "minimum": 1, "maximum": 31_622_400 } } },
                { "type": "object", "required": ["kind", "bank_seconds", "increment_seconds"], "properties": { "kind": { "const": "bank" }, "bank_seconds": { "type": "integer", "minimum": 1, "maximum": 31_622_400 }, "increment_seconds": { "type": "integer", "minimum": 0, "maximum": 31_622_400 } } }
            ]
        },
        "NewMove": {
            "type": "object", "required": ["move", "ply"], "additionalProperties": false,
            "properties": {
                "move": { "type": "string", "example": "e5-e8" },
                "ply": { "type": "integer", "minimum": 0, "maximum": 4_294_967_295u32, "description": "the game's current ply (moves played so far)" }
            }
        },
        "NewWebhook": {
            "type": "object", "required": ["url", "secret"], "additionalProperties": false,
            "properties": { "url": { "type": "string", "format": "uri" }, "secret": { "type": "string", "minLength": 8 } }
        },
        "Error": {
            "type": "object", "required": ["error"],
            "properties": { "error": { "type": "object", "required": ["code", "message"],
                "properties": { "code": { "type": "string" }, "message": { "type": "string" } } } }
        }
    })
}

/// Query parameters of the routes that take some.
fn query_parameters(path: &str) -> Vec<Value> {
    let param = |name: &str, schema: Value, description: &str| json!({ "name": name, "in": "query", "required": false, "schema": schema, "description": description });
    match path {
        "/games/{id}/legal-moves" => vec![
            param(
                "from",
                json!({ "type": "string", "pattern": "^[a-sA-S][1-9][0-9]?$", "example": "e5" }),
                "only the moves from this square",
            ),
            param(
                "side",
                json!({ "type": "string", "enum": ["attackers", "defenders"] }),
                "whose moves (default: the side to move); the answer names the side and whether it is to move",
            ),
        ],
        "/games/{id}/board.png" => vec![
            param(
                "ply",
                json!({ "type": "integer", "minimum": 0, "maximum": 4_294_967_295u32 }),
                "the position after this many moves (default: now)",
            ),
            param(
                "flip",
                json!({ "type": "boolean" }),
                "turn the board around",
            ),
            param(
                "theme",
                json!({ "type": "string", "enum": ["light", "dark"] }),
                "colours",
            ),
        ],
        "/players" => vec![
            param(
                "prefix",
                json!({ "type": "string", "maxLength": 24 }),
                "only handles starting with this (any case)",
            ),
            page_param(),
        ],
        "/leaderboards/{variant}" | "/players/{handle}/ratings/{variant}" => vec![page_param()],
        "/players/{handle}/games" => vec![
            param(
                "status",
                json!({ "type": "string", "enum": ["active", "finished", "aborted"] }),
                "only games in this state (finished: ended with a result; aborted: ended without one)",
            ),
            param(
                "variant",
                json!({ "type": "string" }),
                "only games of this preset (an id from /variants)",
            ),
            page_param(),
        ],
        "/games/{id}/stream" => vec![param(
            "since",
            json!({ "type": "integer", "format": "int64", "minimum": 0 }),
            "send the game's stored events after this id first",
        )],
        "/stream/events" => vec![param(
            "since",
            json!({ "type": "integer", "format": "int64", "minimum": 0 }),
            "send the stored events after this id first",
        )],
        _ => Vec::new(),
    }
}

/// `page`: lists are paged, 50 a page, counted from 1.
fn page_param() -> Value {
    json!({ "name": "page", "in": "query", "required": false,
        "schema": { "type": "integer", "minimum": 1, "maximum": 4_294_967_295u32 },
        "description": "which page (from 1; default 1); the answer's next_page is absent on the last" })
}

/// The schema of a path parameter: ids are whole numbers, the others words.
fn path_parameter_schema(name: &str) -> Value {
    match name {
        "handle" => json!({ "$ref": "#/components/schemas/Handle" }),
        "variant" => json!({ "type": "string", "description": "a preset id from /variants" }),
        _ => json!({ "type": "integer", "format": "int64", "minimum": 1 }),
    }
}

/// Names of the query parameters a route takes, as documented: anything else is refused.
pub(super) fn query_parameter_names(path: &str) -> Vec<String> {
    query_parameters(path)
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect()
}

/// What an operation's answer holds beyond its summary, where a client could misread it.
fn operation_description(method: &str, path: &str) -> Option<&'static str> {
    match (method, path) {
        ("POST", "/challenges") => Some(
            "Rules whose start cannot be played are refused with 422 naming why: no king, no attackers, the king already on a winning square or captured, encircled, in an edge fort, or no legal move for the side to move first.",
        ),
        ("GET", "/games/{id}") | ("GET", "/games/{id}/stream") | ("GET", "/games/{id}/export") => {
            Some(
                "A public game (the default) can be read by anyone without a token; a private one (`private: true` on its challenge) answers 404 to anyone but its players, who send their token. Anonymous readers are limited per client address (http.anonymous_per_second).",
            )
        }
        ("POST", "/tokens") => Some(
            "Answers the new token's `Token` fields and `token`, the secret itself, which is never shown again. At most 20 tokens per player (422 beyond).",
        ),
        ("DELETE", "/tokens/{id}") => Some(
            "The token is refused (401 `invalid_token`) from its next request on, including when it is the token making this request.",
        ),
        ("POST", "/games/{id}/moves") => Some(
            "The answer names the move's `captures` (squares of the soldiers taken off the board) and `king_captured`: the king's square when this move captured him, else null. The king is never in `captures`: he stays on his square, and under rescue rules the defenders may yet free him; `result` says whether the game is over. The move_played event carries both fields too.",
        ),
        ("GET", "/games/{id}/board.png") => Some(
            "The last ply of a finished game is drawn with its result (a winner badge, the captured king crossed out), however the game ended; its ETag then ends in `-over`. Images that can no longer change (earlier plies, finished games) are served immutable when `ply` is given.",
        ),
        _ => None,
    }
}

/// Schema of a successful answer, for the routes that document one.
fn success_schema(method: &str, path: &str) -> Option<Value> {
    let token = json!({ "$ref": "#/components/schemas/Token" });
    match (method, path) {
        ("GET", "/tokens") => Some(json!({ "type": "array", "items": token })),
        ("POST", "/tokens") => Some(token),
        _ => None,
    }
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
    })
}

pub fn openapi_document() -> Value {
    let mut paths: Map<String, Value> = Map::new();
    for (spec, _) in table() {
        let mut responses = Map::new();
        responses.insert(
            spec.success.to_string(),
            if spec.success == 204 {
                json!({ "description": "done" })
            } else {
                let media = success_schema(spec.method, spec.path)
                    .map_or_else(|| json!({}), |schema| json!({ "schema": schema }));
                json!({ "description": "success", "content": { spec.produces: media } })
            },
        );
        responses.insert("400".into(), error_response("malformed request"));
        responses.insert("422".into(), error_response("invalid request"));
        if spec.token_optional {
            responses.insert(
                "401".into(),
                error_response("invalid token (send none to read anonymously)"),
            );
        }
        if spec.auth {
            responses.insert("401".into(), error_response("missing or invalid token"));
            responses.insert(
                "403".into(),
                error_response("not allowed (not your game, not your turn)"),
            );
        }
        if spec.auth || spec.token_optional || spec.path == "/players" {
            responses.insert(
                "429".into(),
                error_response("rate limited; see Retry-After"),
            );
        }
        if spec.path.contains('{') || spec.auth {
            responses.insert(
                "404".into(),
                error_response("not found (game, challenge, player, webhook)"),
            );
        }
        if matches!(
            (spec.method, spec.path),
            ("POST", "/players") | ("PATCH", "/me")
        ) {
            responses.insert("409".into(), error_response("the handle is taken"));
        }
        if spec.path.contains("/games/") || spec.path.contains("/challenges/") {
            responses.insert(
                "409".into(),
                error_response("conflict: stale ply or game over"),
            );
        }
        let mut op = json!({
            "summary": spec.summary,
            "operationId": format!("{} {}", spec.method, spec.path),
            "responses": responses,
        });
        let params: Vec<Value> = spec
            .path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .map(|name| {
                json!({ "name": name, "in": "path", "required": true,
                "schema": path_parameter_schema(name) })
            })
            .chain(query_parameters(spec.path))
            .collect();
        if let Some(obj) = op.as_object_mut() {
            if let Some(text) = operation_description(spec.method, spec.path) {
                obj.insert("description".into(), json!(text));
            }
            if !params.is_empty() {
                obj.insert("parameters".into(), Value::Array(params));
            }
            if let Some(schema) = spec.body {
                obj.insert(
                    "requestBody".into(),
                    json!({ "required": true, "content": { "application/json": {
                        "schema": { "$ref": format!("#/components/schemas/{schema}") } } } }),
                );
            }
            if spec.auth {
                obj.insert("security".into(), json!([{ "bearer": [] }]));
            } else if spec.token_optional {
                obj.insert("security".into(), json!([{}, { "bearer": [] }]));
            }
        }
        let entry = paths
            .entry(format!("{API_PREFIX}{}", spec.path))
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(methods) = entry.as_object_mut() {
            methods.insert(spec.method.to_ascii_lowercase(), op);
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "taflbot",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Tafl by correspondence: challenges, games, moves, events and webhooks.\n\nBoard orientation: a game's `board` is a list of rows as the board is drawn, top rank first: `board[0]` is the highest rank and `board[dim-1]` rank 1, so `a1` (the lower left corner) is the first character of the last row. `position` (an OpenTafl position record) runs the other way: its first `/`-separated row is rank 1. Squares are named file letter then rank number, files from the left, ranks from the bottom. Moves and turns: `ply` counts single moves; the `.otg` export and the board image's caption count turns, one move of each side (\"Move 37, attackers\" is ply 73 when the attackers move first).\n\nErrors name the field, parameter or id that was wrong and what it must be. A query parameter the route does not list is refused with 400 `bad_query`."
        },
        "paths": paths,
        "components": {
            "schemas": body_schemas(),
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } }
        }
    })
}
