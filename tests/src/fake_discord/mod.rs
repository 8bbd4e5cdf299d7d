//! A local fake of Discord for end-to-end tests: REST under `/api/v10/...` and a WebSocket
//! gateway, on 127.0.0.1 with a free port. It holds the bot to Discord's contract: whatever
//! breaks it is a *problem*, which makes every wait on the [`Recorder`] fail at once and fails
//! `World::stop` (and `World::assert_clean`), with the list of problems and of requests.
//!
//! The bot under test is pointed at the fake by [`FakeDiscord::connect`]: the fake serves its
//! REST routes over TLS too, as a stand-in for `https://discord.com` (a certificate for
//! `discord.com` made at start, see `tls`), so serenity runs with its rate limiter on, as
//! against Discord; [`FakeDiscord::api_base`] is the plain-HTTP address, for raw clients and
//! for a bot with serenity's limiter off. A test injects
//! `INTERACTION_CREATE` events (slash commands, autocomplete, button clicks, string select
//! choices) as any user, and
//! reads what the bot sent from the [`Recorder`]: every REST request with its JSON (or multipart
//! `payload_json` and files) and the status the fake answered ([`Recorded::accepted`]).
//!
//! # What it models
//! - **Discord's API description** (`tests/discord-api/openapi.json`, see [`spec`]): each request
//!   is matched to its operation; a route or method the description lacks is a problem. The
//!   request body is validated against the operation's schema for its content type, and every
//!   answer of the fake against the response schema for its status. A request that breaks the
//!   description is a problem but is still served (the description is stricter than Discord in
//!   places); two places where Discord is looser than its description in what it *answers* are
//!   allowed for the fake's own answers (see `known_description_gap`); one where Discord's own
//!   reference is looser in what it *takes* (an attachment's numeric placeholder `id`, the form
//!   serenity sends) is checked as the string the description wants.
//! - **Limits the description leaves out** ([`limits`]): content 2,000 characters, 25
//!   autocomplete choices (names and string values 100 characters), `custom_id` 100 characters, embed limits (title, description,
//!   fields, footer, author, 6,000 in all, 10 embeds), component layouts (at most 5 action rows,
//!   5 buttons in a row or one select menu alone, 1 to 25 select options, option label, value
//!   and description 100, button label 80): refused 400 50035 with Discord's error tree, and a
//!   problem.
//! - **Alt text** ([`images`]): the project's accessibility rule, not Discord's: every PNG the
//!   bot uploads needs a `description` (at most 1,024 characters) in the payload's
//!   `attachments`; Discord would accept it without, so a missing one is a problem, not a
//!   refusal.
//! - **Components**: a string select choice is injected with `data.values`
//!   ([`FakeDiscord::select`]; a menu or value the message does not offer is an error of the
//!   test); an update (callback type 7) edits the message the component was on; stored select
//!   menus get Discord's default `min_values`/`max_values`.
//! - **Interaction rules** ([`interactions`]): the first callback within 3 s of the event (else
//!   404 10062), one callback only (else 400 40060), follow-ups and response edits while the
//!   token lives, 15 min (else 401 50027). A problem unless the test calls
//!   [`FakeDiscord::expect_protocol_refusals`]; both durations can be shortened (a test holds
//!   the bot to 1 s with [`FakeDiscord::set_interaction_limits`]). Deferrals as on Discord: a
//!   deferred message's placeholder (callback 5) is settled by the first follow-up or `@original`
//!   edit, which takes the placeholder's visibility whatever its own flags say; after a deferred
//!   update (callback 6) `@original` is the clicked message.
//! - **The application's id** ([`application`]): different from the bot user's id;
//!   `/webhooks/{application}/...` and `/applications/{application}/...` under another id are
//!   refused (401 50027, 403 50001) as a problem of the bot.
//! - **Channels and permissions** ([`permissions`]): permissions computed as Discord does, for
//!   members and the bot: a base from @everyone ([`FakeDiscord::set_everyone_permissions`])
//!   and the member's roles ([`FakeDiscord::new_role_granting`], [`FakeDiscord::give_role`];
//!   the bot's base is its invite's permissions and its roles'), everything for the owner or
//!   with ADMINISTRATOR, then the channel's overwrites ([`FakeDiscord::add_overwrite`]) in
//!   Discord's order: @everyone, the member's roles, the member; a thread has its parent's.
//!   They are the `member.permissions` and `app_permissions` of interactions, and what the
//!   channel routes check: 404 10003 for a channel the fake does not know or deleted, 403 50013
//!   without VIEW_CHANNEL and SEND_MESSAGES, or without EMBED_LINKS for embeds, or ATTACH_FILES
//!   for files (expected answers, not problems). [`FakeDiscord::set_bot_permissions`] sets the
//!   bot's bits in one channel outright. Interaction answers are not subject to them, as on
//!   Discord. Edits keep the fields and attachments they leave out.
//! - **Threads and direct messages** ([`threads`]): public threads created under a channel
//!   (CREATE_PUBLIC_THREADS in the parent, else 403 50013), posts in them under
//!   SEND_MESSAGES_IN_THREADS; an archived thread reopened by a message unless locked (then 400
//!   50083 until `PATCH /channels/{id}` `archived: false`, which needs MANAGE_THREADS); deleted
//!   threads answer 404 10003; past the guild's active-thread limit (Discord's 1,000, or
//!   [`FakeDiscord::limit_active_threads`]) a new thread is refused with 400 160006.
//!   `POST /users/@me/channels` opens a member's DM channel; a member
//!   with closed DMs refuses messages with 403 50007. The test guild's channels give the bot
//!   every permission but the two thread ones, unless a test calls
//!   [`FakeDiscord::allow_threads`].
//! - **Several servers** ([`guilds`]): beside the test guild, [`FakeDiscord::new_guild`] adds
//!   one with its own owner, @everyone permissions, roles ([`FakeDiscord::new_role_in`]) and
//!   channels ([`FakeDiscord::new_channel_in`]); interactions there carry its id, the member's
//!   roles there and permissions computed from its @everyone and roles; the bot's messages
//!   there belong to it.
//! - **Members**: each interaction carries the member's `permissions` in its channel (see
//!   above; [`FakeDiscord::set_member_permissions`] replaces a member's base) and `roles`
//!   ([`FakeDiscord::give_role`]); channel and role options come with their `resolved` channel
//!   and role.
//! - **Scripted faults** ([`faults`]): 500, 429 with Discord's body and rate-limit headers,
//!   403 (50013, 50001), 404, 401 on the next matching requests; failing command
//!   registrations; a channel whose requests are answered late or never (a hung connection);
//!   a revoked bot token (401 to every request it authorizes, gateway untouched).
//! - **Rate limits** ([`rate_limits`]): a bucket per route and major parameter (channel,
//!   guild, webhook or interaction with its token), 5 requests per 5 s (an interaction's
//!   webhook 5 per 2 s) unless a test sets a group's limit, with `X-RateLimit-Limit`,
//!   `-Remaining`, `-Reset`, `-Reset-After`, `-Bucket` and `-Scope` on every answer; the
//!   global limit, 50 requests a second (settable), interaction answers apart; past either a
//!   429 with Discord's body (`retry_after`, `global`) and `Retry-After`, and a problem (a bot
//!   that honours the headers never sends such a request). Invalid requests (401, 403, 429 but
//!   of scope `shared`) are counted over 10 minutes; past 10,000 (settable) every request is
//!   refused as by Discord's ban of the address, a problem. Requests count as they arrive.
//! - **Latency** ([`latency`]): a test delays the answers of a group of routes, of any route,
//!   or gateway dispatches by a base ± jitter (e.g. 100 ms ± 50 ms); none by default. Held
//!   channels (answered late or never) stay scripted faults.
//! - **Session starts and shards** ([`session_starts`]): `GET /gateway/bot` answers the
//!   recommended shard count a test sets and the daily `session_start_limit` (`total`,
//!   `remaining`, `reset_after`, `max_concurrency`); every IDENTIFY counts against it. IDENTIFY
//!   with fewer shards than a test requires is closed with 4011 (sharding required), a shard
//!   outside its count with 4010 and one past the day's limit with 4004 (both problems).
//!   `max_concurrency` is held to: one session start per bucket (`shard % max_concurrency`)
//!   per 5 s, one too soon answered op 9 and counted, from every bot connected (several
//!   instances of one bot share the buckets, as on Discord). A test can use up the day's
//!   starts until a reset it chooses ([`FakeDiscord::use_up_session_starts`]).
//! - **The bot's ping rule** (`mentions`): every message, follow-up, edit and message callback
//!   must carry `allowed_mentions`, never allowing `everyone` or roles (Discord would accept
//!   one without and ping every mention in its text, so this is a problem of the bot).
//! - **Gateway**: HELLO, IDENTIFY -> READY (with `session_id` and `resume_gateway_url`) and
//!   GUILD_CREATE, heartbeat ACKs, dispatches with a per-session `seq`; RESUME replays what the
//!   session missed, then RESUMED; an unknown or ended session gets op 9. A test can refuse
//!   IDENTIFY with a close code, close the connection, send op 7 or op 9, or silence a shard
//!   ([`FakeDiscord::silence_shard`]: no more heartbeat ACKs or dispatches on its connections,
//!   as when Discord's side hangs). A client closing with 1000 or 1001 ends its session.
//! - **The gateway on the wire** ([`gateway_wire`]): over TLS as Discord serves it, once a
//!   test calls [`FakeDiscord::serve_gateway_over_tls`]: `GET /gateway` then gives
//!   `wss://gateway.discord.gg`, served at `/` by the TLS stand-in, whose certificate names
//!   that host too; a connection whose URL asks for `compress=zlib-stream` gets every payload
//!   through one zlib context, sync-flushed, as binary frames (a large one split over two);
//!   bytes sent are counted as payloads and on the wire ([`FakeDiscord::gateway_bytes`]).
//! - **Server, channel and thread events** ([`guild_events`]): the bot removed from the guild
//!   (GUILD_DELETE without `unavailable`; the guild's channels then refuse its messages) and
//!   added back (GUILD_CREATE), a guild outage (GUILD_DELETE with `unavailable: true`),
//!   CHANNEL_DELETE ([`FakeDiscord::delete_channel`]; [`FakeDiscord::delete_channel_unseen`]
//!   deletes without it, as for a bot that missed the event), THREAD_DELETE and THREAD_UPDATE
//!   (a thread archived and locked).
//!   with 1000 or 1001 ends its session. Several shards: a guild's events go to its shard
//!   only (`gateway`).
//! - Every payload the fake sends is first parsed with serenity's own types, because serenity
//!   silently drops events it cannot read: a gap is a loud error, not a test waiting forever.
//!
//! # Not modelled
//! - Rate limits: buckets are never shared between routes (Discord shares some through
//!   its bucket hash), no per-resource `shared` 429s unless scripted, no limits of their own
//!   for message deletion or channel renames (2 per 10 minutes), one bot token (the global
//!   limit and the invalid-request count are the fake's, not per token or address); a ban
//!   lasts while more than the limit of invalid requests is in the window (Discord: an hour
//!   or more).
//! - Gateway: no zstd-stream compression and no payload compression (`compress` in IDENTIFY is
//!   ignored), no ETF encoding, no heartbeat timeout (a silent
//!   client is never dropped, heartbeat `seq` never checked), intents not checked, no
//!   guild member chunking (REQUEST_GUILD_MEMBERS is ignored), presences ignored; channels and
//!   members added after READY reach the bot only at its next session (no CHANNEL_CREATE or
//!   GUILD_MEMBER_ADD); of the channel events only CHANNEL_DELETE, THREAD_DELETE and
//!   THREAD_UPDATE are sent. GUILD_DELETE and GUILD_CREATE sent after READY go to the guild's
//!   shard (read off their `id`); a new session while the bot is removed from the guild still
//!   gets its GUILD_CREATE. A removed bot is refused with 403 50013 (Discord: 50001).
//! - Permissions: roles and overwrites live in the fake, not in GUILD_CREATE (its roles and
//!   channels carry no overwrites: the bot reads permissions from interactions only); no
//!   per-thread overwrites (a thread takes its parent's); who may run a command
//!   (`default_member_permissions`) and where (`contexts`) is not enforced (the member's
//!   `permissions` are sent for the bot to check).
//! - Threads: public threads only (no private threads, no forum posts, no thread from a
//!   message), no THREAD_CREATE dispatch (THREAD_DELETE and THREAD_UPDATE only when a test
//!   calls [`FakeDiscord::delete_thread_and_tell`] or [`FakeDiscord::lock_thread_and_tell`]),
//!   no thread members, no
//!   auto-archiving by time (a test archives).
//! - Direct messages: no DM gateway events, no DM-only interactions; a DM is refused only when
//!   the test closed that member's DMs.
//! - Messages: no edit history (an edit replaces the stored message and sets
//!   `edited_timestamp`), no attachment size limit (25 MiB) or total upload size, mentions never
//!   parsed (`mentions` always empty; `allowed_mentions` checked for the ping rule but not
//!   applied to the text), ephemeral messages stored like
//!   any other, no reactions, pins, or message deletion through channel routes.
//! - Components: no user, role, mentionable or channel selects injected (string selects
//!   only), `min_values`/`max_values` not enforced on injected choices, disabled components
//!   still clickable, no modals; the bot cannot read messages back (no Read Message History)
//!   and the fake does not serve `GET /channels/{id}/messages/{id}`.
//! - Interactions: the callback type is not checked against the interaction's type, a
//!   follow-up before the first answer is not refused (Discord: 10015), modal submits cannot be
//!   injected, and the 3 s are measured at the fake from the moment the event is handed to
//!   the gateway (so they include injected dispatch latency, as Discord's the network's).
//! - Query and path parameters (`wait`, `with_response`, snowflake formats) are not validated;
//!   headers are not checked beyond `Authorization: Bot ...`.
//! - Added guilds reach the bot only through their interactions (no GUILD_CREATE for them), and
//!   guild commands registered in the test guild answer in every guild; the test guild's outage
//!   and the bot's removal from it are modelled, not other guilds'.

