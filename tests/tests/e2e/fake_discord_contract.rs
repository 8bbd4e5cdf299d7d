//! The fake Discord itself, driven without the bot: a raw client (reqwest for REST, a WebSocket
//! for the gateway) shows that the fake answers as Discord does, and reports what breaks
//! Discord's contract.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::HeaderMap;
use serde_json::{Value, json};
use taflbot_e2e::fake_discord::permissions::{SEND_MESSAGES, VIEW_CHANNEL};
use taflbot_e2e::fake_discord::{
    FakeDiscord, FakeUser, Fault, RouteKind, RouteMatch, SentInteraction,
};
use taflbot_e2e::world::WAIT;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A gateway frame, or how the connection closed.
#[derive(Debug)]
pub(crate) enum Received {
    Frame(Value),
    Closed(Option<u16>),
}

/// Connects a raw WebSocket client to the fake gateway and reads HELLO.
pub(crate) async fn connect(fake: &FakeDiscord) -> Socket {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("{}?v=10", fake.gateway_url()))
        .await
        .expect("the fake gateway accepts a connection");
    let hello = frame(&mut socket).await;
    assert_eq!(hello["op"], 10, "HELLO first: {hello}");
    socket
}

/// The next frame (or close) from the gateway; fails loudly after [`WAIT`].
pub(crate) async fn receive(socket: &mut Socket) -> Received {
    loop {
        let next = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("the fake gateway sends something in time");
        match next {
            Some(Ok(Message::Text(text))) => {
                return Received::Frame(serde_json::from_str(&text).expect("a JSON frame"));
            }
            Some(Ok(Message::Close(frame))) => {
                return Received::Closed(frame.map(|f| u16::from(f.code)));
            }
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return Received::Closed(None),
        }
    }
}

async fn frame(socket: &mut Socket) -> Value {
    match receive(socket).await {
        Received::Frame(frame) => frame,
        closed => panic!("expected a frame, the gateway {closed:?}"),
    }
}

pub(crate) async fn send(socket: &mut Socket, frame: Value) {
    socket
        .send(Message::Text(frame.to_string().into()))
        .await
        .expect("the frame is sent");
}

async fn identify(socket: &mut Socket) {
    send(
        socket,
        json!({ "op": 2, "d": { "token": "Bot raw", "intents": 1, "properties": {} } }),
    )
    .await;
}

/// A fake with a raw client identified on its gateway (READY and GUILD_CREATE read) and a
/// `/ping` command registered, so the fake can send interactions.
struct RawBot {
    fake: FakeDiscord,
    socket: Socket,
    session_id: String,
    http: reqwest::Client,
    user: FakeUser,
}

/// A REST answer: status, JSON body (`Null` when empty) and headers.
struct Reply {
    status: u16,
    body: Value,
    headers: HeaderMap,
}

/// `body` with `allowed_mentions: {parse: []}` on the message it carries, unless it has one.
fn pinging_nobody(mut body: Value) -> Value {
    let carries_data = matches!(body.get("type").and_then(Value::as_u64), Some(4 | 7));
    let message = if carries_data {
        body.get_mut("data")
    } else if body.get("type").is_none() {
        Some(&mut body)
    } else {
        None
    };
    if let Some(Value::Object(message)) = message {
        message
            .entry("allowed_mentions")
            .or_insert_with(|| json!({ "parse": [] }));
    }
    body
}

impl RawBot {
    async fn start() -> RawBot {
        let fake = FakeDiscord::start().await.expect("the fake starts");
        // A raw client reads no rate-limit headers: these tests check other rules.
        fake.lift_rate_limits();
        let mut socket = connect(&fake).await;
        identify(&mut socket).await;
        let ready = frame(&mut socket).await;
        assert_eq!(
            (ready["t"].as_str(), ready["s"].as_u64()),
            (Some("READY"), Some(1))
        );
        let session_id = ready["d"]["session_id"].as_str().unwrap().to_owned();
        assert_eq!(ready["d"]["resume_gateway_url"], fake.gateway_url());
        let guild = frame(&mut socket).await;
        assert_eq!(guild["t"], "GUILD_CREATE");
        let user = fake.new_user("alice");
        let bot = RawBot {
            fake,
            socket,
            session_id,
            http: reqwest::Client::new(),
            user,
        };
        let path = format!(
            "/applications/{}/guilds/{}/commands",
            bot.fake.application_id(),
            bot.fake.guild_id()
        );
        let registered = bot
            .request(
                reqwest::Method::PUT,
                &path,
                json!([{ "name": "ping", "description": "Ping", "type": 1 }]),
            )
            .await;
        assert_eq!(registered.status, 200, "{}", registered.body);
        bot
    }

