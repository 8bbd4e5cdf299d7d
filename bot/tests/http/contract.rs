//! The API's own OpenAPI document as the judge of every answer the suite gets: `TestApp::send`
//! (and so `call`, `get`, `post`, ...) checks each one here and fails the test on a mismatch.
//! An answer must have a status the document lists for its route and method, the headers it
//! requires, a content type it lists, and a JSON body valid against that schema (JSON Schema
//! 2020-12, as OpenAPI 3.1 writes it); each line of an event stream is checked as it is read.
//! Validators are compiled once per test binary, on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Registry, Validator};
use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap};
use serde_json::Value;
use taflbot::server::http::API_PREFIX;

/// Where the document is registered, so `#/components/...` references resolve.
const DOC_URI: &str = "https://taflbot.test/api/v1/openapi.json";

/// The document, its routes and the validators compiled so far.
pub struct Contract {
    doc: Value,
    registry: Registry<'static>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// The contract, built once for the whole test binary from the document the app serves.
pub fn contract() -> &'static Contract {
    static CONTRACT: OnceLock<Contract> = OnceLock::new();
    CONTRACT.get_or_init(|| {
        let doc = taflbot::server::http::openapi_document();
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(DOC_URI, doc.clone())
            .and_then(|builder| builder.prepare())
            .expect("the OpenAPI document indexes as JSON Schema");
        Contract {
            doc,
            registry,
            validators: Mutex::new(HashMap::new()),
        }
    })
}

/// One answer, as the contract needs it.
pub struct Answer<'a> {
    pub status: StatusCode,
    pub headers: &'a HeaderMap,
    /// The whole body; `None` for a stream, whose lines are checked as they come.
    pub body: Option<&'a [u8]>,
}

impl Contract {
    /// The operation for `method` on `path` (with the prefix, without the query), and its
    /// path template.
    fn operation(&self, method: &str, path: &str) -> Option<(&str, &Value)> {
        let method = method.to_ascii_lowercase();
        let sent: Vec<&str> = path.split('/').collect();
        self.doc["paths"]
            .as_object()?
            .iter()
            .filter(|(template, _)| {
                let parts: Vec<&str> = template.split('/').collect();
                parts.len() == sent.len()
                    && parts.iter().zip(&sent).all(|(part, given)| {
                        part == given || (part.starts_with('{') && !given.is_empty())
                    })
            })
            // A literal segment beats a parameter.
            .min_by_key(|(template, _)| template.matches('{').count())
            .and_then(|(template, item)| item.get(&method).map(|op| (template.as_str(), op)))
    }

    /// Whether `answer` to `method` `url_path` (path and query) is what the document says.
    pub fn check(&self, method: &str, url_path: &str, answer: &Answer<'_>) -> Result<(), String> {
        let path = url_path.split('?').next().unwrap_or_default();
        let Some((template, operation)) = self.operation(method, path) else {
            // Not a documented operation: the router's own 404 or 405, in the error shape.
            if !path.starts_with(API_PREFIX)
                || !matches!(
                    answer.status,
                    StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
                )
            {
                return Err(format!(
                    "{method} {path} is not in the document, and answered {}",
                    answer.status
                ));
            }
            let schema = serde_json::json!({ "$ref": "#/components/schemas/ErrorBody" });
            return self.check_json("undocumented", &schema, answer.body);
        };
        let at = format!("{method} {template} answered {}", answer.status);
        let status = answer.status.as_u16().to_string();
        let response = operation["responses"]
            .get(&status)
            .ok_or_else(|| format!("{at}, a status the document does not list for it"))?;
        for (name, header) in response["headers"].as_object().into_iter().flatten() {
            let header = self.resolved(header);
            if header["required"] == true && !answer.headers.contains_key(name.as_str()) {
                return Err(format!("{at} without its required header {name}"));
            }
        }
        let content = response["content"].as_object();
        let sent_type = answer
            .headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|v| v.trim().to_ascii_lowercase());
        match (content, sent_type) {
            (None, None) => Ok(()),
            (None, Some(_)) if answer.body.is_some_and(<[u8]>::is_empty) => Ok(()),
            (None, Some(sent)) => Err(format!("{at} with a {sent} body, where it has none")),
            (Some(_), None) => Err(format!("{at} without a Content-Type")),
            (Some(content), Some(sent)) => {
                let media = content.get(&sent).ok_or_else(|| {
                    format!(
                        "{at} as {sent}, where it lists {:?}",
                        content.keys().collect::<Vec<_>>()
                    )
                })?;
                if sent == "application/json" {
                    self.check_json(&format!("{at} {sent}"), &media["schema"], answer.body)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// A webhook delivery, as the document's `webhooks.event` describes it: its required
    /// headers, each valid against its schema, and the body an `Event`.
    pub fn check_delivery(&self, headers: &HeaderMap, body: &[u8]) -> Result<(), String> {
        let operation = &self.doc["webhooks"]["event"]["post"];
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap_or_default();
            let Some(value) = headers.get(name).and_then(|v| v.to_str().ok()) else {
                return Err(format!("a webhook delivery without its header {name}"));
            };
            // Header values are text: an integer's is read as one.
            let value = value
                .parse::<i64>()
                .ok()
                .filter(|_| parameter["schema"]["type"] == "integer")
                .map_or_else(|| Value::from(value), Value::from);
            let at = format!("a webhook delivery's header {name}");
            self.check_json(
                &at,
                &parameter["schema"],
                Some(value.to_string().as_bytes()),
            )?;
        }
        let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
        self.check_json("a webhook delivery's body", schema, Some(body))
    }

    /// Compiles what [`Contract::check_delivery`] uses, so a receiver that checks deliveries
    /// answers the first one as fast as the others (the server's delivery timeout is short).
    pub fn prepare_delivery_checks(&self) {
        let operation = &self.doc["webhooks"]["event"]["post"];
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            let name = parameter["name"].as_str().unwrap_or_default();
            let at = format!("a webhook delivery's header {name}");
            self.validator(&at, &parameter["schema"]).unwrap();
        }
        let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
        self.validator("a webhook delivery's body", schema).unwrap();
    }

    /// One line of `GET /stream/events`: a `StreamLine`.
    pub fn check_stream_line(&self, line: &[u8]) -> Result<(), String> {
        let schema = serde_json::json!({ "$ref": "#/components/schemas/StreamLine" });
        self.check_json("a stream line", &schema, Some(line))
    }

    fn check_json(&self, at: &str, schema: &Value, body: Option<&[u8]>) -> Result<(), String> {
        let Some(body) = body else {
            return Ok(());
        };
        let value: Value = serde_json::from_slice(body).map_err(|e| {
            format!(
                "{at}: the body is not JSON ({e}): {}",
                String::from_utf8_lossy(body)
            )
        })?;
        let validator = self.validator(at, schema)?;
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .take(5)
            .map(|e| format!("at {:?}: {e}", e.instance_path().as_str()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{at}: the body breaks its schema:\n    {}\n  body: {value}",
                errors.join("\n    ")
            ))
        }
    }

