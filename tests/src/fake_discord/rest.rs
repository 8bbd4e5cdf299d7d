//! The fake REST API under `/api/v10/...`: one handler that reads the request, checks it against
//! Discord's description and limits, serves it (or a scripted fault), checks its own answer
//! against the description, and records the exchange.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::answer::{Answer, Refusal};
use super::application;
use super::faults::Hold;
use super::images;
use super::interactions::InteractionInfo;
use super::limits::{self, FieldError};
use super::mentions;
use super::payloads::{self, StoredAttachment};
use super::permissions::{self, MessageNeeds};
use super::rate_limits::{Overrun, RouteGroup};
use super::recorder::{Recorded, RecordedAttachment, RouteKind};
use super::spec::{self, RequestBody};
use super::threads;
use super::{FakeState, checked, locked, now_rfc3339};

const API_PREFIX: &str = "/api/v10";

/// How a request's body came.
enum BodyForm {
    Empty,
    Json,
    Multipart,
    /// Not JSON, or a content type the fake does not read.
    Unreadable(String),
}

/// A request, read.
struct Incoming {
    method: Method,
    path: String,
    /// The path after `/api/v10`, split at `/`.
    segments: Vec<String>,
    authorized: bool,
    form: BodyForm,
    /// The JSON body, or the `payload_json` part of a multipart body.
    json: Option<Value>,
    attachments: Vec<RecordedAttachment>,
}

impl Incoming {
    fn segments(&self) -> Vec<&str> {
        self.segments.iter().map(String::as_str).collect()
    }

    /// The body as Discord's description check needs it.
    fn body_for_spec(&self) -> RequestBody<'_> {
        match (&self.form, &self.json) {
            (BodyForm::Empty, _) => RequestBody::None,
            (BodyForm::Json, Some(json)) => RequestBody::Json(json),
            (BodyForm::Json, None) => RequestBody::Unreadable {
                content_type: "application/json",
            },
            (BodyForm::Multipart, json) => RequestBody::Multipart(json.as_ref()),
            (BodyForm::Unreadable(content_type), _) => RequestBody::Unreadable { content_type },
        }
    }
}

pub(crate) async fn handle(State(state): State<Arc<FakeState>>, request: Request) -> Response {
    let incoming = read(request).await;
    let kind = classify(&incoming.method, &incoming.segments());
    // Interaction callbacks and webhook follow-ups are authorized by their token, not the bot's.
    let token_route = matches!(
        kind,
        RouteKind::InteractionCallback { .. }
            | RouteKind::Followup { .. }
            | RouteKind::EditResponse { .. }
    );
    if !incoming.authorized && !token_route {
        state.problem(format!(
            "{} {} was sent without a `Bot` authorization header",
            incoming.method, incoming.path
        ));
    }
    // Counted as it arrives, as Discord counts it; the answer carries the bucket's headers.
    let admission = state
        .rate_limits
        .admit(incoming.method.as_str(), &incoming.segments(), &kind);
    let group = RouteGroup::of(&kind);
    let hold = state.faults.hold_of(place_of(&kind));
    let mut recorded = Recorded {
        index: 0,
        method: incoming.method.to_string(),
        path: incoming.path.clone(),
        kind,
        json: incoming.json.clone(),
        attachments: incoming.attachments.clone(),
        message: None,
        at: Instant::now(),
        status: 0,
        error_code: None,
    };
    match hold {
        // Recorded as it arrives (status 0: never answered); the handler waits until the bot
        // drops the connection.
        Some(Hold::Never) => {
            state.recorder.push(recorded);
            return std::future::pending().await;
        }
        Some(Hold::Late(delay)) => tokio::time::sleep(delay).await,
        None => {}
    }
    let answer = match admission {
        Ok(admitted) => {
            let mut answer = judge_and_serve(&state, &incoming, &mut recorded, token_route);
            // A scripted 429 brings its own bucket headers.
            if !answer
                .headers
                .iter()
                .any(|(name, _)| *name == "x-ratelimit-limit")
            {
                answer.headers.extend(admitted.headers);
            }
            state.rate_limits.note_answer(&answer);
            answer
        }
        Err((overrun, report)) => {
            if report {
                state.problem(overrun.problem(incoming.method.as_str(), &incoming.path));
            }
            let answer = overrun.answer();
            // A ban's refusals are the ban itself, not more invalid requests.
            if !matches!(overrun, Overrun::Banned { .. }) {
                state.rate_limits.note_answer(&answer);
            }
            answer
        }
    };
    let latency = state.latency.of_route(group);
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    recorded.status = answer.status.as_u16();
    recorded.error_code = answer.error_code();
    state.recorder.push(recorded);
    answer.into_response()
}