    /// Sends `body` as a well-behaved bot does: a message that does not say whom it pings pings
    /// nobody (a test of that rule sends its body with [`RawBot::request_as_is`]).
    async fn request(&self, method: reqwest::Method, path: &str, body: Value) -> Reply {
        self.request_as_is(method, path, pinging_nobody(body)).await
    }

    async fn request_as_is(&self, method: reqwest::Method, path: &str, body: Value) -> Reply {
        let url = format!("{}/v10{path}", self.fake.api_base());
        let response = self
            .http
            .request(method, url)
            .header("Authorization", "Bot raw")
            .json(&body)
            .send()
            .await
            .expect("the fake answers");
        reply(response).await
    }

    async fn post(&self, path: &str, body: Value) -> Reply {
        self.request(reqwest::Method::POST, path, body).await
    }

    /// `alice` runs `/ping` in `channel`: the fake sends the interaction through the gateway.
    async fn ping(&mut self, channel: u64) -> SentInteraction {
        let sent = self.fake.slash(&self.user, channel, "ping", &[]).unwrap();
        let event = frame(&mut self.socket).await;
        assert_eq!(event["t"], "INTERACTION_CREATE");
        sent
    }

    fn callback_path(sent: &SentInteraction) -> String {
        format!("/interactions/{}/{}/callback", sent.id, sent.token)
    }

    fn followup_path(&self, sent: &SentInteraction) -> String {
        format!("/webhooks/{}/{}", self.fake.application_id(), sent.token)
    }

    /// The problems found so far, taken (so the next check starts afresh).
    fn problems(&self) -> Vec<String> {
        self.fake.take_problems()
    }
}

async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap_or_default();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        body,
        headers,
    }
}

fn assert_refused(reply: &Reply, status: u16, code: u64) {
    assert_eq!(
        (reply.status, reply.body["code"].as_u64()),
        (status, Some(code)),
        "{}",
        reply.body
    );
}

fn messages_path(channel: u64) -> String {
    format!("/channels/{channel}/messages")
}

#[tokio::test]
async fn a_body_that_breaks_the_description_is_reported_with_route_and_error() {
    let bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let broken = bot
        .post(&messages_path(channel), json!({ "content": 7 }))
        .await;
    let problems = bot.problems();
    assert_eq!(problems.len(), 1, "{problems:#?}");
    for part in [
        "POST /channels/{channel_id}/messages",
        "request",
        "at /content",
        "string",
    ] {
        assert!(problems[0].contains(part), "{part:?} in {}", problems[0]);
    }
    // Served all the same: the description is stricter than Discord in places.
    assert_eq!(broken.status, 200);

    let fine = bot
        .post(&messages_path(channel), json!({ "content": "hello" }))
        .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
    assert!(bot.problems().is_empty(), "a valid body is no problem");

    let unknown = bot.post("/no/such/route", json!({})).await;
    assert_refused(&unknown, 404, 0);
    let problems = bot.problems();
    assert!(
        problems[0].contains("not a route of Discord's API description"),
        "{problems:#?}"
    );
}