    /// Follows a `$ref` into the document (headers may be references).
    fn resolved<'v>(&'v self, value: &'v Value) -> &'v Value {
        match value["$ref"].as_str() {
            Some(pointer) => self
                .doc
                .pointer(pointer.trim_start_matches('#'))
                .unwrap_or(&Value::Null),
            None => value,
        }
    }

    fn validator(&self, key: &str, schema: &Value) -> Result<Arc<Validator>, String> {
        let key = format!("{key} {schema}");
        if let Some(validator) = self.validators.lock().unwrap().get(&key) {
            return Ok(Arc::clone(validator));
        }
        let validator = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&self.registry)
            .build(&absolute_refs(schema))
            .map(Arc::new)
            .map_err(|e| format!("cannot compile the schema for {key}: {e}"))?;
        self.validators
            .lock()
            .unwrap()
            .insert(key, Arc::clone(&validator));
        Ok(validator)
    }
}

/// A copy of `schema` whose `#/...` references point into the registered document.
fn absolute_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("$ref", Value::String(r)) if r.starts_with('#') => {
                        (k.clone(), Value::String(format!("{DOC_URI}{r}")))
                    }
                    _ => (k.clone(), absolute_refs(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(absolute_refs).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;
    use serde_json::json;

    use super::*;

    fn json_headers() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert("x-request-id", HeaderValue::from_static("1-1"));
        headers
    }

    fn check(method: &str, path: &str, status: StatusCode, body: &Value) -> Result<(), String> {
        let body = serde_json::to_vec(body).unwrap();
        contract().check(
            method,
            path,
            &Answer {
                status,
                headers: &json_headers(),
                body: Some(&body),
            },
        )
    }

    #[test]
    fn the_contract_catches_a_wrong_answer() {
        let me = json!({ "id": 3, "handle": "ada", "name": "ada", "board_flipped": false });
        assert_eq!(check("GET", "/api/v1/me", StatusCode::OK, &me), Ok(()));
        // A missing field, a wrong type, an undocumented status, a body where none is.
        assert!(check("GET", "/api/v1/me", StatusCode::OK, &json!({ "id": 3 })).is_err());
        assert!(
            check(
                "GET",
                "/api/v1/me",
                StatusCode::OK,
                &json!({ "id": "3", "name": "a" })
            )
            .is_err()
        );
        assert!(check("GET", "/api/v1/me", StatusCode::IM_A_TEAPOT, &me).is_err());
        assert!(check("DELETE", "/api/v1/tokens/4", StatusCode::NO_CONTENT, &me).is_err());
        // An error must be the error shape; the route's own statuses only.
        let error = json!({ "error": { "code": "not_found", "message": "game 9 not found" } });
        assert_eq!(
            check("GET", "/api/v1/games/9", StatusCode::NOT_FOUND, &error),
            Ok(())
        );
        assert!(check("GET", "/api/v1/games/9", StatusCode::NOT_FOUND, &me).is_err());
        assert!(check("GET", "/api/v1/variants", StatusCode::UNAUTHORIZED, &error).is_err());
        // The required X-Request-Id.
        let answer = Answer {
            status: StatusCode::NOT_FOUND,
            headers: &HeaderMap::new(),
            body: None,
        };
        assert!(contract().check("GET", "/api/v1/games/9", &answer).is_err());
    }
}
