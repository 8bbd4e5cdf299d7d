//! Discord's own description of its HTTP API (`tests/discord-api/openapi.json`, OpenAPI 3.1) as the
//! judge of every request the bot sends and every answer the fake gives.
//!
//! A request is matched to its operation (path template and method), its JSON body (or the
//! `payload_json` part of a multipart body) is validated against the operation's request schema
//! for that content type, and the fake's answer against the response schema for its status.
//! Schemas are JSON Schema 2020-12; validators are compiled once per operation and kept.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Registry, ValidationError, Validator};
use serde_json::Value;

use super::locked;

/// The description, compiled into the test binary so the repository is self-contained.
const SPEC_TEXT: &str = include_str!("../../discord-api/openapi.json");

/// The URI the description is registered under, so its `#/components/...` references resolve.
const SPEC_URI: &str = "https://discord.com/api/v10/openapi.json";

/// How many schema errors a problem quotes (the first ones, with where they are).
const ERRORS_QUOTED: usize = 5;

/// Which side of an exchange broke the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// What the bot sent.
    Request,
    /// What the fake answered.
    Response,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Request => "request (sent by the bot)",
            Side::Response => "response (answered by the fake)",
        })
    }
}

/// One schema error: where (a JSON pointer into the body) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// E.g. `/data/embeds/0/title`; empty for the body itself.
    pub at: String,
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.at.is_empty() {
            "(body)"
        } else {
            &self.at
        };
        write!(f, "at {at}: {}", self.message)
    }
}

impl SchemaError {
    fn plain(message: String) -> SchemaError {
        SchemaError {
            at: String::new(),
            message,
        }
    }
}

/// A request or answer that does not match Discord's description: always a problem.
#[derive(Debug, Clone)]
pub struct SpecMismatch {
    pub method: String,
    /// The path template, e.g. `/channels/{channel_id}/messages`.
    pub route: String,
    pub side: Side,
    /// The first few errors, each with the JSON pointer of the offending value.
    pub errors: Vec<SchemaError>,
}

impl fmt::Display for SpecMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: the {} breaks Discord's API description:",
            self.method, self.route, self.side
        )?;
        for error in &self.errors {
            write!(f, "\n    - {error}")?;
        }
        Ok(())
    }
}

/// The body of a request, as the schema check needs it.
pub enum RequestBody<'a> {
    None,
    /// A JSON body (`application/json`).
    Json(&'a Value),
    /// A multipart body (`multipart/form-data`): its `payload_json` part, when it has one.
    Multipart(Option<&'a Value>),
    /// A body of another content type, or one that could not be read.
    Unreadable {
        content_type: &'a str,
    },
}

/// One operation of the description: a method on a path template.
pub struct Operation<'a> {
    pub method: String,
    pub route: &'a str,
    definition: &'a Value,
}

/// A path template split at `/`: literal segments and `{parameters}`.
struct RouteTemplate {
    template: String,
    segments: Vec<Option<String>>,
}

impl RouteTemplate {
    fn parse(template: &str) -> RouteTemplate {
        let segments = template
            .trim_start_matches('/')
            .split('/')
            .map(|s| (!s.starts_with('{')).then(|| s.to_owned()))
            .collect();
        RouteTemplate {
            template: template.to_owned(),
            segments,
        }
    }

    /// How many literal segments matched (more is a better match: `@original` over
    /// `{message_id}`), or `None` when the path does not fit.
    fn literal_matches(&self, path: &[&str]) -> Option<usize> {
        if path.len() != self.segments.len() {
            return None;
        }
        let mut literals = 0;
        for (segment, given) in self.segments.iter().zip(path) {
            match segment {
                Some(literal) if literal == given => literals += 1,
                Some(_) => return None,
                None if given.is_empty() => return None,
                None => {}
            }
        }
        Some(literals)
    }
}

/// The loaded description, its path templates and the validators compiled so far.
pub struct DiscordApi {
    document: Value,
    registry: Registry<'static>,
    routes: Vec<RouteTemplate>,
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// The description, loaded once for the whole test binary.
pub fn discord_api() -> Result<&'static DiscordApi, String> {
    static API: OnceLock<Result<DiscordApi, String>> = OnceLock::new();
    API.get_or_init(DiscordApi::load)
        .as_ref()
        .map_err(Clone::clone)
}