#[tokio::test]
async fn limits_the_description_leaves_out_are_refused_with_50035() {
    let mut bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let at_limit = bot
        .post(
            &messages_path(channel),
            json!({ "content": "x".repeat(2000) }),
        )
        .await;
    assert_eq!(at_limit.status, 200, "{}", at_limit.body);

    let too_long = bot
        .post(
            &messages_path(channel),
            json!({ "content": "x".repeat(2001) }),
        )
        .await;
    assert_refused(&too_long, 400, 50035);
    assert_eq!(too_long.body["message"], "Invalid Form Body");
    assert_eq!(
        too_long.body["errors"]["content"]["_errors"][0]["code"],
        "BASE_TYPE_MAX_LENGTH"
    );
    let problems = bot.problems();
    assert!(
        problems[0].contains("content"),
        "a problem too: {problems:#?}"
    );

    let button = |id: &str| {
        json!({ "content": "x", "components": [{ "type": 1, "components": [
            { "type": 2, "style": 1, "label": "Go", "custom_id": id }
        ] }] })
    };
    let ok = bot
        .post(&messages_path(channel), button(&"b".repeat(100)))
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let long_id = bot
        .post(&messages_path(channel), button(&"b".repeat(101)))
        .await;
    assert_refused(&long_id, 400, 50035);
    assert!(
        long_id.body["errors"]["components"]["0"]["components"]["0"]["custom_id"]["_errors"]
            .is_array(),
        "{}",
        long_id.body
    );
    // Both the description (maxLength 100 here) and Discord's limit name the field.
    let problems = bot.problems();
    assert!(
        problems.iter().all(|p| p.contains("custom_id")),
        "{problems:#?}"
    );

    let title = bot
        .post(
            &messages_path(channel),
            json!({ "embeds": [{ "title": "t".repeat(257) }] }),
        )
        .await;
    assert_refused(&title, 400, 50035);
    assert!(
        title.body["errors"]["embeds"]["0"]["title"].is_object(),
        "{}",
        title.body
    );
    let fields: Vec<Value> = (0..26)
        .map(|i| json!({ "name": format!("f{i}"), "value": "v" }))
        .collect();
    let many = bot
        .post(
            &messages_path(channel),
            json!({ "embeds": [{ "fields": fields }] }),
        )
        .await;
    assert_refused(&many, 400, 50035);
    assert!(!bot.problems().is_empty());

    let sent = bot.ping(channel).await;
    let choices: Vec<Value> = (0..26)
        .map(|i| json!({ "name": format!("c{i}"), "value": format!("c{i}") }))
        .collect();
    let autocomplete = bot
        .post(
            &RawBot::callback_path(&sent),
            json!({ "type": 8, "data": { "choices": choices } }),
        )
        .await;
    assert_refused(&autocomplete, 400, 50035);
    assert!(
        autocomplete.body["errors"]["data"]["choices"]["_errors"].is_array(),
        "{}",
        autocomplete.body
    );
    let problems = bot.problems();
    assert!(
        !problems.is_empty() && problems.iter().all(|p| p.contains("choices")),
        "{problems:#?}"
    );
}

#[tokio::test]
async fn a_late_first_answer_gets_10062_and_a_second_one_40060() {
    let mut bot = RawBot::start().await;
    let channel = bot.fake.channel();
    bot.fake.expect_protocol_refusals();

    // No time at all for the first answer: every callback is late.
    bot.fake
        .set_interaction_limits(Duration::ZERO, Duration::from_secs(900));
    let late = bot.ping(channel).await;
    let answer = bot
        .post(
            &RawBot::callback_path(&late),
            json!({ "type": 4, "data": { "content": "pong" } }),
        )
        .await;
    assert_refused(&answer, 404, 10062);
    assert_eq!(answer.body["message"], "Unknown interaction");

    bot.fake
        .set_interaction_limits(Duration::from_secs(3), Duration::from_secs(900));
    let sent = bot.ping(channel).await;
    let first = bot
        .post(&RawBot::callback_path(&sent), json!({ "type": 5 }))
        .await;
    assert_eq!(first.status, 204, "{}", first.body);
    let second = bot
        .post(&RawBot::callback_path(&sent), json!({ "type": 5 }))
        .await;
    assert_refused(&second, 400, 40060);
    assert_eq!(
        second.body["message"],
        "Interaction has already been acknowledged."
    );
    // Expected by this test: refused, but no problem.
    assert!(bot.problems().is_empty());
    let statuses: Vec<u16> = bot
        .fake
        .recorder()
        .all()
        .iter()
        .filter(|r| matches!(r.kind, RouteKind::InteractionCallback { .. }))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, [404, 204, 400]);
}

