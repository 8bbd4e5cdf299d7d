//! The fake REST API under `/api/v10/...`: one handler that records the request, then answers it
//! by route. Unknown routes are logged loudly and answered 404, so gaps are visible.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::payloads::{self, StoredAttachment};
use super::recorder::{Recorded, RecordedAttachment, RouteKind};
use super::{FakeState, checked, locked, now_rfc3339};

const API_PREFIX: &str = "/api/v10/";

pub(crate) async fn handle(State(state): State<Arc<FakeState>>, request: Request) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let authorized = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot "));
    let (json, attachments) = read_body(request).await;
    let segments: Vec<String> = match path.strip_prefix(API_PREFIX) {
        Some(rest) => rest.split('/').map(str::to_owned).collect(),
        None => Vec::new(),
    };
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    // Interaction callbacks and webhook follow-ups are authorized by their token, not the bot's.
    let token_route = matches!(segments.first(), Some(&"interactions") | Some(&"webhooks"));
    if !authorized && !token_route && !segments.is_empty() {
        state.problem(format!(
            "{method} {path} was sent without a `Bot` authorization header"
        ));
    }

    let mut recorded = Recorded {
        index: 0,
        method: method.to_string(),
        path: path.clone(),
        kind: RouteKind::Other,
        json,
        attachments,
        message: None,
        at: Instant::now(),
    };
    let response = route(&state, &method, &segments, &mut recorded);
    if recorded.kind == RouteKind::Unknown {
        tracing::error!("fake Discord: UNKNOWN ROUTE {method} {path} (answered 404)");
        eprintln!("FAKE DISCORD: UNKNOWN ROUTE {method} {path} (answered 404)");
    }
    state.recorder.push(recorded);
    response
}

/// Reads a JSON body, or a multipart body's `payload_json` and files.
async fn read_body(request: Request) -> (Option<Value>, Vec<RecordedAttachment>) {
    let is_multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/"));
    if !is_multipart {
        let bytes = axum::body::to_bytes(request.into_body(), usize::MAX)
            .await
            .unwrap_or_default();
        return (serde_json::from_slice(&bytes).ok(), Vec::new());
    }
    let mut json = None;
    let mut attachments = Vec::new();
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else {
        return (None, attachments);
    };
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field.content_type().map(str::to_owned);
        let bytes = field.bytes().await.map(|b| b.to_vec()).unwrap_or_default();
        if name == "payload_json" {
            json = serde_json::from_slice(&bytes).ok();
        } else {
            attachments.push(RecordedAttachment {
                field: name,
                filename: filename.unwrap_or_default(),
                content_type,
                bytes,
            });
        }
    }
    (json, attachments)
}

fn ok(value: Value) -> Response {
    (StatusCode::OK, axum::Json(value)).into_response()
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

fn not_found(what: &str) -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({ "message": format!("Unknown {what}"), "code": 10000 })),
    )
        .into_response()
}

fn route(
    state: &FakeState,
    method: &Method,
    segments: &[&str],
    recorded: &mut Recorded,
) -> Response {
    let get = method == Method::GET;
    let post = method == Method::POST;
    let patch = method == Method::PATCH;
    let delete = method == Method::DELETE;
    match segments {
        ["gateway"] if get => ok(json!({ "url": state.ws_url })),
        ["gateway", "bot"] if get => ok(json!({
            "url": state.ws_url,
            "shards": 1,
            "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 },
        })),
        ["users", "@me"] if get => ok(payloads::user(&state.bot)),
        ["oauth2", "applications", "@me"] if get => {
            let info = payloads::application_info(state.application_id, &state.owner);
            check_answer::<serenity::model::application::CurrentApplicationInfo>(
                state,
                "application info",
                &info,
            );
            ok(info)
        }
        ["applications", _, "commands"] => commands(state, method, None, recorded),
        ["applications", _, "guilds", guild, "commands"] => {
            commands(state, method, guild.parse().ok(), recorded)
        }
        ["interactions", id, token, "callback"] if post => {
            recorded.kind = RouteKind::InteractionCallback {
                interaction_id: id.parse().unwrap_or_default(),
                token: (*token).to_owned(),
            };
            interaction_callback(state, token, recorded)
        }
        ["webhooks", _, token] if post => {
            recorded.kind = RouteKind::Followup {
                token: (*token).to_owned(),
            };
            let channel = interaction_channel(state, token);
            let message = store_message(state, channel, None, true, recorded);
            ok(message)
        }
        ["webhooks", _, token, "messages", which] => {
            recorded.kind = RouteKind::EditResponse {
                token: (*token).to_owned(),
                message: (*which).to_owned(),
            };
            let id = if *which == "@original" {
                locked(&state.interactions)
                    .get(*token)
                    .and_then(|i| i.original_message)
            } else {
                which.parse().ok()
            };
            if patch {
                let channel = interaction_channel(state, token);
                let message = store_message(state, channel, id, true, recorded);
                if *which == "@original"
                    && let Some(info) = locked(&state.interactions).get_mut(*token)
                {
                    info.original_message = message
                        .get("id")
                        .and_then(Value::as_str)
                        .and_then(|s| s.parse().ok());
                }
                ok(message)
            } else if get {
                match id.and_then(|id| locked(&state.messages).get(&id).cloned()) {
                    Some(message) => ok(message),
                    None => not_found("Message"),
                }
            } else if delete {
                if let Some(id) = id {
                    locked(&state.messages).remove(&id);
                }
                no_content()
            } else {
                unknown(recorded)
            }
        }
        ["channels", channel, "messages"] if post => {
            let channel: u64 = channel.parse().unwrap_or_default();
            recorded.kind = RouteKind::ChannelMessage {
                channel_id: channel,
            };
            ok(store_message(state, channel, None, false, recorded))
        }
        ["channels", channel, "messages", id] if patch => {
            let channel: u64 = channel.parse().unwrap_or_default();
            ok(store_message(
                state,
                channel,
                id.parse().ok(),
                false,
                recorded,
            ))
        }
        ["channels", _, "typing"] if post => no_content(),
        ["channels", channel] if get => {
            let id: u64 = channel.parse().unwrap_or_default();
            let name = state.channel_name(id);
            ok(payloads::guild_text_channel(id, state.guild_id, &name, 0))
        }
        _ => unknown(recorded),
    }
}