impl DiscordApi {
    fn load() -> Result<DiscordApi, String> {
        let document: Value = serde_json::from_str(SPEC_TEXT)
            .map_err(|e| format!("Discord's API description is not JSON: {e}"))?;
        let routes = document
            .get("paths")
            .and_then(Value::as_object)
            .ok_or("Discord's API description has no paths")?
            .keys()
            .map(|t| RouteTemplate::parse(t))
            .collect();
        let registry = Registry::new()
            .draft(Draft::Draft202012)
            .add(SPEC_URI, document.clone())
            .and_then(|builder| builder.prepare())
            .map_err(|e| format!("cannot index Discord's API description: {e}"))?;
        Ok(DiscordApi {
            document,
            registry,
            routes,
            validators: Mutex::new(HashMap::new()),
        })
    }

    /// The operation for `method` on `path` (the part after `/api/v10`, e.g.
    /// `/channels/1/messages`), preferring literal segments over parameters.
    pub fn operation(&self, method: &str, path: &str) -> Option<Operation<'_>> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let method = method.to_ascii_lowercase();
        self.routes
            .iter()
            .filter_map(|r| r.literal_matches(&segments).map(|n| (n, r)))
            .filter(|(_, r)| self.path_item(&r.template).get(&method).is_some())
            .max_by_key(|(n, _)| *n)
            .and_then(|(_, r)| {
                Some(Operation {
                    definition: self.path_item(&r.template).get(&method)?,
                    method: method.to_ascii_uppercase(),
                    route: &r.template,
                })
            })
    }

    fn path_item(&self, template: &str) -> &Value {
        self.document
            .get("paths")
            .and_then(|p| p.get(template))
            .unwrap_or(&Value::Null)
    }

    /// Follows a `$ref` to `#/components/...` (responses and request bodies may be references).
    fn resolved<'v>(&'v self, value: &'v Value) -> &'v Value {
        match value.get("$ref").and_then(Value::as_str) {
            Some(pointer) => self
                .document
                .pointer(pointer.trim_start_matches('#'))
                .unwrap_or(&Value::Null),
            None => value,
        }
    }

    /// Checks a request's body against the operation's request schema.
    pub fn check_request(
        &self,
        operation: &Operation<'_>,
        body: &RequestBody<'_>,
    ) -> Option<SpecMismatch> {
        let request_body = operation
            .definition
            .get("requestBody")
            .map(|b| self.resolved(b));
        let required = request_body
            .and_then(|b| b.get("required"))
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let (content_type, instance) = match body {
            RequestBody::None if required => {
                return self.mismatch(
                    operation,
                    Side::Request,
                    vec![SchemaError::plain(
                        "no body, where the description requires one".to_owned(),
                    )],
                );
            }
            RequestBody::None => return None,
            RequestBody::Unreadable { content_type } => {
                return self.mismatch(
                    operation,
                    Side::Request,
                    vec![SchemaError::plain(format!(
                        "a body that is neither JSON nor a multipart form with payload_json \
                     (content type {content_type:?})"
                    ))],
                );
            }
            RequestBody::Json(value) => ("application/json", Some(*value)),
            RequestBody::Multipart(value) => ("multipart/form-data", *value),
        };
        let Some(request_body) = request_body else {
            return self.mismatch(
                operation,
                Side::Request,
                vec![SchemaError::plain(format!(
                    "a {content_type} body, where the description has none"
                ))],
            );
        };
        let Some(schema) =
            request_body.pointer(&format!("/content/{}/schema", escape(content_type)))
        else {
            return self.mismatch(
                operation,
                Side::Request,
                vec![SchemaError::plain(format!(
                    "a {content_type} body, which the operation does not take"
                ))],
            );
        };
        // A multipart form without payload_json carries no JSON fields to check.
        let instance = instance?;
        let key = format!(
            "{} {} request {content_type}",
            operation.method, operation.route
        );
        let instance = with_integer_member_permissions(&with_string_attachment_ids(instance));
        let errors = self.validate(&key, schema, &instance, |_| true);
        self.mismatch(operation, Side::Request, errors)
    }

    /// Checks an answer (status and JSON body, `None` for an empty body) against the
    /// operation's response for that status (or its `4XX` / `default` entry).
    pub fn check_response(
        &self,
        operation: &Operation<'_>,
        status: u16,
        body: Option<&Value>,
    ) -> Option<SpecMismatch> {
        let responses = operation.definition.get("responses");
        let entry = [
            status.to_string(),
            format!("{}XX", status / 100),
            "default".to_owned(),
        ]
        .into_iter()
        .find_map(|key| responses.and_then(|r| r.get(&key)).map(|e| (key, e)));
        let Some((key, response)) = entry else {
            // The description lists no server errors: a 5xx is Discord's outage, never described.
            if status >= 500 {
                return None;
            }
            return self.mismatch(
                operation,
                Side::Response,
                vec![SchemaError::plain(format!(
                    "status {status}, which the description does not list for this operation"
                ))],
            );
        };
        let response = self.resolved(response);
        let schema = response.pointer("/content/application~1json/schema");
        let errors = match (schema, body) {
            (None, None) => Vec::new(),
            (None, Some(_)) => vec![SchemaError::plain(format!(
                "a JSON body, where status {key} has none"
            ))],
            (Some(_), None) => vec![SchemaError::plain(format!(
                "no body, where status {key} has a JSON one"
            ))],
            (Some(schema), Some(body)) => {
                let cache_key = format!("{} {} response {key}", operation.method, operation.route);
                self.validate(&cache_key, schema, body, |e| {
                    !known_description_gap(status, e)
                })
            }
        };
        self.mismatch(operation, Side::Response, errors)
    }

    fn mismatch(
        &self,
        operation: &Operation<'_>,
        side: Side,
        errors: Vec<SchemaError>,
    ) -> Option<SpecMismatch> {
        (!errors.is_empty()).then(|| SpecMismatch {
            method: operation.method.clone(),
            route: operation.route.to_owned(),
            side,
            errors,
        })
    }

    /// Validates `instance` against `schema` (a part of the description), keeping the errors
    /// `keep` accepts; compiles the validator on first use.
    fn validate(
        &self,
        key: &str,
        schema: &Value,
        instance: &Value,
        keep: impl Fn(&ValidationError<'_>) -> bool,
    ) -> Vec<SchemaError> {
        let validator = match self.validator(key, schema) {
            Ok(validator) => validator,
            Err(e) => {
                return vec![SchemaError::plain(format!(
                    "the fake cannot compile the schema for {key}: {e}"
                ))];
            }
        };
        let mut described = Vec::new();
        for error in validator.iter_errors(instance).filter(|e| keep(e)) {
            describe(&error, &mut described);
            if described.len() >= ERRORS_QUOTED {
                break;
            }
        }
        described.truncate(ERRORS_QUOTED);
        described
    }

    fn validator(&self, key: &str, schema: &Value) -> Result<Arc<Validator>, String> {
        if let Some(validator) = locked(&self.validators).get(key) {
            return Ok(Arc::clone(validator));
        }
        // Compiled outside the lock: another thread compiling the same one only wastes time.
        let validator = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .with_registry(&self.registry)
            .should_validate_formats(true)
            .build(&absolute_refs(schema))
            .map(Arc::new)
            .map_err(|e| e.to_string())?;
        locked(&self.validators).insert(key.to_owned(), Arc::clone(&validator));
        Ok(validator)
    }
}