#[tokio::test]
async fn a_late_answer_the_test_did_not_expect_is_a_problem() {
    let mut bot = RawBot::start().await;
    bot.fake
        .set_interaction_limits(Duration::ZERO, Duration::from_secs(900));
    let sent = bot.ping(bot.fake.channel()).await;
    let answer = bot
        .post(&RawBot::callback_path(&sent), json!({ "type": 5 }))
        .await;
    assert_refused(&answer, 404, 10062);
    let problems = bot.problems();
    assert!(problems[0].contains("first answer"), "{problems:#?}");
}

#[tokio::test]
async fn an_expired_token_gets_50027() {
    let mut bot = RawBot::start().await;
    bot.fake.expect_protocol_refusals();
    bot.fake
        .set_interaction_limits(Duration::from_secs(3), Duration::ZERO);
    let sent = bot.ping(bot.fake.channel()).await;
    let deferred = bot
        .post(&RawBot::callback_path(&sent), json!({ "type": 5 }))
        .await;
    assert_eq!(deferred.status, 204);
    let followup = bot
        .post(&bot.followup_path(&sent), json!({ "content": "later" }))
        .await;
    assert_refused(&followup, 401, 50027);
    assert_eq!(followup.body["message"], "Invalid Webhook Token");
    let edit = bot
        .request(
            reqwest::Method::PATCH,
            &format!("{}/messages/@original", bot.followup_path(&sent)),
            json!({ "content": "edited" }),
        )
        .await;
    assert_refused(&edit, 401, 50027);
    assert!(bot.problems().is_empty());
}

#[tokio::test]
async fn unknown_channels_and_missing_permissions_are_refused() {
    let mut bot = RawBot::start().await;
    let gone = bot.fake.new_channel("gone");
    bot.fake.delete_channel(gone).unwrap();
    let event = frame(&mut bot.socket).await;
    assert_eq!(event["t"], "CHANNEL_DELETE", "the bot is told: {event}");
    let deleted = bot
        .post(&messages_path(gone), json!({ "content": "hi" }))
        .await;
    assert_refused(&deleted, 404, 10003);
    assert_eq!(deleted.body["message"], "Unknown Channel");
    let never = bot
        .post(&messages_path(42), json!({ "content": "hi" }))
        .await;
    assert_refused(&never, 404, 10003);

    let quiet = bot.fake.new_channel("quiet");
    bot.fake.set_bot_permissions(quiet, VIEW_CHANNEL);
    let no_send = bot
        .post(&messages_path(quiet), json!({ "content": "hi" }))
        .await;
    assert_refused(&no_send, 403, 50013);
    assert_eq!(no_send.body["message"], "Missing Permissions");

    bot.fake
        .set_bot_permissions(quiet, VIEW_CHANNEL | SEND_MESSAGES);
    let text = bot
        .post(&messages_path(quiet), json!({ "content": "hi" }))
        .await;
    assert_eq!(text.status, 200, "{}", text.body);
    let embed = bot
        .post(
            &messages_path(quiet),
            json!({ "embeds": [{ "title": "t" }] }),
        )
        .await;
    assert_refused(&embed, 403, 50013);
    let form = reqwest::multipart::Form::new()
        .text(
            "payload_json",
            json!({ "content": "board", "allowed_mentions": { "parse": [] },
                    "attachments": [{ "id": 0, "filename": "board.png", "description": "a board" }] })
            .to_string(),
        )
        .part(
            "files[0]",
            reqwest::multipart::Part::bytes(b"\x89PNG\r\n\x1a\nnot really".to_vec())
                .file_name("board.png")
                .mime_str("image/png")
                .unwrap(),
        );
    let file = bot
        .http
        .post(format!(
            "{}/v10{}",
            bot.fake.api_base(),
            messages_path(quiet)
        ))
        .header("Authorization", "Bot raw")
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_refused(&reply(file).await, 403, 50013);

    // An interaction's answer is not subject to the channel's permissions, as on Discord.
    let sent = bot.ping(quiet).await;
    let answer = bot
        .post(
            &RawBot::callback_path(&sent),
            json!({ "type": 4, "data": { "embeds": [{ "title": "t" }] } }),
        )
        .await;
    assert_eq!(answer.status, 204, "{}", answer.body);
    let accepted: Vec<Value> = bot.fake.channel_messages(quiet);
    assert_eq!(
        accepted.len(),
        2,
        "the text post and the answer: {accepted:#?}"
    );
    assert_eq!(accepted[0]["content"], "hi");
    assert!(bot.problems().is_empty(), "expected answers, not problems");
}