/// The place (channel, thread, DM channel) a request is about, for the holds a test scripts.
fn place_of(kind: &RouteKind) -> Option<u64> {
    match kind {
        RouteKind::ThreadCreate { channel_id } | RouteKind::ChannelEdit { channel_id } => {
            Some(*channel_id)
        }
        other => other.channel_id(),
    }
}

/// Checks the request against Discord's description and limits, answers it (a scripted fault,
/// a refusal, or the service), and checks the answer against the description.
fn judge_and_serve(
    state: &FakeState,
    incoming: &Incoming,
    recorded: &mut Recorded,
    token_route: bool,
) -> Answer {
    let api = match spec::discord_api() {
        Ok(api) => Some(api),
        Err(e) => {
            state.problem(e);
            None
        }
    };
    let path = incoming.path.strip_prefix(API_PREFIX).unwrap_or_default();
    let method = incoming.method.as_str();
    let operation = api.and_then(|api| api.operation(method, path));
    if api.is_some() && operation.is_none() {
        state.problem(format!(
            "{method} {} is not a route of Discord's API description",
            incoming.path
        ));
    }
    let schema_errors = match (api, &operation) {
        (Some(api), Some(operation)) => api.check_request(operation, &incoming.body_for_spec()),
        _ => None,
    };
    if let Some(mismatch) = &schema_errors {
        state.problem(mismatch.to_string());
    }
    if let Some(json) = &incoming.json
        && let Some(problem) =
            mentions::mention_problem(&recorded.kind, incoming.method.as_str(), json)
    {
        state.problem(format!("{method} {}: {problem}", incoming.path));
    }
    if let Some(problem) = images::undescribed_images(
        &recorded.kind,
        incoming.json.as_ref(),
        &incoming.attachments,
    ) {
        state.problem(format!("{method} {}: {problem}", incoming.path));
    }
    let limit_errors = limit_errors(&recorded.kind, incoming);
    if !limit_errors.is_empty() {
        let fields: Vec<String> = limit_errors
            .iter()
            .map(|e| format!("{} ({}: {})", e.dotted_path(), e.code, e.message))
            .collect();
        let route = operation
            .as_ref()
            .map_or(incoming.path.as_str(), |o| o.route);
        state.problem(format!(
            "{method} {route}: the bot broke Discord's limits: {}",
            fields.join("; ")
        ));
    }

    // A body that breaks the description is a problem, but is served: the description is
    // stricter than Discord in places (it refuses integer snowflakes Discord's own examples
    // use), so refusing it would invent refusals. The limits below are Discord's own.
    let answer = if state.faults.token_revoked() && !token_route {
        Refusal::Unauthorized.answer()
    } else if let Some(fault) = state.faults.take(method, &recorded.kind) {
        fault.refusal().answer()
    } else if !limit_errors.is_empty() {
        invalid_form_body(&limit_errors)
    } else if let Some((refusal, problem)) =
        application::wrong_application(&incoming.segments(), state.application_id)
    {
        state.problem(problem);
        refusal.answer()
    } else {
        serve(state, incoming, recorded)
    };

    if let (Some(api), Some(operation)) = (api, &operation)
        && let Some(mismatch) =
            api.check_response(operation, answer.status.as_u16(), answer.body.as_ref())
    {
        state.problem(mismatch.to_string());
    }
    answer
}