/// A media type as a JSON pointer segment (`/` becomes `~1`).
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// A copy of `schema` whose `#/...` references point into the registered description.
fn absolute_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("$ref", Value::String(r)) if r.starts_with('#') => {
                        (k.clone(), Value::String(format!("{SPEC_URI}{r}")))
                    }
                    _ => (k.clone(), absolute_refs(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(absolute_refs).collect()),
        other => other.clone(),
    }
}

/// Where the description is stricter than Discord itself, for answers the fake gives as Discord
/// does (see discord/discord-api-spec issue 24):
/// - a 429's body is `{message, retry_after, global}`, without the `code` the description requires;
/// - a 50035's `errors` tree has string codes (`BASE_TYPE_MAX_LENGTH`), which serenity reads as
///   strings, where the description says integer.
fn known_description_gap(status: u16, error: &ValidationError<'_>) -> bool {
    let path = error.instance_path().as_str();
    let missing_code = matches!(
        error.kind(),
        ValidationErrorKind::Required { property } if property == "code"
    );
    (status == 429 && path.is_empty() && missing_code)
        || (status == 400 && path.starts_with("/errors"))
}

/// Where the description is stricter than Discord itself, for requests: an attachment's
/// placeholder `id` may be a number. Discord's own reference ("Uploading Files", whose example
/// sends `"attachments": [{"id": 0, ...}]`) accepts it, and serenity 0.12 writes it so for every
/// file it uploads; the description types it as a snowflake string. The body is checked with
/// such ids written as strings, and nothing else changed.
fn with_string_attachment_ids(body: &Value) -> Value {
    let mut body = body.clone();
    for pointer in ["/attachments", "/data/attachments"] {
        if let Some(Value::Array(attachments)) = body.pointer_mut(pointer) {
            for attachment in attachments {
                if let Some(id) = attachment.get_mut("id")
                    && let Some(number) = id.as_u64()
                {
                    *id = Value::String(number.to_string());
                }
            }
        }
    }
    body
}

