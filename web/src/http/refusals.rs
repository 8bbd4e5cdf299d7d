//! What a route may answer besides its own answers: the refusals of the extractors and
//! middleware its requests pass through, added to its operation by what the operation
//! declares (a token, an id in the path, query parameters, a JSON body). Each extractor's
//! refusals are listed here once, so no handler repeats them and none is left out.

use serde_json::{Map, Value, json};

/// One refusal, as the document lists it.
struct Refusal {
    status: &'static str,
    why: &'static str,
    /// Whether the answer always carries `Retry-After`.
    retry_after: bool,
}

const fn refusal(status: &'static str, why: &'static str) -> Refusal {
    Refusal {
        status,
        why,
        retry_after: false,
    }
}

/// `extract::refuse_unknown_query`, on every route.
const UNKNOWN_QUERY: Refusal = refusal(
    "400",
    "A query parameter this route does not list (`bad_query`)",
);

/// `ApiError` for a failure of the server's own, on every route: the cause stays in the log.
const INTERNAL: Refusal = refusal(
    "500",
    "A failure of the server's own (`internal`): the message says only \"internal error\"; \
     `request_id` names the failure's line in the server's log",
);

/// `server::deadlines`, on every route: the answer was not ready within
/// `http.request_timeout_ms`. It carries `Retry-After`, but the document does not require it
/// here: the readiness check's own 503 (time-boxed below the deadline) has none.
const DEADLINE: Refusal = refusal(
    "503",
    "Not answered within `http.request_timeout_ms`, the database being slow or stuck \
     (`unavailable`, with `Retry-After`)",
);

/// `server::deadlines`, for a route that takes a body.
const BODY_DEADLINE: Refusal = refusal(
    "408",
    "The body did not arrive whole within `http.body_timeout_ms` (`request_timeout`); the \
     connection is closed",
);

/// `auth::Authed`: the token, its rate limit, and the store it is looked up in.
const AUTHED: [Refusal; 3] = [
    refusal(
        "401",
        "No token (`missing_token`), an Authorization header that is not `Bearer <token>` \
         (`bad_authorization`), or a token that is not valid (`invalid_token`)",
    ),
    Refusal {
        status: "429",
        why: "Too many requests with this token (`rate_limited`)",
        retry_after: true,
    },
    Refusal {
        status: "503",
        why: "The store is out of reach for now (`unavailable`)",
        retry_after: true,
    },
];

/// `auth::Viewer`, where a token is optional: a token sent is checked as `Authed` checks it;
/// without one, requests are limited per client address.
const VIEWER: [Refusal; 3] = [
    refusal(
        "401",
        "An Authorization header that is not `Bearer <token>` (`bad_authorization`), or a token \
         that is not valid (`invalid_token`): send none to read anonymously",
    ),
    Refusal {
        status: "429",
        why: "Too many requests with this token, or without a token from this address \
              (`rate_limited`)",
        retry_after: true,
    },
    Refusal {
        status: "503",
        why: "The store is out of reach for now (`unavailable`)",
        retry_after: true,
    },
];

/// `extract::ApiPath`, for an id.
const ID_IN_PATH: [Refusal; 2] = [
    refusal(
        "400",
        "An id that is not a whole number, or a path holding the NUL character (`bad_path`)",
    ),
    refusal("404", "Nothing with this id (`not_found`)"),
];

/// `extract::ApiPath`, for a name (a handle, a variant): any text but the NUL character.
const NAME_IN_PATH: [Refusal; 2] = [
    refusal("400", "A name holding the NUL character (`bad_path`)"),
    refusal("404", "Nothing by this name (`not_found`)"),
];

/// `extract::ApiQuery`.
const QUERY: Refusal = refusal(
    "400",
    "A query parameter of the wrong kind, or holding the NUL character (`bad_query`)",
);

/// `extract::ApiJson`.
const JSON_BODY: [Refusal; 4] = [
    refusal(
        "400",
        "A body that is not JSON (`malformed_json`), or a text in it holding the NUL \
         character (`nul_character`, naming the field)",
    ),
    refusal(
        "415",
        "No `Content-Type: application/json` (`missing_content_type`)",
    ),
    refusal(
        "413",
        "A body over `http.body_limit_bytes` (`body_too_large`)",
    ),
    refusal(
        "422",
        "A body whose fields are not as the schema says (`invalid_body`)",
    ),
];

/// Adds to `operation` (of the route at `path`) the refusals its extractors and middleware
/// may answer with; a status it lists already gets the further reasons in its description.
pub fn add(path: &str, operation: &mut Value) {
    let requirements = operation
        .get("security")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    // An empty requirement among them: anyone may call it, a token is optional.
    let token_optional = requirements
        .iter()
        .any(|r| r.as_object().is_some_and(Map::is_empty));
    let declares_token = !requirements.is_empty() && !token_optional;
    let path_names: Vec<String> = operation
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p["in"] == "path")
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect();
    let parameter_in = |place: &str| {
        operation
            .get("parameters")
            .and_then(Value::as_array)
            .is_some_and(|ps| ps.iter().any(|p| p["in"] == place))
    };
    let (in_path, in_query) = (
        parameter_in("path") || path.contains('{'),
        parameter_in("query"),
    );
    let has_body = operation.get("requestBody").is_some();
    let mut refusals: Vec<&Refusal> = vec![&UNKNOWN_QUERY, &INTERNAL, &DEADLINE];
    if declares_token {
        refusals.extend(&AUTHED);
    } else if token_optional {
        refusals.extend(&VIEWER);
    }
    // A path's parameters are ids unless the operation names them otherwise.
    let ids_in_path = path_names.is_empty() || path_names.iter().any(|n| n == "id");
    if in_path && ids_in_path {
        refusals.extend(&ID_IN_PATH);
    } else if in_path {
        refusals.extend(&NAME_IN_PATH);
    }
    if in_query {
        refusals.push(&QUERY);
    }
    if has_body {
        refusals.extend(&JSON_BODY);
        refusals.push(&BODY_DEADLINE);
    }
    let Some(responses) = operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for refusal in refusals {
        merge(responses, refusal);
    }
}

fn merge(responses: &mut Map<String, Value>, refusal: &Refusal) {
    let retry_after = json!({ "$ref": "#/components/headers/RetryAfter" });
    match responses.get_mut(refusal.status) {
        None => {
            let mut response = json!({
                "description": refusal.why,
                "content": { "application/json": {
                    "schema": { "$ref": "#/components/schemas/ErrorBody" } } }
            });
            if refusal.retry_after {
                response["headers"] = json!({ "Retry-After": retry_after });
            }
            responses.insert(refusal.status.to_owned(), response);
        }
        Some(response) => {
            let described = response["description"].as_str().unwrap_or_default();
            if !described.contains(refusal.why) {
                response["description"] = json!(format!("{described}. Or: {}", refusal.why));
            }
            if refusal.retry_after
                && let Some(response) = response.as_object_mut()
            {
                let headers = response
                    .entry("headers")
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Some(headers) = headers.as_object_mut() {
                    headers.entry("Retry-After").or_insert(retry_after);
                }
            }
        }
    }
}