/// The limits Discord enforces beyond its description, for the routes that carry messages.
fn limit_errors(kind: &RouteKind, incoming: &Incoming) -> Vec<FieldError> {
    let Some(json) = &incoming.json else {
        return Vec::new();
    };
    let carries_message = incoming.method == Method::POST || incoming.method == Method::PATCH;
    match kind {
        RouteKind::InteractionCallback { .. } => limits::callback_limits(json),
        RouteKind::ChannelMessage { .. }
        | RouteKind::ChannelMessageEdit { .. }
        | RouteKind::Followup { .. }
        | RouteKind::EditResponse { .. }
            if carries_message =>
        {
            limits::message_limits(json, &[])
        }
        _ => Vec::new(),
    }
}

/// Discord's 400 50035 for a body that breaks its limits.
fn invalid_form_body(limits: &[FieldError]) -> Answer {
    Refusal::InvalidFormBody {
        errors: limits::error_tree(limits),
    }
    .answer()
}

/// Reads the request: its JSON body, or a multipart body's `payload_json` and files.
async fn read(request: Request) -> Incoming {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let segments = path
        .strip_prefix(API_PREFIX)
        .map(|rest| {
            rest.trim_start_matches('/')
                .split('/')
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let authorized = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot "));
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let (form, json, attachments) = if content_type.starts_with("multipart/") {
        read_multipart(request).await
    } else {
        let bytes = axum::body::to_bytes(request.into_body(), usize::MAX)
            .await
            .unwrap_or_default();
        if bytes.is_empty() {
            (BodyForm::Empty, None, Vec::new())
        } else if content_type.is_empty() || content_type.starts_with("application/json") {
            (
                BodyForm::Json,
                serde_json::from_slice(&bytes).ok(),
                Vec::new(),
            )
        } else {
            (BodyForm::Unreadable(content_type), None, Vec::new())
        }
    };
    Incoming {
        method,
        path,
        segments,
        authorized,
        form,
        json,
        attachments,
    }
}

async fn read_multipart(request: Request) -> (BodyForm, Option<Value>, Vec<RecordedAttachment>) {
    let mut json = None;
    let mut attachments = Vec::new();
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else {
        return (
            BodyForm::Unreadable("multipart/form-data".to_owned()),
            None,
            attachments,
        );
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
    (BodyForm::Multipart, json, attachments)
}

/// What a request is for, read off its method and route.
fn classify(method: &Method, segments: &[&str]) -> RouteKind {
    let id = |s: &str| s.parse().unwrap_or_default();
    match segments {
        ["interactions", interaction, token, "callback"] if method == Method::POST => {
            RouteKind::InteractionCallback {
                interaction_id: id(interaction),
                token: (*token).to_owned(),
            }
        }
        ["webhooks", _, token] if method == Method::POST => RouteKind::Followup {
            token: (*token).to_owned(),
        },
        ["webhooks", _, token, "messages", which] => RouteKind::EditResponse {
            token: (*token).to_owned(),
            message: (*which).to_owned(),
        },
        ["channels", channel, "messages"] if method == Method::POST => RouteKind::ChannelMessage {
            channel_id: id(channel),
        },
        ["channels", channel, "messages", message] if method == Method::PATCH => {
            RouteKind::ChannelMessageEdit {
                channel_id: id(channel),
                message_id: id(message),
            }
        }
        ["channels", channel, "threads"] if method == Method::POST => RouteKind::ThreadCreate {
            channel_id: id(channel),
        },
        ["channels", channel] if method == Method::PATCH => RouteKind::ChannelEdit {
            channel_id: id(channel),
        },
        ["users", "@me", "channels"] if method == Method::POST => RouteKind::DmOpen,
        ["applications", _, "commands"] | ["applications", _, "guilds", _, "commands"] => {
            RouteKind::CommandRegistration
        }
        ["gateway"] | ["gateway", "bot"] | ["users", "@me"] | ["oauth2", "applications", "@me"]
            if method == Method::GET =>
        {
            RouteKind::Other
        }
        ["channels", _, "typing"] if method == Method::POST => RouteKind::Other,
        ["channels", _] if method == Method::GET => RouteKind::Other,
        _ => RouteKind::Unknown,
    }
}

/// Normal service: what Discord answers a valid request.
fn serve(state: &FakeState, incoming: &Incoming, recorded: &mut Recorded) -> Answer {
    let method = &incoming.method;
    let segments = incoming.segments();
    match (&recorded.kind.clone(), segments.as_slice()) {
        (RouteKind::InteractionCallback { token, .. }, _) => {
            interaction_callback(state, token, incoming, recorded)
        }
        (RouteKind::Followup { token }, _) => match interaction_for_token(state, token) {
            Ok(info) => {
                let message = match settled_placeholder(state, token, incoming) {
                    Some(message) => message,
                    None => store_message(state, info.channel_id, None, true, incoming),
                };
                recorded.message = Some(message.clone());
                Answer::ok(message)
            }
            Err(refusal) => refusal,
        },
        (RouteKind::EditResponse { token, message }, _) => {
            response_message(state, token, message, incoming, recorded)
        }
        (RouteKind::ChannelMessage { channel_id }, _) => {
            channel_message(state, *channel_id, None, incoming, recorded)
        }
        (
            RouteKind::ChannelMessageEdit {
                channel_id,
                message_id,
            },
            _,
        ) => channel_message(state, *channel_id, Some(*message_id), incoming, recorded),
        (RouteKind::ThreadCreate { channel_id }, _) => create_thread(state, *channel_id, incoming),
        (RouteKind::ChannelEdit { channel_id }, _) => edit_thread(state, *channel_id, incoming),
        (RouteKind::DmOpen, _) => open_dm(state, incoming),
        (RouteKind::CommandRegistration, [.., guild, "commands"]) => {
            commands(state, method, guild.parse().ok(), incoming)
        }
        (RouteKind::Other, ["gateway"]) => {
            Answer::ok(json!({ "url": state.gateway.url(&state.ws_url) }))
        }
        (RouteKind::Other, ["gateway", "bot"]) => Answer::ok(
            state
                .session_starts
                .gateway_bot(&state.gateway.url(&state.ws_url)),
        ),
        (RouteKind::Other, ["users", "@me"]) => Answer::ok(payloads::user(&state.bot)),
        (RouteKind::Other, ["oauth2", "applications", "@me"]) => {
            let info = payloads::application_info(state.application_id, &state.owner);
            check_answer::<serenity::model::application::CurrentApplicationInfo>(
                state,
                "application info",
                &info,
            );
            Answer::ok(info)
        }
        (RouteKind::Other, ["channels", channel, "typing"]) => {
            if state.channel_exists(channel.parse().unwrap_or_default()) {
                Answer::no_content()
            } else {
                Refusal::UnknownChannel.answer()
            }
        }
        (RouteKind::Other, ["channels", channel]) => {
            let id: u64 = channel.parse().unwrap_or_default();
            if let Some(thread) = state.thread(id) {
                return Answer::ok(thread.to_json(state.guild_id, state.bot.id, &now_rfc3339()));
            }
            if !state.channel_exists(id) {
                return Refusal::UnknownChannel.answer();
            }
            let name = state.channel_name(id);
            Answer::ok(payloads::guild_text_channel(id, state.guild_id, &name, 0))
        }
        _ => {
            recorded.kind = RouteKind::Unknown;
            state.problem(format!(
                "the fake does not serve {method} {} (answered 404)",
                incoming.path
            ));
            Refusal::UnknownRoute.answer()
        }
    }
}

/// Checks an answer with serenity's type; a failure is a problem of the fake, reported loudly.
fn check_answer<T: serde::de::DeserializeOwned>(state: &FakeState, what: &str, value: &Value) {
    if let Err(e) = checked::<T>(what, value) {
        state.problem(e.to_string());
    }
}

fn commands(state: &FakeState, method: &Method, guild: Option<u64>, incoming: &Incoming) -> Answer {
    let register = |definition: &Value| {
        payloads::registered_command(definition, state.next_id(), state.application_id, guild)
    };
    if method == Method::PUT {
        let definitions = incoming
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
        Answer::ok(answer)
    } else if method == Method::POST {
        let definition = incoming.json.clone().unwrap_or(json!({}));
        let command = register(&definition);
        let name = command.get("name").cloned();
        let mut commands = locked(&state.commands);
        commands.retain(|c| c.get("name") != name.as_ref());
        commands.push(command.clone());
        Answer::ok(command)
    } else {
        Answer::ok(Value::Array(locked(&state.commands).clone()))
    }
}

/// The interaction a webhook token belongs to, while the token lives; otherwise Discord's
/// refusal (and a problem: the bot used a token it should not have).
fn interaction_for_token(state: &FakeState, token: &str) -> Result<InteractionInfo, Answer> {
    let Some(info) = locked(&state.interactions).get(token).cloned() else {
        state.problem(format!(
            "the bot used an interaction token the fake never issued: {token}"
        ));
        return Err(Refusal::InvalidWebhookToken.answer());
    };
    let limits = *locked(&state.interaction_limits);
    info.check_token(&limits)
        .map_err(|broken| state.rule_broken(broken))?;
    Ok(info)
}

/// `/webhooks/{app}/{token}/messages/{@original|id}`: read, edit or delete a response.
fn response_message(
    state: &FakeState,
    token: &str,
    which: &str,
    incoming: &Incoming,
    recorded: &mut Recorded,
) -> Answer {
    let info = match interaction_for_token(state, token) {
        Ok(info) => info,
        Err(refusal) => return refusal,
    };
    if incoming.method == Method::PATCH
        && which == "@original"
        && let Some(message) = settled_placeholder(state, token, incoming)
    {
        recorded.message = Some(message.clone());
        return Answer::ok(message);
    }
    let id = if which == "@original" {
        info.original()
    } else {
        which.parse().ok()
    };
    let stored = id.and_then(|id| locked(&state.messages).get(&id).cloned());
    match incoming.method {
        // Editing the original of a deferred answer creates the message the user sees.
        Method::PATCH if stored.is_some() || which == "@original" => {
            let message = store_message(state, info.channel_id, stored.as_ref(), true, incoming);
            if which == "@original"
                && let Some(entry) = locked(&state.interactions).get_mut(token)
            {
                entry.original_message = message_id(&message);
            }
            recorded.message = Some(message.clone());
            Answer::ok(message)
        }
        Method::GET if stored.is_some() => Answer::ok(stored.unwrap_or_default()),
        Method::DELETE if stored.is_some() => {
            if let Some(id) = id {
                locked(&state.messages).remove(&id);
            }
            Answer::no_content()
        }
        _ => Refusal::UnknownMessage.answer(),
    }
}

/// A follow-up or `@original` edit that settles a deferred message's placeholder: stored as the
/// original response, with the placeholder's visibility. `None` when no placeholder waits.
fn settled_placeholder(state: &FakeState, token: &str, incoming: &Incoming) -> Option<Value> {
    let empty = json!({});
    let payload = incoming.json.as_ref().unwrap_or(&empty);
    let (channel_id, settled) = {
        let mut interactions = locked(&state.interactions);
        let entry = interactions.get_mut(token)?;
        (entry.channel_id, entry.settle_placeholder(payload)?)
    };
    let message = store_payload(
        state,
        channel_id,
        None,
        true,
        &settled,
        &incoming.attachments,
    );
    if let Some(entry) = locked(&state.interactions).get_mut(token) {
        entry.original_message = message_id(&message);
    }
    Some(message)
}

/// `POST /channels/{id}/messages` and `PATCH /channels/{id}/messages/{message_id}`.
fn channel_message(
    state: &FakeState,
    channel_id: u64,
    editing: Option<u64>,
    incoming: &Incoming,
    recorded: &mut Recorded,
) -> Answer {
    let payload = incoming.json.as_ref();
    let needs = MessageNeeds {
        embeds: payload
            .and_then(|p| p.get("embeds"))
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty()),
        files: !incoming.attachments.is_empty(),
    };
    if let Some(refusal) = place_refusal(state, channel_id, editing.is_some(), needs) {
        return refusal;
    }
    let existing = match editing {
        Some(id) => match locked(&state.messages).get(&id).cloned() {
            Some(message) if message_channel(&message) == Some(channel_id) => Some(message),
            _ => return Refusal::UnknownMessage.answer(),
        },
        None => None,
    };
    let message = store_message(state, channel_id, existing.as_ref(), false, incoming);
    recorded.message = Some(message.clone());
    Answer::ok(message)
}

/// Why a message cannot go to `channel_id` (a text channel, a thread, or a DM channel), if it
/// cannot; an archived thread that is not locked is reopened by a new message, as on Discord.
fn place_refusal(
    state: &FakeState,
    channel_id: u64,
    editing: bool,
    needs: MessageNeeds,
) -> Option<Answer> {
    if let Some(user) = state.dm_recipient(channel_id) {
        let closed = locked(&state.threads).closed_dms.contains(&user);
        return closed.then(|| Refusal::CannotMessageUser.answer());
    }
    if let Some(thread) = state.thread(channel_id) {
        if let Err(missing) =
            threads::may_post_in_thread(state.bot_permissions_in(channel_id), needs.files)
        {
            tracing::info!("fake Discord: refused a message in thread {channel_id}: no {missing}");
            return Some(Refusal::MissingPermissions.answer());
        }
        if thread.archived {
            if thread.locked || editing {
                return Some(Refusal::ThreadArchived.answer());
            }
            if let Some(live) = locked(&state.threads).threads.get_mut(&channel_id) {
                live.archived = false;
            }
        }
        return None;
    }
    if !state.channel_exists(channel_id) {
        return Some(Refusal::UnknownChannel.answer());
    }
    if let Err((refusal, missing)) =
        permissions::check_message(state.bot_permissions_in(channel_id), needs)
    {
        tracing::info!("fake Discord: refused a message in {channel_id}: no {missing}");
        return Some(refusal.answer());
    }
    None
}

/// `POST /channels/{id}/threads`: a public thread under a text channel.
fn create_thread(state: &FakeState, parent: u64, incoming: &Incoming) -> Answer {
    if !state.channel_exists(parent) {
        return Refusal::UnknownChannel.answer();
    }
    let bits = state.bot_permissions_in(parent);
    if bits & permissions::VIEW_CHANNEL == 0 || bits & threads::CREATE_PUBLIC_THREADS == 0 {
        return Refusal::MissingPermissions.answer();
    }
    if locked(&state.threads).at_active_limit() {
        return Refusal::MaximumActiveThreads.answer();
    }
    let body = incoming.json.as_ref();
    let kind = body.and_then(|b| b.get("type")).and_then(Value::as_u64);
    if kind != Some(11) {
        state.problem(format!(
            "thread created with type {kind:?}: the bot creates public threads (11)"
        ));
    }
    let now = now_rfc3339();
    let thread = threads::FakeThread {
        id: state.next_id(),
        parent_id: parent,
        name: body
            .and_then(|b| b.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        archived: false,
        locked: false,
        created_at: now.clone(),
    };
    let answer = thread.to_json(state.guild_id, state.bot.id, &now);
    check_answer::<serenity::model::channel::GuildChannel>(state, "thread", &answer);
    locked(&state.threads).threads.insert(thread.id, thread);
    Answer::created(answer)
}

/// `PATCH /channels/{id}` of a thread: archive or unarchive it (lock, rename).
fn edit_thread(state: &FakeState, channel_id: u64, incoming: &Incoming) -> Answer {
    let Some(thread) = state.thread(channel_id) else {
        return Refusal::UnknownChannel.answer();
    };
    let body = incoming.json.clone().unwrap_or(json!({}));
    let parent_bits = state.bot_permissions_in(channel_id);
    let unarchiving = body.get("archived").and_then(Value::as_bool) == Some(false);
    if unarchiving && thread.locked && parent_bits & threads::MANAGE_THREADS == 0 {
        return Refusal::MissingPermissions.answer();
    }
    let mut all = locked(&state.threads);
    let Some(live) = all.threads.get_mut(&channel_id) else {
        return Refusal::UnknownChannel.answer();
    };
    if let Some(archived) = body.get("archived").and_then(Value::as_bool) {
        live.archived = archived;
    }
    if let Some(locked_now) = body.get("locked").and_then(Value::as_bool) {
        live.locked = locked_now;
    }
    if let Some(name) = body.get("name").and_then(Value::as_str) {
        live.name = name.to_owned();
    }
    let answer = live.to_json(state.guild_id, state.bot.id, &now_rfc3339());
    drop(all);
    check_answer::<serenity::model::channel::GuildChannel>(state, "thread", &answer);
    Answer::ok(answer)
}

/// `POST /users/@me/channels`: the DM channel of a member of the guild.
fn open_dm(state: &FakeState, incoming: &Incoming) -> Answer {
    let recipient: Option<u64> = incoming
        .json
        .as_ref()
        .and_then(|b| b.get("recipient_id"))
        .and_then(|r| match r {
            Value::String(s) => s.parse().ok(),
            other => other.as_u64(),
        });
    let member =
        recipient.and_then(|id| locked(&state.members).iter().find(|m| m.id == id).cloned());
    let Some(member) = member else {
        state.problem(format!(
            "the bot opened a DM with {recipient:?}, who is no member of the guild"
        ));
        return Refusal::UnknownUser.answer();
    };
    let channel = locked(&state.threads).dm_channel_of(member.id, || state.next_id());
    let answer = json!({
        "id": channel.to_string(),
        "type": 1,
        "flags": 0,
        "last_message_id": null,
        "recipients": [payloads::user(&member)],
    });
    check_answer::<serenity::model::channel::PrivateChannel>(state, "DM channel", &answer);
    Answer::ok(answer)
}

fn message_id(message: &Value) -> Option<u64> {
    message.get("id")?.as_str()?.parse().ok()
}

fn message_channel(message: &Value) -> Option<u64> {
    message.get("channel_id")?.as_str()?.parse().ok()
}

fn interaction_callback(
    state: &FakeState,
    token: &str,
    incoming: &Incoming,
    recorded: &mut Recorded,
) -> Answer {
    let limits = *locked(&state.interaction_limits);
    let judged = locked(&state.interactions).get_mut(token).map(|info| {
        info.take_callback(&limits)
            .map(|()| (info.channel_id, info.component_message))
    });
    let (channel_id, clicked) = match judged {
        None => {
            state.problem(format!(
                "interaction callback for a token the fake never issued: {token}"
            ));
            return Refusal::UnknownInteraction.answer();
        }
        Some(Err(broken)) => return state.rule_broken(broken),
        Some(Ok(answer)) => answer,
    };
    let body = incoming.json.as_ref();
    let kind = body.and_then(|j| j.get("type")).and_then(Value::as_u64);
    let flags = body
        .and_then(|j| j.get("data"))
        .and_then(|d| d.get("flags"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if let (Some(kind), Some(entry)) = (kind, locked(&state.interactions).get_mut(token)) {
        entry.note_callback(kind, flags);
    }
    match kind {
        // A message in reply: it becomes the original response.
        Some(4) => {
            let data = body
                .and_then(|j| j.get("data"))
                .cloned()
                .unwrap_or(json!({}));
            let message =
                store_payload(state, channel_id, None, true, &data, &incoming.attachments);
            if let Some(entry) = locked(&state.interactions).get_mut(token) {
                entry.original_message = message_id(&message);
            }
            recorded.message = Some(message);
        }
        // An update of the clicked message edits it, as Discord does.
        Some(7) => {
            let existing = clicked.and_then(|id| locked(&state.messages).get(&id).cloned());
            let data = body.and_then(|j| j.get("data")).cloned();
            match (existing, data) {
                (Some(existing), Some(data)) => {
                    let message = store_payload(
                        state,
                        channel_id,
                        Some(&existing),
                        true,
                        &data,
                        &incoming.attachments,
                    );
                    recorded.message = Some(message);
                }
                (None, _) => state.problem(format!(
                    "an update (callback type 7) of interaction {token}, which is not on a message"
                )),
                (Some(_), None) => {}
            }
        }
        // Deferrals, autocomplete choices, modal: nothing stored.
        Some(5 | 6 | 8 | 9) => {}
        other => state.problem(format!(
            "interaction callback with an unknown type {other:?}"
        )),
    }
    Answer::no_content()
}

/// Creates (or, with `existing`, edits) a message from the request's payload and files.
fn store_message(
    state: &FakeState,
    channel_id: u64,
    existing: Option<&Value>,
    by_webhook: bool,
    incoming: &Incoming,
) -> Value {
    let empty = json!({});
    let payload = incoming.json.as_ref().unwrap_or(&empty);
    store_payload(
        state,
        channel_id,
        existing,
        by_webhook,
        payload,
        &incoming.attachments,
    )
}

/// Creates or edits a message, checks serenity can read it, and stores it. An edit keeps the
/// fields the payload leaves out, and the attachments it keeps (all of them, without an
/// `attachments` list), as Discord does.
fn store_payload(
    state: &FakeState,
    channel_id: u64,
    existing: Option<&Value>,
    by_webhook: bool,
    payload: &Value,
    files: &[RecordedAttachment],
) -> Value {
    let id = existing
        .and_then(message_id)
        .unwrap_or_else(|| state.next_id());
    let ids: Vec<u64> = files.iter().map(|_| state.next_id()).collect();
    let stored: Vec<StoredAttachment<'_>> = files
        .iter()
        .zip(&ids)
        .map(|(a, id)| StoredAttachment {
            id: *id,
            filename: &a.filename,
            size: a.bytes.len(),
            content_type: a.content_type.as_deref(),
            image_size: payloads::png_size(&a.bytes),
        })
        .collect();
    let merged = existing.map(|old| edited_payload(old, payload));
    let kept: Vec<Value> = existing
        .map(|old| kept_attachments(old, payload))
        .unwrap_or_default();
    let now = now_rfc3339();
    let message = payloads::message(&payloads::MessageSpec {
        id,
        channel_id,
        // A direct message belongs to no guild.
        guild_id: state
            .dm_recipient(channel_id)
            .is_none()
            .then(|| state.guild_of(channel_id)),
        author: &state.bot,
        application_id: state.application_id,
        webhook_id: by_webhook.then_some(state.application_id),
        payload: merged.as_ref().unwrap_or(payload),
        kept_attachments: &kept,
        attachments: &stored,
        now: &now,
        edited: existing.is_some(),
        base_url: &state.base_url,
    });
    check_answer::<serenity::model::channel::Message>(state, "message", &message);
    locked(&state.messages).insert(id, message.clone());
    message
}

/// The payload of an edit, with the fields it leaves out taken from the message as it was.
fn edited_payload(old: &Value, payload: &Value) -> Value {
    let mut merged = json!({});
    for field in ["content", "embeds", "components", "flags"] {
        let value = payload.get(field).or_else(|| old.get(field));
        if let (Some(value), Some(map)) = (value, merged.as_object_mut()) {
            map.insert(field.to_owned(), value.clone());
        }
    }
    merged
}

/// The attachments an edit keeps: those its `attachments` list names, or all without one.
fn kept_attachments(old: &Value, payload: &Value) -> Vec<Value> {
    let old_attachments = old
        .get("attachments")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    match payload.get("attachments").and_then(Value::as_array) {
        None => old_attachments,
        Some(listed) => {
            let keep: Vec<&Value> = listed.iter().filter_map(|a| a.get("id")).collect();
            old_attachments
                .into_iter()
                .filter(|a| a.get("id").is_some_and(|id| keep.contains(&id)))
                .collect()
        }
    }
}