#[tokio::test]
async fn scripted_faults_come_in_order_then_normal_service_resumes() {
    let bot = RawBot::start().await;
    let channel = bot.fake.channel();
    bot.fake.fail_next(
        RouteMatch::ChannelMessagesIn(channel),
        &[
            Fault::ServerError,
            Fault::RateLimited {
                retry_after: Duration::from_millis(250),
            },
        ],
    );
    let path = messages_path(channel);
    let post = || bot.post(&path, json!({ "content": "hi" }));
    let server_error = post().await;
    assert_eq!(server_error.status, 500);
    assert_eq!(
        server_error.body,
        json!({ "code": 0, "message": "500: Internal Server Error" })
    );
    let limited = post().await;
    assert_eq!(limited.status, 429);
    assert_eq!(limited.body["message"], "You are being rate limited.");
    assert_eq!(limited.body["retry_after"], 0.25);
    assert_eq!(limited.body["global"], false);
    let header = |name: &str| {
        limited
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header("retry-after").as_deref(), Some("1"));
    assert_eq!(header("x-ratelimit-remaining").as_deref(), Some("0"));
    assert_eq!(header("x-ratelimit-reset-after").as_deref(), Some("0.250"));
    assert_eq!(header("x-ratelimit-scope").as_deref(), Some("user"));
    for name in [
        "x-ratelimit-limit",
        "x-ratelimit-reset",
        "x-ratelimit-bucket",
    ] {
        assert!(header(name).is_some(), "{name}");
    }
    let served = post().await;
    assert_eq!(served.status, 200, "{}", served.body);

    let statuses: Vec<u16> = bot
        .fake
        .recorder()
        .all()
        .iter()
        .filter(|r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
        })
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, [500, 429, 200]);
    assert_eq!(
        bot.fake.channel_messages(channel).len(),
        1,
        "only one accepted"
    );

    bot.fake.fail_command_registration(1);
    let path = format!(
        "/applications/{}/guilds/{}/commands",
        bot.fake.application_id(),
        bot.fake.guild_id()
    );
    let commands = json!([{ "name": "ping", "description": "Ping", "type": 1 }]);
    let failed = bot
        .request(reqwest::Method::PUT, &path, commands.clone())
        .await;
    assert_eq!(failed.status, 500);
    let again = bot.request(reqwest::Method::PUT, &path, commands).await;
    assert_eq!(again.status, 200);
    assert!(bot.problems().is_empty(), "scripted faults are no problem");
}

#[tokio::test]
async fn a_rejected_identify_closes_the_connection_with_its_code() {
    let fake = FakeDiscord::start().await.unwrap();
    fake.reject_identify(4004);
    let mut socket = connect(&fake).await;
    identify(&mut socket).await;
    match receive(&mut socket).await {
        Received::Closed(code) => assert_eq!(code, Some(4004)),
        other => panic!("expected a close with 4004, got {other:?}"),
    }
    assert_eq!(fake.rejected_identifies(), 1);
    assert_eq!(fake.sessions(), 0);

    fake.accept_identify();
    let mut socket = connect(&fake).await;
    identify(&mut socket).await;
    assert_eq!(frame(&mut socket).await["t"], "READY");
    fake.wait_for_sessions(1, WAIT).await.unwrap();
}