/// Where the description is stricter than Discord itself, for command registrations: a
/// command's `default_member_permissions` is "a set of permissions represented as a bit set"
/// in a *string* in Discord's reference (Application Command Object), which is what serenity
/// sends; the description types it as an integer. Such a string of digits is checked as the
/// integer it writes, and nothing else changed.
fn with_integer_member_permissions(body: &Value) -> Value {
    let mut body = body.clone();
    let commands: Vec<&mut Value> = match &mut body {
        Value::Array(commands) => commands.iter_mut().collect(),
        command @ Value::Object(_) => vec![command],
        _ => Vec::new(),
    };
    for command in commands {
        if let Some(bits) = command.get_mut("default_member_permissions")
            && let Some(number) = bits.as_str().and_then(|s| s.parse::<u64>().ok())
        {
            *bits = Value::from(number);
        }
    }
    body
}

/// One line per error, with where it is; for a union (`anyOf`/`oneOf`), the errors of the branch
/// the value most likely meant (not one whose type or `type` discriminator refused it, then the
/// one with the fewest errors), so the line names the field, not the whole union.
fn describe(error: &ValidationError<'_>, into: &mut Vec<SchemaError>) {
    let branches = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            Some(context)
        }
        _ => None,
    };
    let at = error.instance_path().as_str();
    let closest = branches.and_then(|branches| {
        branches
            .iter()
            .filter(|errors| !errors.iter().any(|e| refuses_outright(e, at)))
            .min_by_key(|errors| errors.len())
            .filter(|errors| !errors.is_empty())
    });
    match closest {
        Some(errors) => errors.iter().for_each(|e| describe(e, into)),
        None => {
            // Without the value itself when it is long (a whole message body says nothing).
            let full = error.to_string();
            let message = if full.chars().count() > 200 {
                error.masked().to_string()
            } else {
                full
            };
            into.push(SchemaError {
                at: at.to_owned(),
                message,
            });
        }
    }
}

/// Whether `error` says a union's branch is not what the value at `at` is at all: the value has
/// another JSON type, or its `type` field picks another branch.
fn refuses_outright(error: &ValidationError<'_>, at: &str) -> bool {
    let path = error.instance_path().as_str();
    match error.kind() {
        ValidationErrorKind::Type { .. } => path == at,
        ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. } => {
            path == format!("{at}/type")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn api() -> &'static DiscordApi {
        match discord_api() {
            Ok(api) => api,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn routes_prefer_literal_segments() {
        let api = api();
        let original = api.operation("PATCH", "/webhooks/1/tok/messages/@original");
        assert_eq!(
            original.map(|o| o.route),
            Some("/webhooks/{webhook_id}/{webhook_token}/messages/@original")
        );
        let by_id = api.operation("PATCH", "/webhooks/1/tok/messages/55");
        assert_eq!(
            by_id.map(|o| o.route),
            Some("/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
        );
        assert!(api.operation("PUT", "/channels/1/messages").is_none());
    }

    #[test]
    fn a_message_body_is_checked_field_by_field() {
        let api = api();
        let Some(op) = api.operation("POST", "/channels/1/messages") else {
            panic!("no create_message")
        };
        let fine = json!({ "content": "hello" });
        assert!(api.check_request(&op, &RequestBody::Json(&fine)).is_none());
        let bad = json!({ "content": 7 });
        let Some(mismatch) = api.check_request(&op, &RequestBody::Json(&bad)) else {
            panic!("content 7 accepted")
        };
        assert_eq!(mismatch.errors[0].at, "/content", "{mismatch}");
    }
}