pub mod answer;
mod application;
pub mod faults;
mod gateway;
mod gateway_wire;
pub mod guild_events;
pub mod guilds;
pub mod images;
pub mod interactions;
pub mod interactions_endpoint;
pub mod latency;
pub mod limits;
mod mentions;
pub mod payloads;
pub mod permissions;
pub mod rate_limits;
pub mod recorder;
mod rest;
pub mod session_starts;
pub mod spec;
pub mod threads;
mod tls;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::task::JoinHandle;

pub use faults::{Fault, Hold, RouteMatch};
pub use interactions::InteractionLimits;
pub use interactions_endpoint::{EndpointAnswer, Signing};
pub use payloads::{CommandOption, FakeUser};
pub use recorder::{Recorded, RecordedAttachment, Recorder, RouteKind, WaitEnd, WaitFailed};

use answer::Answer;
use faults::ScriptedFaults;
use interactions::{InteractionInfo, RuleBroken};

/// What can go wrong while driving the fake.
#[derive(Debug, thiserror::Error)]
pub enum FakeError {
    #[error("cannot start the fake Discord: {0}")]
    Start(#[from] std::io::Error),
    #[error("cannot start the fake Discord's TLS stand-in: {0}")]
    Tls(#[from] tls::TlsError),
    #[error("no bot is connected to the fake gateway (was it started, did it IDENTIFY?)")]
    NotConnected,
    #[error("the fake built a {what} that serenity cannot read: {error}\npayload: {payload}")]
    Unreadable {
        what: String,
        error: String,
        payload: String,
    },
    #[error(transparent)]
    Wait(#[from] WaitFailed),
    #[error("the fake knows no channel {0}")]
    UnknownChannel(u64),
    #[error(
        "the message has no select menu {custom_id:?} offering {values:?} (it offers: {offered})"
    )]
    NoSuchSelect {
        custom_id: String,
        values: String,
        offered: String,
    },
    #[error("the bot never registered a command named {0:?}")]
    UnknownCommand(String),
    #[error("/{command} has no option {option:?} (registered: {registered})")]
    UnknownOption {
        command: String,
        option: String,
        registered: String,
    },
    #[error("/{command} option {option:?} has no choice {given:?} (choices: {choices})")]
    UnknownChoice {
        command: String,
        option: String,
        given: String,
        choices: String,
    },
    #[error("the interactions endpoint: {0}")]
    Endpoint(String),
}

/// Checks that serenity can read `value` as a `T` (serenity drops what it cannot read).
pub(crate) fn checked<T: DeserializeOwned>(what: &str, value: &Value) -> Result<(), FakeError> {
    serde_json::from_value::<T>(value.clone())
        .map(|_| ())
        .map_err(|e| FakeError::Unreadable {
            what: what.to_owned(),
            error: e.to_string(),
            // Enough to find the field; whole guilds are long.
            payload: value.to_string().chars().take(1500).collect(),
        })
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Now, in the RFC 3339 form Discord uses.
pub(crate) fn now_rfc3339() -> String {
    serenity::model::Timestamp::now().to_string()
}

/// An interaction the fake sent to the bot.
#[derive(Debug, Clone)]
pub struct SentInteraction {
    pub id: u64,
    pub token: String,
    pub channel_id: u64,
    /// When the event was handed to the gateway connection.
    pub sent_at: Instant,
}

pub(crate) struct FakeState {
    pub base_url: String,
    pub ws_url: String,
    pub bot: FakeUser,
    pub owner: FakeUser,
    pub application_id: u64,
    pub guild_id: u64,
    pub recorder: Recorder,
    next_id: AtomicU64,
    pub channels: Mutex<Vec<(u64, String)>>,
    /// Channels deleted by the test: Discord answers 10003 Unknown Channel for them.
    pub deleted_channels: Mutex<HashSet<u64>>,
    /// The bot's permissions per channel, where they are not the default ones.
    pub bot_permissions: Mutex<HashMap<u64, u64>>,
    pub members: Mutex<Vec<FakeUser>>,
    /// Members' permissions in the guild (`member.permissions` of their interactions), where
    /// they are not all of them.
    pub member_permissions: Mutex<HashMap<u64, u64>>,
    /// Members' roles, by member.
    pub member_roles: Mutex<HashMap<u64, Vec<u64>>>,
    /// The guild's roles: id and name.
    pub roles: Mutex<Vec<(u64, String)>>,
    /// The permissions each role grants (none, unless a test gives some).
    pub role_permissions: Mutex<HashMap<u64, u64>>,
    /// What @everyone grants every member.
    pub everyone_permissions: Mutex<u64>,
    /// The permission overwrites of each channel (threads have their parent's).
    pub overwrites: Mutex<HashMap<u64, Vec<permissions::Overwrite>>>,
    /// The guilds a test added beside the test guild, with their channels and roles.
    pub guilds: Mutex<guilds::Guilds>,
    /// Threads and direct-message channels.
    pub threads: Mutex<threads::Threads>,
    pub commands: Mutex<Vec<Value>>,
    /// Interactions sent, by token.
    pub interactions: Mutex<HashMap<String, InteractionInfo>>,
    pub interaction_limits: Mutex<InteractionLimits>,
    /// Whether late, doubled or expired interaction answers are what the test provokes (then
    /// they are refused as on Discord, but are not problems).
    pub protocol_refusals_expected: AtomicBool,
    /// Every message the fake accepted, by id (after edits; without deleted ones).
    pub messages: Mutex<HashMap<u64, Value>>,
    pub faults: ScriptedFaults,
    pub gateway: gateway::GatewayHub,
    /// Where interactions go instead of the gateway, once the test set an endpoint URL.
    pub(crate) endpoint: interactions_endpoint::Endpoint,
    pub rate_limits: rate_limits::RateLimits,
    pub latency: Arc<latency::Latencies>,
    pub session_starts: session_starts::SessionStarts,
}

impl FakeState {
    /// A fresh snowflake, increasing like Discord's.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Notes something that breaks Discord's contract (or the fake's own); fails the test.
    pub fn problem(&self, text: String) {
        self.recorder.problem(text);
    }

    /// Refuses an interaction answer that broke Discord's rules, as Discord does; a problem
    /// unless the test provokes such answers.
    pub fn rule_broken(&self, broken: RuleBroken) -> Answer {
        if !self.protocol_refusals_expected.load(Ordering::Relaxed) {
            self.problem(format!(
                "the bot broke an interaction rule: {}",
                broken.what
            ));
        }
        broken.refusal.answer()
    }

    /// Whether `channel_id` is a channel of the guild (not deleted).
    pub fn channel_exists(&self, channel_id: u64) -> bool {
        locked(&self.channels)
            .iter()
            .any(|(id, _)| *id == channel_id)
    }

    /// The live thread `channel_id`, if it is one.
    pub fn thread(&self, channel_id: u64) -> Option<threads::FakeThread> {
        locked(&self.threads).live_thread(channel_id).cloned()
    }

    /// The member a direct-message channel reaches, if `channel_id` is one.
    pub fn dm_recipient(&self, channel_id: u64) -> Option<u64> {
        locked(&self.threads).dm_channels.get(&channel_id).copied()
    }

    /// The base permissions of `user` in `guild`: @everyone's and their roles' there (or
    /// what a test set for them), everything for the guild's owner.
    pub fn member_base_permissions(&self, user: u64, guild: u64) -> u64 {
        let added = locked(&self.guilds).added.get(&guild).copied();
        let owner = added.map_or(self.owner.id, |g| g.owner);
        if user == owner {
            return permissions::ALL_PERMISSIONS;
        }
        if let Some(bits) = locked(&self.member_permissions).get(&user) {
            return permissions::base_permissions(*bits, []);
        }
        let everyone = added.map_or_else(|| *locked(&self.everyone_permissions), |g| g.everyone);
        let granted = locked(&self.role_permissions).clone();
        let roles = self.member_roles_in(user, guild);
        permissions::base_permissions(
            everyone,
            roles.iter().filter_map(|r| granted.get(r).copied()),
        )
    }

    /// The permissions of `user` in `channel_id` (a thread: its parent's), as Discord computes
    /// them: `member.permissions` of their interactions there.
    pub fn member_permissions_in(&self, user: u64, channel_id: u64) -> u64 {
        let channel = self.permission_channel(channel_id);
        let guild = self.guild_of(channel_id);
        let overwrites = self.overwrites_of(channel);
        let roles = self.member_roles_in(user, guild);
        permissions::channel_permissions(
            self.member_base_permissions(user, guild),
            user,
            &roles,
            &overwrites,
        )
    }

    /// The guild `channel_id` (a channel or a thread) belongs to.
    pub fn guild_of(&self, channel_id: u64) -> u64 {
        let channel = self.permission_channel(channel_id);
        locked(&self.guilds).guild_of_channel(channel, self.guild_id)
    }

    /// The roles of `user` in `guild`.
    pub fn member_roles_in(&self, user: u64, guild: u64) -> Vec<u64> {
        let guilds = locked(&self.guilds);
        self.member_roles_of(user)
            .into_iter()
            .filter(|role| guilds.role_in(*role, guild, self.guild_id))
            .collect()
    }

    /// The channel whose overwrites hold in `channel_id`: a thread's parent, else itself.
    fn permission_channel(&self, channel_id: u64) -> u64 {
        self.thread(channel_id)
            .map_or(channel_id, |thread| thread.parent_id)
    }

    fn overwrites_of(&self, channel: u64) -> Vec<permissions::Overwrite> {
        locked(&self.overwrites)
            .get(&channel)
            .cloned()
            .unwrap_or_default()
    }

    pub fn member_roles_of(&self, user: u64) -> Vec<u64> {
        locked(&self.member_roles)
            .get(&user)
            .cloned()
            .unwrap_or_default()
    }

    /// The test guild's channels, without the deleted ones (those of added guilds are left
    /// out: GUILD_CREATE is sent for the test guild only).
    pub fn live_channels(&self) -> Vec<(u64, String)> {
        let guilds = locked(&self.guilds);
        locked(&self.channels)
            .iter()
            .filter(|(id, _)| !guilds.channels.contains_key(id))
            .cloned()
            .collect()
    }

    /// The bot's permissions in a channel, or in a thread's parent channel: what a test set
    /// there, else computed as for any member, from the bot's base (its invite's permissions,
    /// [`permissions::DEFAULT_BOT_PERMISSIONS`], and its roles') and the channel's overwrites.
    pub fn bot_permissions_in(&self, channel_id: u64) -> u64 {
        let channel = self.permission_channel(channel_id);
        if let Some(bits) = locked(&self.bot_permissions).get(&channel) {
            return *bits;
        }
        let granted = locked(&self.role_permissions).clone();
        let roles = self.member_roles_in(self.bot.id, self.guild_of(channel_id));
        let base = permissions::base_permissions(
            permissions::DEFAULT_BOT_PERMISSIONS,
            roles.iter().filter_map(|r| granted.get(r).copied()),
        );
        permissions::channel_permissions(base, self.bot.id, &roles, &self.overwrites_of(channel))
    }

    pub fn channel_name(&self, channel_id: u64) -> String {
        if let Some(thread) = self.thread(channel_id) {
            return thread.name;
        }
        locked(&self.channels)
            .iter()
            .find(|(id, _)| *id == channel_id)
            .map(|(_, name)| name.clone())
            .unwrap_or_else(|| format!("channel-{channel_id}"))
    }
}

/// The running fake. Dropping it stops the server.
pub struct FakeDiscord {
    state: Arc<FakeState>,
    default_channel: u64,
    server: JoinHandle<()>,
    /// The same routes over TLS, answering for discord.com ([`FakeDiscord::stand_in`]).
    tls_server: JoinHandle<()>,
    stand_in: taflbot::config::DiscordStandIn,
    /// Set by [`FakeDiscord::connect_bots_without_rate_limiter`].
    without_rate_limiter: AtomicBool,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
        self.tls_server.abort();
    }
}

impl FakeDiscord {
    /// Starts the fake on 127.0.0.1 with a free port.
    pub async fn start() -> Result<FakeDiscord, FakeError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        // Snowflakes in Discord's range, so ids look and sort like real ones.
        let first_id = 1_200_000_000_000_000_000u64;
        let bot = FakeUser {
            id: first_id + 1,
            name: "taflbot".into(),
            bot: true,
        };
        let owner = FakeUser {
            id: first_id + 2,
            name: "owner".into(),
            bot: false,
        };
        let default_channel = first_id + 5;
        let latency = Arc::new(latency::Latencies::default());
        let state = Arc::new(FakeState {
            base_url: format!("http://{addr}"),
            ws_url: format!("ws://{addr}/gateway"),
            application_id: first_id + 3,
            guild_id: first_id + 4,
            bot: bot.clone(),
            owner: owner.clone(),
            recorder: Recorder::default(),
            next_id: AtomicU64::new(first_id + 100),
            channels: Mutex::new(vec![(default_channel, "tafl".into())]),
            deleted_channels: Mutex::new(HashSet::new()),
            bot_permissions: Mutex::new(HashMap::new()),
            members: Mutex::new(vec![bot, owner]),
            member_permissions: Mutex::new(HashMap::new()),
            member_roles: Mutex::new(HashMap::new()),
            roles: Mutex::new(Vec::new()),
            role_permissions: Mutex::new(HashMap::new()),
            everyone_permissions: Mutex::new(permissions::DEFAULT_EVERYONE_PERMISSIONS),
            overwrites: Mutex::new(HashMap::new()),
            guilds: Mutex::new(guilds::Guilds::default()),
            threads: Mutex::new(threads::Threads::default()),
            commands: Mutex::new(Vec::new()),
            interactions: Mutex::new(HashMap::new()),
            interaction_limits: Mutex::new(InteractionLimits::default()),
            protocol_refusals_expected: AtomicBool::new(false),
            messages: Mutex::new(HashMap::new()),
            faults: ScriptedFaults::default(),
            endpoint: interactions_endpoint::Endpoint::default(),
            gateway: gateway::GatewayHub::with_latency(Arc::clone(&latency)),
            rate_limits: rate_limits::RateLimits::default(),
            latency,
            session_starts: session_starts::SessionStarts::default(),
        });
        let routes = axum::Router::new()
            .route("/gateway", axum::routing::get(gateway::upgrade))
            .fallback(rest::handle);
        // Over TLS, the gateway is also where Discord has it: the root of its own host.
        let tls_app = routes
            .clone()
            .route("/", axum::routing::get(gateway::upgrade_over_tls))
            .with_state(Arc::clone(&state));
        let app = routes.with_state(Arc::clone(&state));
        let tls_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let identity = Arc::new(tls::TlsIdentity::new()?);
        let stand_in = taflbot::config::DiscordStandIn {
            address: tls_listener.local_addr()?,
            certificate_pem: identity.certificate_pem.clone(),
        };
        let tls_server = tokio::spawn(tls::serve(tls_listener, identity, tls_app));
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("fake Discord server stopped: {e}");
            }
        });
        Ok(FakeDiscord {
            state,
            default_channel,
            server,
            tls_server,
            stand_in,
            without_rate_limiter: AtomicBool::new(false),
        })
    }

    /// Sends every later interaction to the bot's Interactions Endpoint `url` (signed, over
    /// HTTP) instead of the gateway, once the URL passed Discord's check (a signed PING
    /// answered PONG, a forged one refused 401); `None` goes back to the gateway.
    pub async fn send_interactions_to(&self, url: Option<&str>) -> Result<(), FakeError> {
        interactions_endpoint::set_url(&self.state, url).await
    }

    /// Posts `body` to an interactions endpoint `url`, signed as `signing` says.
    pub async fn post_to_endpoint(
        &self,
        url: &str,
        body: &Value,
        signing: Signing,
    ) -> Result<EndpointAnswer, FakeError> {
        interactions_endpoint::post(&self.state, url, body, signing).await
    }

    /// Points the bot's settings at the fake as at Discord itself: requests for
    /// `https://discord.com` reach the fake's TLS listener, so serenity keeps its rate limiter
    /// on (as in production). The bot's token and test guild are set too. After
    /// [`FakeDiscord::connect_bots_without_rate_limiter`], the bot is pointed at the fake's
    /// plain-HTTP address instead (`discord.api_base`, where serenity's limiter is off).
    pub fn connect(&self, config: &mut taflbot::config::Config) {
        config.discord.token = Some(crate::bot::FAKE_TOKEN.to_owned());
        config.discord.guild_id = Some(self.guild_id());
        if self.without_rate_limiter.load(Ordering::Relaxed) {
            config.discord.api_base = self.api_base();
            config.discord.stand_in = None;
        } else {
            config.discord.api_base = taflbot::config::Config::default().discord.api_base;
            config.discord.stand_in = Some(self.stand_in.clone());
        }
    }

    /// Bots connected from now on reach the fake through `discord.api_base` (plain HTTP), with
    /// serenity's rate limiter off, as behind a proxy that limits nothing: for a test that
    /// shows what the limiter does.
    pub fn connect_bots_without_rate_limiter(&self) {
        self.without_rate_limiter.store(true, Ordering::Relaxed);
    }

    /// Where requests for discord.com reach the fake, and the certificate it presents.
    pub fn stand_in(&self) -> &taflbot::config::DiscordStandIn {
        &self.stand_in
    }

    /// The value for the bot's `discord.api_base` setting.
    pub fn api_base(&self) -> String {
        format!("{}/api", self.state.base_url)
    }

    pub fn recorder(&self) -> &Recorder {
        &self.state.recorder
    }

    pub fn bot_user(&self) -> &FakeUser {
        &self.state.bot
    }

    pub fn application_id(&self) -> u64 {
        self.state.application_id
    }

    pub fn guild_id(&self) -> u64 {
        self.state.guild_id
    }

    /// The test guild's first text channel.
    pub fn channel(&self) -> u64 {
        self.default_channel
    }

    /// A new member of the test guild.
    pub fn new_user(&self, name: &str) -> FakeUser {
        let user = FakeUser {
            id: self.state.next_id(),
            name: name.into(),
            bot: false,
        };
        locked(&self.state.members).push(user.clone());
        user
    }

    /// A new text channel in the test guild (known to the bot after its next GUILD_CREATE).
    pub fn new_channel(&self, name: &str) -> u64 {
        let id = self.state.next_id();
        locked(&self.state.channels).push((id, name.into()));
        id
    }

    /// Restricts what the bot may do in `channel_id` (Discord permission bits): the
    /// `app_permissions` of interactions there, and what the channel routes allow (without
    /// VIEW_CHANNEL or SEND_MESSAGES no message, without EMBED_LINKS no embeds, without
    /// ATTACH_FILES no files: 403 50013).
    pub fn set_bot_permissions(&self, channel_id: u64, bits: u64) {
        locked(&self.state.bot_permissions).insert(channel_id, bits);
    }

    /// Gives the bot the thread permissions in `channel_id` (CREATE_PUBLIC_THREADS and
    /// SEND_MESSAGES_IN_THREADS) on top of what it holds there: the test guild's channels
    /// leave them out, so games stay in their channels unless a test wants threads.
    pub fn allow_threads(&self, channel_id: u64) {
        let bits = self.state.bot_permissions_in(channel_id)
            | threads::CREATE_PUBLIC_THREADS
            | threads::SEND_MESSAGES_IN_THREADS;
        self.set_bot_permissions(channel_id, bits);
    }

    /// The guild may hold at most `count` active threads from now on (Discord: 1,000); one more
    /// is refused with 400 160006.
    pub fn limit_active_threads(&self, count: usize) {
        locked(&self.state.threads).active_limit = Some(count);
    }

    /// The threads created under `channel_id` (live or deleted), oldest first.
    pub fn threads_of(&self, channel_id: u64) -> Vec<threads::FakeThread> {
        let mut found: Vec<threads::FakeThread> = locked(&self.state.threads)
            .threads
            .values()
            .filter(|t| t.parent_id == channel_id)
            .cloned()
            .collect();
        found.sort_by_key(|t| t.id);
        found
    }

    /// The thread `thread_id` as it is now (live or deleted).
    pub fn thread(&self, thread_id: u64) -> Option<threads::FakeThread> {
        locked(&self.state.threads).threads.get(&thread_id).cloned()
    }

    /// Archives a thread as Discord does after its inactivity period (or a moderator does,
    /// with `locked`).
    pub fn archive_thread(&self, thread_id: u64, locked_too: bool) -> Result<(), FakeError> {
        let mut threads = locked(&self.state.threads);
        let thread = threads
            .threads
            .get_mut(&thread_id)
            .ok_or(FakeError::UnknownChannel(thread_id))?;
        thread.archived = true;
        thread.locked = locked_too;
        Ok(())
    }

    /// Deletes a thread: messages to it are answered 404 10003 Unknown Channel. (No
    /// THREAD_DELETE is dispatched.)
    pub fn delete_thread(&self, thread_id: u64) -> Result<(), FakeError> {
        let mut threads = locked(&self.state.threads);
        if !threads.threads.contains_key(&thread_id) {
            return Err(FakeError::UnknownChannel(thread_id));
        }
        threads.deleted.insert(thread_id);
        Ok(())
    }

    /// `user` no longer takes direct messages from the bot (403 50007).
    pub fn close_dms(&self, user: &FakeUser) {
        locked(&self.state.threads).closed_dms.insert(user.id);
    }

    /// The direct messages the fake accepted for `user`, oldest first.
    pub fn direct_messages(&self, user: &FakeUser) -> Vec<Value> {
        let channels: Vec<u64> = locked(&self.state.threads)
            .dm_channels
            .iter()
            .filter(|(_, u)| **u == user.id)
            .map(|(c, _)| *c)
            .collect();
        channels
            .into_iter()
            .flat_map(|c| self.channel_messages(c))
            .collect()
    }

    /// Sets the guild permissions of `user` in place of what @everyone and their roles give
    /// (channel overwrites still apply), e.g. without MANAGE_GUILD (1 << 5).
    pub fn set_member_permissions(&self, user: &FakeUser, bits: u64) {
        locked(&self.state.member_permissions).insert(user.id, bits);
    }

    /// Sets what @everyone grants every member of the guild (not the bot, whose base is its
    /// invite's permissions).
    pub fn set_everyone_permissions(&self, bits: u64) {
        *locked(&self.state.everyone_permissions) = bits;
    }

    /// A new role of the guild, granting nothing.
    pub fn new_role(&self, name: &str) -> u64 {
        self.new_role_granting(name, 0)
    }

    /// A new role of the guild, granting `bits` to its members (the bot too, once given it).
    pub fn new_role_granting(&self, name: &str, bits: u64) -> u64 {
        let id = self.state.next_id();
        locked(&self.state.roles).push((id, name.into()));
        locked(&self.state.role_permissions).insert(id, bits);
        id
    }

    /// A new guild beside the test guild, owned by a new member, whose @everyone grants
    /// `everyone` (e.g. [`permissions::DEFAULT_EVERYONE_PERMISSIONS`]); its channels and roles
    /// come from [`FakeDiscord::new_channel_in`] and [`FakeDiscord::new_role_in`].
    pub fn new_guild(&self, everyone: u64) -> u64 {
        let id = self.state.next_id();
        let owner = self.new_user(&format!("owner-{id}"));
        locked(&self.state.guilds).added.insert(
            id,
            guilds::FakeGuild {
                id,
                owner: owner.id,
                everyone,
            },
        );
        id
    }

    /// A new text channel in `guild` (the test guild or one from [`FakeDiscord::new_guild`]).
    pub fn new_channel_in(&self, guild: u64, name: &str) -> u64 {
        let id = self.new_channel(name);
        if guild != self.state.guild_id {
            locked(&self.state.guilds).channels.insert(id, guild);
        }
        id
    }

    /// A new role of `guild`, granting `bits` to its members there.
    pub fn new_role_in(&self, guild: u64, name: &str, bits: u64) -> u64 {
        let id = self.new_role_granting(name, bits);
        if guild != self.state.guild_id {
            locked(&self.state.guilds).roles.insert(id, guild);
        }
        id
    }

    /// Adds a permission overwrite to `channel_id` (and so to its threads): `allow` and `deny`
    /// for @everyone, a role or a member (the bot is the member [`FakeDiscord::bot_user`]).
    /// Interactions there carry the member's and the bot's permissions with it applied, and the
    /// bot's messages there are refused without what they need.
    pub fn add_overwrite(
        &self,
        channel_id: u64,
        target: permissions::OverwriteTarget,
        allow: u64,
        deny: u64,
    ) {
        locked(&self.state.overwrites)
            .entry(channel_id)
            .or_default()
            .push(permissions::Overwrite {
                target,
                allow,
                deny,
            });
    }

    /// Gives `user` the role `role` (in `member.roles` of their interactions).
    pub fn give_role(&self, user: &FakeUser, role: u64) {
        locked(&self.state.member_roles)
            .entry(user.id)
            .or_default()
            .push(role);
    }

    /// Deletes a channel: messages to it are answered 404 10003 Unknown Channel, and the bot
    /// gets CHANNEL_DELETE (when it is connected).
    pub fn delete_channel(&self, channel_id: u64) -> Result<(), FakeError> {
        let name = self.delete_channel_unseen(channel_id)?;
        let channel = payloads::guild_text_channel(channel_id, self.state.guild_id, &name, 0);
        checked::<serenity::model::channel::GuildChannel>("CHANNEL_DELETE", &channel)?;
        match self.state.gateway.dispatch("CHANNEL_DELETE", channel) {
            Ok(()) | Err(FakeError::NotConnected) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Deletes a channel without telling the bot, as when it missed the CHANNEL_DELETE
    /// (offline, or its session lost); answers the channel's name.
    pub fn delete_channel_unseen(&self, channel_id: u64) -> Result<String, FakeError> {
        let name = {
            let mut channels = locked(&self.state.channels);
            let position = channels
                .iter()
                .position(|(id, _)| *id == channel_id)
                .ok_or(FakeError::UnknownChannel(channel_id))?;
            channels.remove(position).1
        };
        locked(&self.state.deleted_channels).insert(channel_id);
        Ok(name)
    }

    /// The messages the fake accepted in `channel_id`, oldest first, from any route (channel
    /// posts, interaction responses and follow-ups), as they are now (after edits).
    pub fn channel_messages(&self, channel_id: u64) -> Vec<Value> {
        let channel = channel_id.to_string();
        let mut messages: Vec<(u64, Value)> = locked(&self.state.messages)
            .iter()
            .filter(|(_, m)| m.get("channel_id").and_then(Value::as_str) == Some(&channel))
            .map(|(id, m)| (*id, m.clone()))
            .collect();
        messages.sort_by_key(|(id, _)| *id);
        messages.into_iter().map(|(_, m)| m).collect()
    }

    /// Changes how long the bot has for the first answer to an interaction, and how long an
    /// interaction token lives (Discord: 3 s and 15 min). Applies to every interaction.
    pub fn set_interaction_limits(&self, first_answer: Duration, token_lifetime: Duration) {
        *locked(&self.state.interaction_limits) = InteractionLimits {
            first_answer,
            token_lifetime,
        };
    }

    /// Late, doubled or expired interaction answers are what this test provokes: they are
    /// still refused as on Discord (10062, 40060, 50027), but no longer count as problems.
    pub fn expect_protocol_refusals(&self) {
        self.state
            .protocol_refusals_expected
            .store(true, Ordering::Relaxed);
    }

    /// The next requests matching `route` get `faults`, one each, in order; then normal
    /// service resumes. Refused requests are still recorded (with their status).
    pub fn fail_next(&self, route: RouteMatch, faults: &[Fault]) {
        self.state.faults.push(route, faults);
    }

    /// Holds every request about `channel_id` (its messages, edits, threads; a DM channel's
    /// messages): answered late, or never (`Hold::Never`: recorded with status 0 as it
    /// arrives, the connection left hanging); `None` serves them at once again.
    pub fn hold_channel(&self, channel_id: u64, hold: Option<Hold>) {
        self.state.faults.hold(channel_id, hold);
    }

    /// How many requests about `channel_id` arrived while it was held, counted as they arrive
    /// (a late answer is recorded only once it is sent).
    pub fn held_arrivals(&self, channel_id: u64) -> usize {
        self.state.faults.held_arrivals(channel_id)
    }

    /// The bot token is revoked (or reset in the Developer Portal): every request authorized
    /// by it is answered 401 from now on, as Discord does (interaction answers, authorized by
    /// their interaction's token, are not).
    pub fn revoke_token(&self) {
        self.state.faults.revoke_token();
    }

    /// The next `times` command registrations (`PUT .../commands`) are answered 500;
    /// `usize::MAX` fails all of them; 0 stops failing.
    pub fn fail_command_registration(&self, times: usize) {
        self.state.faults.fail_registrations(times);
    }

    /// Everything that went wrong: bot requests that break Discord's contract (its API
    /// description, its limits, its interaction rules), answers of the fake that break the
    /// description, payloads serenity cannot read, routes the fake does not serve.
    pub fn problems(&self) -> Vec<String> {
        self.state.recorder.problem_list()
    }

    /// Takes the problems found so far, for a test that provokes them on purpose.
    pub fn take_problems(&self) -> Vec<String> {
        self.state.recorder.take_problems()
    }

    /// How many gateway sessions have been made ready (one per IDENTIFY accepted).
    pub fn sessions(&self) -> u64 {
        self.state.gateway.sessions()
    }

    /// The `[shard, count]` of every IDENTIFY accepted, in order.
    pub fn identified_shards(&self) -> Vec<[u64; 2]> {
        self.state.gateway.identified_shards()
    }

    /// Each gateway dispatch's event name and the shard it was sent to, in order.
    pub fn routed(&self) -> Vec<(String, u64)> {
        self.state.gateway.routed()
    }

    /// The shard of `count` the test guild's events go to (Discord's rule).
    pub fn guild_shard(&self, count: u64) -> u64 {
        gateway::shard_of(self.state.guild_id, count)
    }

    /// How many sessions were resumed (RESUME answered with the missed events and RESUMED).
    pub fn resumes(&self) -> u64 {
        self.state.gateway.resumes()
    }

    /// How many IDENTIFYs were refused: by [`FakeDiscord::reject_identify`], or for their
    /// shards (4010, 4011) or the day's session starts (4004).
    pub fn rejected_identifies(&self) -> u64 {
        self.state.gateway.rejected_identifies()
    }

    /// From now on `shard`'s gateway connections hear nothing from Discord: heartbeat ACKs and
    /// dispatches are withheld (a hung connection on Discord's side).
    pub fn silence_shard(&self, shard: u64) {
        self.state.gateway.silence_shard(shard);
    }

    /// Answers every IDENTIFY from now on by closing the connection with `close_code` (e.g.
    /// 4004 Authentication failed), until [`FakeDiscord::accept_identify`].
    pub fn reject_identify(&self, close_code: u16) {
        self.state.gateway.refuse_identify(Some(close_code));
    }

    /// Accepts IDENTIFY again.
    pub fn accept_identify(&self) {
        self.state.gateway.refuse_identify(None);
    }

    /// Closes the bot's gateway connection with `close_code` (e.g. 4000 Unknown error, after
    /// which a client resumes); the session stays resumable.
    pub fn close_gateway(&self, close_code: u16) -> Result<(), FakeError> {
        self.state.gateway.close_current(close_code)
    }

    /// Sends op 7 Reconnect: the client should reconnect and resume.
    pub fn send_reconnect(&self) -> Result<(), FakeError> {
        self.state.gateway.send_reconnect()
    }

    /// Sends op 9 Invalid Session; with `resumable` false the session is over and a RESUME of
    /// it is refused.
    pub fn send_invalid_session(&self, resumable: bool) -> Result<(), FakeError> {
        self.state.gateway.send_invalid_session(resumable)
    }

    /// Serves the gateway as Discord does, over TLS: `GET /gateway` gives
    /// `wss://gateway.discord.gg`, which a bot connected with [`FakeDiscord::connect`] reaches
    /// at the stand-in (its certificate names that host too).
    pub fn serve_gateway_over_tls(&self) {
        self.state.gateway.serve_over_tls();
    }

    /// Gateway connections made through the TLS stand-in (`wss://`).
    pub fn gateway_connections_over_tls(&self) -> u64 {
        self.state.gateway.tls_connections()
    }

    /// Bytes the gateway sent since the start: (as JSON payloads, on the wire), the same
    /// unless connections asked for zlib-stream compression.
    pub fn gateway_bytes(&self) -> (u64, u64) {
        self.state.gateway.wire_counts.get()
    }

    /// The fake gateway's plain `ws://` URL.
    pub fn gateway_url(&self) -> &str {
        &self.state.ws_url
    }

    fn gateway_wait_failed(&self, waited_for: String, timeout: Duration) -> FakeError {
        FakeError::Wait(WaitFailed {
            waited_for,
            after: timeout,
            ended: WaitEnd::TimedOut,
            problems: self.problems(),
            recorded: vec![self.state.recorder.dump()],
        })
    }

    /// Waits until `count` gateway sessions have received READY and GUILD_CREATE.
    pub async fn wait_for_sessions(&self, count: u64, timeout: Duration) -> Result<(), FakeError> {
        self.state
            .gateway
            .wait_for_sessions(count, timeout)
            .await
            .map_err(|seen| {
                self.gateway_wait_failed(
                    format!("{count} gateway session(s) to be ready (saw {seen})"),
                    timeout,
                )
            })
    }

    /// Waits until `count` sessions have been resumed in all.
    pub async fn wait_for_resumes(&self, count: u64, timeout: Duration) -> Result<(), FakeError> {
        self.state
            .gateway
            .wait_for_resumes(count, timeout)
            .await
            .map_err(|seen| {
                self.gateway_wait_failed(format!("{count} gateway resume(s) (saw {seen})"), timeout)
            })
    }

    /// Waits until the bot has registered its commands; returns their names.
    pub async fn wait_for_commands(&self, timeout: Duration) -> Result<Vec<String>, FakeError> {
        self.state
            .recorder
            .wait_for("application command registration", timeout, |r| {
                r.kind == RouteKind::CommandRegistration && r.method == "PUT"
            })
            .await?;
        Ok(self
            .registered_commands()
            .iter()
            .filter_map(|c| c.get("name")?.as_str().map(str::to_owned))
            .collect())
    }

    /// The command definitions the bot registered (as Discord answered them).
    pub fn registered_commands(&self) -> Vec<Value> {
        locked(&self.state.commands).clone()
    }

    fn command(&self, name: &str) -> Result<Value, FakeError> {
        locked(&self.state.commands)
            .iter()
            .find(|c| c.get("name").and_then(Value::as_str) == Some(name))
            .cloned()
            .ok_or_else(|| FakeError::UnknownCommand(name.to_owned()))
    }

    fn command_id(command: &Value) -> u64 {
        command
            .get("id")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .unwrap_or_default()
    }

    /// Checks the options against the registered definition, as Discord would, and turns a
    /// choice given by name into its value (poise registers enum choices as integers).
    fn shape_options(
        command_name: &str,
        definition: &Value,
        options: &[CommandOption],
    ) -> Result<Vec<CommandOption>, FakeError> {
        let registered: Vec<Value> = definition
            .get("options")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let names = || {
            registered
                .iter()
                .filter_map(|o| o.get("name")?.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        options
            .iter()
            .map(|option| {
                let name = option.name();
                let Some(spec) = registered
                    .iter()
                    .find(|o| o.get("name").and_then(Value::as_str) == Some(name))
                else {
                    return Err(FakeError::UnknownOption {
                        command: command_name.to_owned(),
                        option: name.to_owned(),
                        registered: names(),
                    });
                };
                match option {
                    CommandOption::SubCommand { name, options } => Ok(CommandOption::SubCommand {
                        name: name.clone(),
                        options: Self::shape_options(
                            &format!("{command_name} {name}"),
                            spec,
                            options,
                        )?,
                    }),
                    CommandOption::String { name, value } => {
                        let choices = spec
                            .get("choices")
                            .and_then(Value::as_array)
                            .cloned()
                            .unwrap_or_default();
                        let kind = spec.get("type").and_then(Value::as_u64);
                        if choices.is_empty() {
                            return Ok(option.clone());
                        }
                        let Some(choice) = choices.iter().find(|c| {
                            c.get("name").and_then(Value::as_str) == Some(value.as_str())
                        }) else {
                            return Err(FakeError::UnknownChoice {
                                command: command_name.to_owned(),
                                option: name.clone(),
                                given: value.clone(),
                                choices: choices
                                    .iter()
                                    .filter_map(|c| c.get("name")?.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                            });
                        };
                        match (kind, choice.get("value")) {
                            (Some(4), Some(Value::Number(n))) => Ok(CommandOption::Integer {
                                name: name.clone(),
                                value: n.as_i64().unwrap_or_default(),
                            }),
                            (_, Some(Value::String(v))) => Ok(CommandOption::String {
                                name: name.clone(),
                                value: v.clone(),
                            }),
                            _ => Ok(option.clone()),
                        }
                    }
                    _ => Ok(option.clone()),
                }
            })
            .collect()
    }

    fn begin_interaction(&self, channel_id: u64) -> (u64, String) {
        let id = self.state.next_id();
        let token = format!("fake-token-{id}");
        locked(&self.state.interactions)
            .insert(token.clone(), InteractionInfo::new(id, channel_id));
        (id, token)
    }

    /// Starts an interaction by `user` in `channel_id`, builds its payload from the context
    /// and sends it through the gateway.
    fn interact(
        &self,
        channel_id: u64,
        user: &FakeUser,
        payload: impl FnOnce(&payloads::InteractionContext<'_>) -> Value,
    ) -> Result<SentInteraction, FakeError> {
        let (id, token) = self.begin_interaction(channel_id);
        let now = now_rfc3339();
        let channel_name = self.state.channel_name(channel_id);
        let permissions = self.permissions_in(channel_id);
        let member_permissions = self
            .state
            .member_permissions_in(user.id, channel_id)
            .to_string();
        let guild = self.state.guild_of(channel_id);
        let member_roles = self.state.member_roles_in(user.id, guild);
        let mut ctx = self.context(
            id,
            &token,
            channel_id,
            &channel_name,
            user,
            &now,
            &permissions,
        );
        ctx.guild_id = guild;
        ctx.member_permissions = &member_permissions;
        ctx.member_roles = &member_roles;
        ctx.thread_parent = self.state.thread(channel_id).map(|t| t.parent_id);
        let payload = payload(&ctx);
        self.send_interaction(id, token, channel_id, payload)
    }

    fn send_interaction(
        &self,
        id: u64,
        token: String,
        channel_id: u64,
        payload: Value,
    ) -> Result<SentInteraction, FakeError> {
        checked::<serenity::model::application::Interaction>("INTERACTION_CREATE", &payload)?;
        let sent_at = Instant::now();
        // The 3 seconds start when the event is sent, not when it was built.
        if let Some(info) = locked(&self.state.interactions).get_mut(&token) {
            info.sent_at = sent_at;
        }
        match self.state.endpoint.url() {
            Some(url) => interactions_endpoint::deliver(Arc::clone(&self.state), url, payload),
            None => self.state.gateway.dispatch("INTERACTION_CREATE", payload)?,
        }
        Ok(SentInteraction {
            id,
            token,
            channel_id,
            sent_at,
        })
    }

    /// `user` runs the slash command `/name` with `options` in `channel_id`.
    pub fn slash(
        &self,
        user: &FakeUser,
        channel_id: u64,
        name: &str,
        options: &[CommandOption],
    ) -> Result<SentInteraction, FakeError> {
        self.command_interaction(user, channel_id, name, options, payloads::slash_command)
    }

    /// `user` is typing in an option of `/name`: one of `options` is [`CommandOption::Focused`].
    pub fn autocomplete(
        &self,
        user: &FakeUser,
        channel_id: u64,
        name: &str,
        options: &[CommandOption],
    ) -> Result<SentInteraction, FakeError> {
        self.command_interaction(user, channel_id, name, options, payloads::autocomplete)
    }

    /// Sends an interaction about the registered command `/name`, built by `build`.
    fn command_interaction(
        &self,
        user: &FakeUser,
        channel_id: u64,
        name: &str,
        options: &[CommandOption],
        build: fn(&payloads::InteractionContext<'_>, u64, &str, &[CommandOption]) -> Value,
    ) -> Result<SentInteraction, FakeError> {
        let command = self.command(name)?;
        let options = Self::shape_options(name, &command, options)?;
        self.interact(channel_id, user, |ctx| {
            build(ctx, Self::command_id(&command), name, &options)
        })
    }

    /// `user` clicks the button `custom_id` on a message the bot sent (the `message` of a
    /// [`Recorded`] request).
    pub fn click(
        &self,
        user: &FakeUser,
        message: &Value,
        custom_id: &str,
    ) -> Result<SentInteraction, FakeError> {
        let channel_id = self.channel_of(message);
        self.component_interaction(channel_id, user, message, |ctx| {
            payloads::button_click(ctx, message, custom_id)
        })
    }

    /// `user` picks `values` in the string select menu `custom_id` of a message the bot sent.
    /// Discord only sends what the menu offers, so a menu or value the message does not have is
    /// an error of the test ([`FakeError::NoSuchSelect`]).
    pub fn select(
        &self,
        user: &FakeUser,
        message: &Value,
        custom_id: &str,
        values: &[&str],
    ) -> Result<SentInteraction, FakeError> {
        let offered = payloads::select_values(message, custom_id);
        let missing: Vec<&str> = values
            .iter()
            .copied()
            .filter(|v| !offered.iter().any(|o| o == v))
            .collect();
        if offered.is_empty() || !missing.is_empty() {
            return Err(FakeError::NoSuchSelect {
                custom_id: custom_id.to_owned(),
                values: missing.join(", "),
                offered: offered.join(", "),
            });
        }
        let channel_id = self.channel_of(message);
        self.component_interaction(channel_id, user, message, |ctx| {
            payloads::select_choice(ctx, message, custom_id, values)
        })
    }

    fn channel_of(&self, message: &Value) -> u64 {
        message
            .get("channel_id")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .unwrap_or(self.default_channel)
    }

    /// An interaction on a component of `message`: its answer of type 7 edits that message.
    fn component_interaction(
        &self,
        channel_id: u64,
        user: &FakeUser,
        message: &Value,
        payload: impl FnOnce(&payloads::InteractionContext<'_>) -> Value,
    ) -> Result<SentInteraction, FakeError> {
        let sent = self.interact(channel_id, user, payload)?;
        let message_id = message
            .get("id")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok());
        if let Some(info) = locked(&self.state.interactions).get_mut(&sent.token) {
            info.component_message = message_id;
        }
        Ok(sent)
    }

    fn permissions_in(&self, channel_id: u64) -> String {
        self.state.bot_permissions_in(channel_id).to_string()
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "one plain field each, all needed"
    )]
    fn context<'a>(
        &'a self,
        id: u64,
        token: &'a str,
        channel_id: u64,
        channel_name: &'a str,
        user: &'a FakeUser,
        now: &'a str,
        app_permissions: &'a str,
    ) -> payloads::InteractionContext<'a> {
        payloads::InteractionContext {
            id,
            app_permissions,
            token,
            application_id: self.state.application_id,
            guild_id: self.state.guild_id,
            channel_id,
            channel_name,
            user,
            now,
            member_permissions: app_permissions,
            member_roles: &[],
            thread_parent: None,
        }
    }

    /// The first accepted request that answers `interaction` with something a person sees
    /// (not a bare deferral).
    pub async fn reply_to(
        &self,
        interaction: &SentInteraction,
        timeout: Duration,
    ) -> Result<Recorded, WaitFailed> {
        let token = interaction.token.clone();
        self.state
            .recorder
            .wait_for(
                &format!("a reply to interaction {}", interaction.id),
                timeout,
                move |r| {
                    r.accepted()
                        && r.answers(&token)
                        && !matches!(r.callback_type(), Some(5) | Some(6))
                },
            )
            .await
    }

    /// The first accepted request that answers `interaction` at all (a deferral counts).
    pub async fn acknowledgement_of(
        &self,
        interaction: &SentInteraction,
        timeout: Duration,
    ) -> Result<Recorded, WaitFailed> {
        let token = interaction.token.clone();
        self.state
            .recorder
            .wait_for(
                &format!("any answer to interaction {}", interaction.id),
                timeout,
                move |r| r.accepted() && r.answers(&token),
            )
            .await
    }

    /// The message the fake stored with this id (after all edits).
    pub fn message(&self, id: u64) -> Option<Value> {
        locked(&self.state.messages).get(&id).cloned()
    }
}