#[tokio::test]
async fn a_resume_replays_the_missed_events_then_resumed() {
    let mut bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let seen = bot.ping(channel).await; // seq 3, read by the client
    bot.fake.close_gateway(4000).unwrap();
    match receive(&mut bot.socket).await {
        Received::Closed(code) => assert_eq!(code, Some(4000)),
        other => panic!("expected a close with 4000, got {other:?}"),
    }
    // While the client is away, events wait in its session.
    let missed = bot.fake.slash(&bot.user, channel, "ping", &[]).unwrap();

    let mut socket = connect(&bot.fake).await;
    let resume =
        json!({ "op": 6, "d": { "token": "Bot raw", "session_id": bot.session_id, "seq": 3 } });
    send(&mut socket, resume).await;
    let replayed = frame(&mut socket).await;
    assert_eq!(
        (replayed["t"].as_str(), replayed["s"].as_u64()),
        (Some("INTERACTION_CREATE"), Some(4))
    );
    assert_eq!(replayed["d"]["id"], missed.id.to_string());
    assert_ne!(replayed["d"]["id"], seen.id.to_string());
    let resumed = frame(&mut socket).await;
    assert_eq!(
        (resumed["t"].as_str(), resumed["s"].as_u64()),
        (Some("RESUMED"), Some(5))
    );
    bot.fake.wait_for_resumes(1, WAIT).await.unwrap();
    assert_eq!(bot.fake.sessions(), 1, "a resume is not a new session");

    // The resumed connection receives what comes next.
    bot.fake.send_reconnect().unwrap();
    assert_eq!(frame(&mut socket).await["op"], 7);
    bot.fake.send_invalid_session(false).unwrap();
    assert_eq!(frame(&mut socket).await, json!({ "op": 9, "d": false }));

    // That session is over: resuming it is refused.
    let mut again = connect(&bot.fake).await;
    let resume =
        json!({ "op": 6, "d": { "token": "Bot raw", "session_id": bot.session_id, "seq": 5 } });
    send(&mut again, resume).await;
    assert_eq!(frame(&mut again).await, json!({ "op": 9, "d": false }));
    let mut unknown = connect(&bot.fake).await;
    let resume = json!({ "op": 6, "d": { "token": "Bot raw", "session_id": "nope", "seq": 1 } });
    send(&mut unknown, resume).await;
    assert_eq!(frame(&mut unknown).await, json!({ "op": 9, "d": false }));
    assert!(bot.problems().is_empty());
}

/// A multipart post of one PNG, with `attachments` as the payload lists them.
async fn post_image(bot: &RawBot, channel: u64, attachments: Value) -> Reply {
    let form = reqwest::multipart::Form::new()
        .text(
            "payload_json",
            json!({ "content": "board", "allowed_mentions": { "parse": [] }, "attachments": attachments })
                .to_string(),
        )
        .part(
            "files[0]",
            reqwest::multipart::Part::bytes(b"\x89PNG\r\n\x1a\nnot really".to_vec())
                .file_name("board.png")
                .mime_str("image/png")
                .unwrap(),
        );
    let response = bot
        .http
        .post(format!(
            "{}/v10{}",
            bot.fake.api_base(),
            messages_path(channel)
        ))
        .header("Authorization", "Bot raw")
        .multipart(form)
        .send()
        .await
        .unwrap();
    reply(response).await
}

#[tokio::test]
async fn an_image_without_alt_text_is_a_problem_of_the_bot() {
    let bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let bare = post_image(&bot, channel, json!([{ "id": 0, "filename": "board.png" }])).await;
    assert_eq!(bare.status, 200, "Discord takes it: {}", bare.body);
    let problems = bot.problems();
    assert!(
        problems.len() == 1 && problems[0].contains("no description"),
        "{problems:#?}"
    );
    let described = post_image(
        &bot,
        channel,
        json!([{ "id": 0, "filename": "board.png", "description": "Tafl board" }]),
    )
    .await;
    assert_eq!(described.status, 200, "{}", described.body);
    assert!(bot.problems().is_empty());
}