fn unknown(recorded: &mut Recorded) -> Response {
    recorded.kind = RouteKind::Unknown;
    not_found("route (fake Discord)")
}

/// Checks an answer with serenity's type; a failure is a problem of the fake, reported loudly.
fn check_answer<T: serde::de::DeserializeOwned>(state: &FakeState, what: &str, value: &Value) {
    if let Err(e) = checked::<T>(what, value) {
        state.problem(e.to_string());
    }
}

fn commands(
    state: &FakeState,
    method: &Method,
    guild: Option<u64>,
    recorded: &mut Recorded,
) -> Response {
    recorded.kind = RouteKind::CommandRegistration;
    let register = |definition: &Value| {
        payloads::registered_command(definition, state.next_id(), state.application_id, guild)
    };
    if method == Method::PUT {
        let definitions = recorded
            .json
            .as_ref()
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let registered: Vec<Value> = definitions.iter().map(register).collect();
        let answer = Value::Array(registered.clone());
        check_answer::<Vec<serenity::model::application::Command>>(
            state,
            "registered commands",
            &answer,
        );
        *locked(&state.commands) = registered;
        ok(answer)
    } else if method == Method::POST {
        let Some(definition) = recorded.json.clone() else {
            return (StatusCode::BAD_REQUEST, "a command definition is required").into_response();
        };
        let command = register(&definition);
        let name = command.get("name").cloned();
        let mut commands = locked(&state.commands);
        commands.retain(|c| c.get("name") != name.as_ref());
        commands.push(command.clone());
        ok(command)
    } else if method == Method::GET {
        ok(Value::Array(locked(&state.commands).clone()))
    } else {
        recorded.kind = RouteKind::Unknown;
        not_found("route (fake Discord)")
    }
}

fn interaction_channel(state: &FakeState, token: &str) -> u64 {
    match locked(&state.interactions).get(token) {
        Some(info) => info.channel_id,
        None => {
            state.problem(format!(
                "the bot answered an interaction token the fake never issued: {token}"
            ));
            0
        }
    }
}

fn interaction_callback(state: &FakeState, token: &str, recorded: &mut Recorded) -> Response {
    let known = locked(&state.interactions).get(token).cloned();
    let Some(info) = known else {
        state.problem(format!(
            "interaction callback for a token the fake never issued: {token}"
        ));
        return not_found("Interaction");
    };
    let kind = recorded
        .json
        .as_ref()
        .and_then(|j| j.get("type"))
        .and_then(Value::as_u64);
    match kind {
        // A message in reply: it becomes the original response.
        Some(4) => {
            let data = recorded
                .json
                .as_ref()
                .and_then(|j| j.get("data"))
                .cloned()
                .unwrap_or(json!({}));
            let mut payload_holder = recorded.clone();
            payload_holder.json = Some(data);
            let message = store_message(state, info.channel_id, None, true, &mut payload_holder);
            let id = message
                .get("id")
                .and_then(Value::as_str)
                .and_then(|s| s.parse().ok());
            if let Some(entry) = locked(&state.interactions).get_mut(token) {
                entry.original_message = id;
            }
            recorded.message = Some(message);
        }
        // Deferrals, update of the clicked message, autocomplete choices, modal: nothing stored.
        Some(5..=9) => {}
        other => state.problem(format!(
            "interaction callback with an unknown type {other:?}"
        )),
    }
    no_content()
}

/// Creates (or, with `existing`, replaces) a message from the recorded payload and files, checks
/// serenity can read it, and attaches it to the record.
fn store_message(
    state: &FakeState,
    channel_id: u64,
    existing: Option<u64>,
    by_webhook: bool,
    recorded: &mut Recorded,
) -> Value {
    let id = existing.unwrap_or_else(|| state.next_id());
    let ids: Vec<u64> = recorded
        .attachments
        .iter()
        .map(|_| state.next_id())
        .collect();
    let stored: Vec<StoredAttachment<'_>> = recorded
        .attachments
        .iter()
        .zip(&ids)
        .map(|(a, id)| StoredAttachment {
            id: *id,
            filename: &a.filename,
            size: a.bytes.len(),
            content_type: a.content_type.as_deref(),
        })
        .collect();
    let empty = json!({});
    let now = now_rfc3339();
    let message = payloads::message(&payloads::MessageSpec {
        id,
        channel_id,
        guild_id: Some(state.guild_id),
        author: &state.bot,
        application_id: state.application_id,
        webhook_id: by_webhook.then_some(state.application_id),
        payload: recorded.json.as_ref().unwrap_or(&empty),
        attachments: &stored,
        now: &now,
        base_url: &state.base_url,
    });
    check_answer::<serenity::model::channel::Message>(state, "message", &message);
    locked(&state.messages).insert(id, message.clone());
    recorded.message = Some(message.clone());
    message
}