#[tokio::test]
async fn component_layouts_beyond_discords_limits_are_refused_with_50035() {
    let bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let buttons = |n: usize| {
        json!({ "type": 1, "components": (0..n).map(|i| json!({
            "type": 2, "style": 1, "label": "Go", "custom_id": format!("b{i}")
        })).collect::<Vec<_>>() })
    };
    let select = |n: usize| {
        json!({ "type": 1, "components": [{ "type": 3, "custom_id": "menu",
            "options": (0..n).map(|i| json!({ "label": format!("o{i}"), "value": format!("o{i}") }))
                .collect::<Vec<_>>() }] })
    };
    let fine = bot
        .post(
            &messages_path(channel),
            json!({ "content": "x", "components": [buttons(5), select(25)] }),
        )
        .await;
    assert_eq!(fine.status, 200, "{}", fine.body);
    let problems = bot.problems();
    assert!(problems.is_empty(), "{problems:#?}");
    for (what, components) in [
        ("six buttons in a row", json!([buttons(6)])),
        (
            "six rows",
            json!((0..6).map(|_| buttons(1)).collect::<Vec<_>>()),
        ),
        ("26 options", json!([select(26)])),
    ] {
        let refused = bot
            .post(
                &messages_path(channel),
                json!({ "content": "x", "components": components }),
            )
            .await;
        assert_eq!(
            (refused.status, refused.body["code"].as_u64()),
            (400, Some(50035)),
            "{what}: {}",
            refused.body
        );
        assert!(!bot.problems().is_empty(), "{what} is a problem of the bot");
    }
}

#[tokio::test]
async fn a_selection_is_injected_and_an_update_edits_the_clicked_message() {
    let mut bot = RawBot::start().await;
    let channel = bot.fake.channel();
    let menu = json!({ "content": "pick", "components": [{ "type": 1, "components": [{
        "type": 3, "custom_id": "menu",
        "options": [{ "label": "A", "value": "a" }, { "label": "B", "value": "b" }]
    }] }] });
    let posted = bot.post(&messages_path(channel), menu).await;
    assert_eq!(posted.status, 200, "{}", posted.body);
    let message = posted.body.clone();

    let refused = bot.fake.select(&bot.user, &message, "menu", &["z"]);
    assert!(
        refused.is_err(),
        "a value the menu does not offer is the test's mistake"
    );
    assert!(
        bot.fake
            .select(&bot.user, &message, "other", &["a"])
            .is_err()
    );

    let sent = bot
        .fake
        .select(&bot.user, &message, "menu", &["b"])
        .unwrap();
    let event = frame(&mut bot.socket).await;
    assert_eq!(event["t"], "INTERACTION_CREATE");
    assert_eq!(event["d"]["type"], 3);
    assert_eq!(event["d"]["data"]["component_type"], 3);
    assert_eq!(event["d"]["data"]["values"], json!(["b"]));
    assert_eq!(event["d"]["message"]["id"], message["id"]);

    let update = bot
        .post(
            &RawBot::callback_path(&sent),
            json!({ "type": 7, "data": { "content": "picked b", "components": [] } }),
        )
        .await;
    assert_eq!(update.status, 204, "{}", update.body);
    let id: u64 = message["id"].as_str().unwrap().parse().unwrap();
    let stored = bot.fake.message(id).unwrap();
    assert_eq!(stored["content"], "picked b");
    assert_eq!(stored["components"], json!([]));
    let problems = bot.problems();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The bot creates a public thread under `channel`.
async fn create_thread(bot: &RawBot, channel: u64) -> Reply {
    bot.request_as_is(
        reqwest::Method::POST,
        &format!("/channels/{channel}/threads"),
        json!({ "name": "alice vs bob · Brandubh", "type": 11, "auto_archive_duration": 10080 }),
    )
    .await
}

/// The bot opens the DM channel of `user`.
async fn open_dm(bot: &RawBot, user: u64) -> Reply {
    bot.request_as_is(
        reqwest::Method::POST,
        "/users/@me/channels",
        json!({ "recipient_id": user.to_string() }),
    )
    .await
}

#[tokio::test]
async fn threads_are_created_reopened_by_a_message_or_a_patch_and_deleted() {
    let bot = RawBot::start().await;
    let channel = bot.fake.new_channel("games");
    // The test guild's channels leave the thread permissions out until a test grants them.
    assert_refused(&create_thread(&bot, channel).await, 403, 50013);
    bot.fake.allow_threads(channel);
    let created = create_thread(&bot, channel).await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.body["type"], 11);
    assert_eq!(created.body["parent_id"], channel.to_string());
    let thread: u64 = created.body["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(bot.fake.threads_of(channel).len(), 1);
    let hello = bot
        .post(&messages_path(thread), json!({ "content": "hello" }))
        .await;
    assert_eq!(hello.status, 200, "{}", hello.body);
    // Archived: a message reopens it. Archived and locked: refused until unarchived.
    bot.fake.archive_thread(thread, false).unwrap();
    let reopened = bot
        .post(&messages_path(thread), json!({ "content": "again" }))
        .await;
    assert_eq!(reopened.status, 200, "{}", reopened.body);
    assert!(!bot.fake.thread(thread).unwrap().archived);
    bot.fake.archive_thread(thread, true).unwrap();
    let locked = bot
        .post(&messages_path(thread), json!({ "content": "no" }))
        .await;
    assert_refused(&locked, 400, 50083);
    let patched = bot
        .request_as_is(
            reqwest::Method::PATCH,
            &format!("/channels/{thread}"),
            json!({ "archived": false }),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert_eq!(patched.body["thread_metadata"]["archived"], false);
    let after = bot
        .post(&messages_path(thread), json!({ "content": "yes" }))
        .await;
    assert_eq!(after.status, 200, "{}", after.body);
    // Without SEND_MESSAGES_IN_THREADS in the parent, no post in its threads.
    bot.fake
        .set_bot_permissions(channel, VIEW_CHANNEL | SEND_MESSAGES);
    let refused = bot
        .post(&messages_path(thread), json!({ "content": "x" }))
        .await;
    assert_refused(&refused, 403, 50013);
    bot.fake.allow_threads(channel);
    bot.fake.delete_thread(thread).unwrap();
    let gone = bot
        .post(&messages_path(thread), json!({ "content": "x" }))
        .await;
    assert_refused(&gone, 404, 10003);
    assert_eq!(bot.fake.channel_messages(thread).len(), 3);
    assert!(bot.problems().is_empty(), "expected answers, not problems");
}

#[tokio::test]
async fn direct_messages_reach_members_unless_they_closed_them() {
    let bot = RawBot::start().await;
    let bob = bot.fake.new_user("bob");
    let opened = open_dm(&bot, bob.id).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    assert_eq!(opened.body["type"], 1);
    assert_eq!(opened.body["recipients"][0]["id"], bob.id.to_string());
    let dm: u64 = opened.body["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        open_dm(&bot, bob.id).await.body["id"],
        dm.to_string(),
        "the same channel again"
    );
    let sent = bot
        .post(&messages_path(dm), json!({ "content": "your move" }))
        .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert!(
        sent.body.get("guild_id").is_none_or(Value::is_null),
        "{}",
        sent.body
    );
    assert_eq!(bot.fake.direct_messages(&bob).len(), 1);
    bot.fake.close_dms(&bob);
    let closed = bot
        .post(&messages_path(dm), json!({ "content": "again" }))
        .await;
    assert_refused(&closed, 403, 50007);
    assert!(bot.problems().is_empty(), "expected answers, not problems");
}

#[tokio::test]
async fn interactions_carry_the_members_permissions_and_roles_and_a_threads_parent() {
    let mut bot = RawBot::start().await;
    let channel = bot.fake.new_channel("games");
    bot.fake.allow_threads(channel);
    let created = create_thread(&bot, channel).await;
    let thread: u64 = created.body["id"].as_str().unwrap().parse().unwrap();
    let role = bot.fake.new_role("moderators");
    let user = bot.user.clone();
    bot.fake.give_role(&user, role);
    bot.fake.set_member_permissions(&user, 1 << 10);
    bot.fake.slash(&user, thread, "ping", &[]).unwrap();
    let event = frame(&mut bot.socket).await;
    let data = &event["d"];
    assert_eq!(data["member"]["permissions"], (1u64 << 10).to_string());
    assert_eq!(data["member"]["roles"], json!([role.to_string()]));
    assert_eq!(data["channel"]["type"], 11);
    assert_eq!(data["channel"]["parent_id"], channel.to_string());
    // The bot's permissions in a thread are its parent's.
    let app: u64 = data["app_permissions"].as_str().unwrap().parse().unwrap();
    assert_ne!(
        app & (1 << 38),
        0,
        "SEND_MESSAGES_IN_THREADS from the parent"
    );
    assert!(bot.problems().is_empty());
}
