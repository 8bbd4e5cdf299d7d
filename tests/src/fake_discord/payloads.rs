//! The JSON objects the fake sends: gateway events and REST answers, shaped like Discord's.
//!
//! serenity 0.12 silently drops a gateway event it cannot deserialize, so every payload here is
//! complete (all the fields serenity requires) and is checked against serenity's own types before
//! it is sent (see [`super::checked`]).

use serde_json::{Value, json};

/// A user the tests act as (or the bot itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    pub bot: bool,
}

impl FakeUser {
    /// How Discord writes a mention of this user in message content.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

/// Every permission bit Discord defines today, as the string Discord sends.
pub fn all_permissions() -> String {
    super::permissions::ALL_PERMISSIONS.to_string()
}

/// Discord's upper limit for an attachment in a guild without boosts.
pub const ATTACHMENT_SIZE_LIMIT: u64 = 26_214_400;

pub fn user(user: &FakeUser) -> Value {
    json!({
        "id": user.id.to_string(),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.name,
        "avatar": null,
        "bot": user.bot,
        "system": false,
        "mfa_enabled": false,
        "banner": null,
        "accent_color": null,
        "locale": "en-US",
        "verified": true,
        "email": null,
        "flags": 0,
        "premium_type": 0,
        "public_flags": 0,
        "primary_guild": null,
    })
}

pub fn member(member: &FakeUser, joined_at: &str) -> Value {
    json!({
        "user": user(member),
        "nick": null,
        "avatar": null,
        "banner": null,
        "roles": [],
        "joined_at": joined_at,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "permissions": all_permissions(),
        "communication_disabled_until": null,
    })
}

pub fn guild_text_channel(id: u64, guild_id: u64, name: &str, position: u16) -> Value {
    json!({
        "id": id.to_string(),
        "type": 0,
        "guild_id": guild_id.to_string(),
        "position": position,
        "permission_overwrites": [],
        "name": name,
        "topic": null,
        "nsfw": false,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "parent_id": null,
        "last_pin_timestamp": null,
        "flags": 0,
    })
}

/// A role of the guild, as Discord describes it.
pub fn role(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "description": null,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 1,
        "permissions": "0",
        "managed": false,
        "mentionable": true,
        "flags": 0,
    })
}

pub fn partial_channel(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "type": 0,
        "permissions": all_permissions(),
    })
}

/// The `d` of READY.
pub fn ready(
    bot: &FakeUser,
    application_id: u64,
    guild_id: u64,
    session_id: &str,
    resume_url: &str,
) -> Value {
    json!({
        "v": 10,
        "user": user(bot),
        "guilds": [{ "id": guild_id.to_string(), "unavailable": true }],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": [0, 1],
        "application": { "id": application_id.to_string(), "flags": 0 },
    })
}

/// The `d` of GUILD_CREATE for the test guild.
pub struct GuildSpec<'a> {
    pub guild_id: u64,
    pub owner_id: u64,
    pub channels: &'a [(u64, String)],
    pub members: &'a [FakeUser],
    pub now: &'a str,
}

pub fn guild_create(spec: &GuildSpec<'_>) -> Value {
    let channels: Vec<Value> = spec
        .channels
        .iter()
        .enumerate()
        .map(|(position, (id, name))| {
            guild_text_channel(
                *id,
                spec.guild_id,
                name,
                u16::try_from(position).unwrap_or(u16::MAX),
            )
        })
        .collect();
    let members: Vec<Value> = spec.members.iter().map(|m| member(m, spec.now)).collect();
    json!({
        "id": spec.guild_id.to_string(),
        "name": "taflbot test guild",
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": spec.owner_id.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [{
            "id": spec.guild_id.to_string(),
            "name": "@everyone",
            "color": 0,
            "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": 0,
            "permissions": all_permissions(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        }],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "approximate_member_count": null,
        "approximate_presence_count": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "incidents_data": null,
        "joined_at": spec.now,
        "large": false,
        "unavailable": false,
        "member_count": spec.members.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    })
}

/// The answer to `GET /oauth2/applications/@me`.
pub fn application_info(application_id: u64, owner: &FakeUser) -> Value {
    json!({
        "id": application_id.to_string(),
        "name": "taflbot",
        "icon": null,
        "description": "tafl by correspondence",
        "rpc_origins": [],
        "bot_public": true,
        "bot_require_code_grant": false,
        "owner": user(owner),
        "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
        "team": null,
        "flags": 0,
        "role_connections_verification_url": null,
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "type": null,
        "flags_new": "0",
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["applications.commands", "bot"],
    })
}

/// A registered application command, as Discord answers a registration: the posted definition
/// plus the fields Discord adds.
pub fn registered_command(
    definition: &Value,
    id: u64,
    application_id: u64,
    guild_id: Option<u64>,
) -> Value {
    let mut command = definition.clone();
    if let Some(map) = command.as_object_mut() {
        map.insert("id".into(), json!(id.to_string()));
        map.insert("application_id".into(), json!(application_id.to_string()));
        map.insert("guild_id".into(), json!(guild_id.map(|g| g.to_string())));
        map.insert("version".into(), json!(id.to_string()));
        map.entry("type").or_insert(json!(1));
        map.entry("default_member_permissions")
            .or_insert(Value::Null);
        map.entry("description").or_insert(json!(""));
        // Discord leaves unset option fields out of its answer (a null `max_length` is refused
        // by its own description of the answer).
        if let Some(options) = map.get_mut("options") {
            drop_nulls(options);
        }
    }
    command
}

/// Removes the null-valued fields of every object in `value`, recursively.
fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// One file uploaded with a message, as Discord describes it once stored.
pub struct StoredAttachment<'a> {
    pub id: u64,
    pub filename: &'a str,
    pub size: usize,
    pub content_type: Option<&'a str>,
    /// Width and height, for an image.
    pub image_size: Option<(u32, u32)>,
}

/// The width and height of a PNG, read from its header.
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return None;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    Some((word(16)?, word(20)?))
}

/// A message Discord would store for a create/edit payload posted by the bot.
pub struct MessageSpec<'a> {
    pub id: u64,
    pub channel_id: u64,
    pub guild_id: Option<u64>,
    pub author: &'a FakeUser,
    pub application_id: u64,
    pub webhook_id: Option<u64>,
    pub payload: &'a Value,
    /// Attachments an edit keeps from the message as it was (already in Discord's form).
    pub kept_attachments: &'a [Value],
    /// Files uploaded with this request.
    pub attachments: &'a [StoredAttachment<'a>],
    pub now: &'a str,
    /// Whether this is an edit (Discord sets `edited_timestamp`).
    pub edited: bool,
    pub base_url: &'a str,
}

pub fn message(spec: &MessageSpec<'_>) -> Value {
    let field = |name: &str| spec.payload.get(name).cloned();
    let attachments: Vec<Value> = spec
        .kept_attachments
        .iter()
        .cloned()
        .chain(spec.attachments.iter().map(|a| {
            let url = format!(
                "{}/attachments/{}/{}/{}",
                spec.base_url, spec.channel_id, a.id, a.filename
            );
            let mut attachment = json!({
                "id": a.id.to_string(),
                "filename": a.filename,
                "proxy_url": url,
                "url": url,
                "size": a.size,
            });
            // Discord leaves out what it does not know (an unset description, the size of
            // what is not an image).
            if let Some(map) = attachment.as_object_mut() {
                if let Some(content_type) = a.content_type {
                    map.insert("content_type".into(), json!(content_type));
                }
                if let Some((width, height)) = a.image_size {
                    map.insert("width".into(), json!(width));
                    map.insert("height".into(), json!(height));
                }
            }
            attachment
        }))
        .collect();
    let mut message = json!({
        "id": spec.id.to_string(),
        "channel_id": spec.channel_id.to_string(),
        "guild_id": spec.guild_id.map(|g| g.to_string()),
        "author": user(spec.author),
        "content": field("content").filter(Value::is_string).unwrap_or(json!("")),
        "timestamp": spec.now,
        "edited_timestamp": spec.edited.then_some(spec.now),
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": field("embeds").filter(Value::is_array).unwrap_or(json!([])),
        "components": numbered_components(field("components").filter(Value::is_array)),
        "pinned": false,
        "type": if spec.webhook_id.is_some() { 20 } else { 0 },
        "application_id": spec.application_id.to_string(),
        "flags": field("flags").filter(Value::is_u64).unwrap_or(json!(0)),
    });
    // Only a webhook's (or an interaction's) message has a webhook id; Discord omits it otherwise.
    if let (Some(webhook), Some(map)) = (spec.webhook_id, message.as_object_mut()) {
        map.insert("webhook_id".into(), json!(webhook.to_string()));
    }
    message
}

/// The components of a stored message: Discord gives every component a numeric `id` (unique in
/// the message, in tree order) where the bot sent none, and a select menu its default
/// `min_values` and `max_values` (1).
fn numbered_components(components: Option<Value>) -> Value {
    fn number(value: &mut Value, next: &mut u64) {
        match value {
            Value::Array(items) => items.iter_mut().for_each(|item| number(item, next)),
            Value::Object(map) => {
                if map.contains_key("type") && !map.contains_key("id") {
                    *next += 1;
                    map.insert("id".into(), json!(*next));
                }
                let select = matches!(map.get("type").and_then(Value::as_u64), Some(3 | 5..=8));
                if select {
                    map.entry("min_values").or_insert(json!(1));
                    map.entry("max_values").or_insert(json!(1));
                }
                map.values_mut().for_each(|child| number(child, next));
            }
            _ => {}
        }
    }
    let mut components = components.unwrap_or(json!([]));
    let mut next = 0;
    number(&mut components, &mut next);
    components
}

/// One option of a slash command as the tests describe it.
#[derive(Debug, Clone)]
pub enum CommandOption {
    String {
        name: String,
        value: String,
    },
    Integer {
        name: String,
        value: i64,
    },
    Boolean {
        name: String,
        value: bool,
    },
    User {
        name: String,
        user: FakeUser,
    },
    /// A channel of the guild (type 7), resolved as Discord resolves it.
    Channel {
        name: String,
        channel_id: u64,
    },
    /// A role of the guild (type 8), resolved as Discord resolves it.
    Role {
        name: String,
        role_id: u64,
    },
    SubCommand {
        name: String,
        options: Vec<CommandOption>,
    },
    /// The option the user is typing in (autocomplete); its kind is a string.
    Focused {
        name: String,
        value: String,
    },
}

impl CommandOption {
    pub fn string(name: &str, value: &str) -> Self {
        CommandOption::String {
            name: name.into(),
            value: value.into(),
        }
    }
    pub fn integer(name: &str, value: i64) -> Self {
        CommandOption::Integer {
            name: name.into(),
            value,
        }
    }
    pub fn boolean(name: &str, value: bool) -> Self {
        CommandOption::Boolean {
            name: name.into(),
            value,
        }
    }
    pub fn user(name: &str, user: &FakeUser) -> Self {
        CommandOption::User {
            name: name.into(),
            user: user.clone(),
        }
    }
    pub fn channel(name: &str, channel_id: u64) -> Self {
        CommandOption::Channel {
            name: name.into(),
            channel_id,
        }
    }
    pub fn role(name: &str, role_id: u64) -> Self {
        CommandOption::Role {
            name: name.into(),
            role_id,
        }
    }
    pub fn sub(name: &str, options: Vec<CommandOption>) -> Self {
        CommandOption::SubCommand {
            name: name.into(),
            options,
        }
    }
    pub fn focused(name: &str, value: &str) -> Self {
        CommandOption::Focused {
            name: name.into(),
            value: value.into(),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            CommandOption::String { name, .. }
            | CommandOption::Integer { name, .. }
            | CommandOption::Boolean { name, .. }
            | CommandOption::User { name, .. }
            | CommandOption::Channel { name, .. }
            | CommandOption::Role { name, .. }
            | CommandOption::SubCommand { name, .. }
            | CommandOption::Focused { name, .. } => name,
        }
    }

    fn to_json(&self) -> Value {
        match self {
            CommandOption::String { name, value } => {
                json!({"name": name, "type": 3, "value": value})
            }
            CommandOption::Integer { name, value } => {
                json!({"name": name, "type": 4, "value": value})
            }
            CommandOption::Boolean { name, value } => {
                json!({"name": name, "type": 5, "value": value})
            }
            CommandOption::User { name, user } => {
                json!({"name": name, "type": 6, "value": user.id.to_string()})
            }
            CommandOption::Channel { name, channel_id } => {
                json!({"name": name, "type": 7, "value": channel_id.to_string()})
            }
            CommandOption::Role { name, role_id } => {
                json!({"name": name, "type": 8, "value": role_id.to_string()})
            }
            CommandOption::SubCommand { name, options } => json!({
                "name": name,
                "type": 1,
                "options": options.iter().map(CommandOption::to_json).collect::<Vec<_>>(),
            }),
            CommandOption::Focused { name, value } => {
                json!({"name": name, "type": 3, "value": value, "focused": true})
            }
        }
    }

    fn channels(&self, into: &mut Vec<u64>) {
        match self {
            CommandOption::Channel { channel_id, .. } => into.push(*channel_id),
            CommandOption::SubCommand { options, .. } => {
                options.iter().for_each(|o| o.channels(into))
            }
            _ => {}
        }
    }

    fn roles(&self, into: &mut Vec<u64>) {
        match self {
            CommandOption::Role { role_id, .. } => into.push(*role_id),
            CommandOption::SubCommand { options, .. } => options.iter().for_each(|o| o.roles(into)),
            _ => {}
        }
    }

    fn users<'a>(&'a self, into: &mut Vec<&'a FakeUser>) {
        match self {
            CommandOption::User { user, .. } => into.push(user),
            CommandOption::SubCommand { options, .. } => options.iter().for_each(|o| o.users(into)),
            _ => {}
        }
    }
}

/// Where an interaction happens and who sends it.
pub struct InteractionContext<'a> {
    pub id: u64,
    /// The bot's permissions in the channel (`app_permissions`), as Discord's decimal string.
    pub app_permissions: &'a str,
    pub token: &'a str,
    pub application_id: u64,
    pub guild_id: u64,
    pub channel_id: u64,
    pub channel_name: &'a str,
    pub user: &'a FakeUser,
    pub now: &'a str,
    /// The member's guild permissions (`member.permissions`), as a decimal string.
    pub member_permissions: &'a str,
    pub member_roles: &'a [u64],
    /// Set when the interaction happens in a thread: its parent channel.
    pub thread_parent: Option<u64>,
}

/// The member sending an interaction, with their permissions and roles.
fn acting_member(ctx: &InteractionContext<'_>) -> Value {
    let mut member = member(ctx.user, ctx.now);
    if let Some(map) = member.as_object_mut() {
        map.insert("permissions".into(), json!(ctx.member_permissions));
        map.insert(
            "roles".into(),
            json!(
                ctx.member_roles
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
            ),
        );
    }
    member
}

/// The channel of an interaction: a text channel, or a public thread with its parent.
fn interaction_channel(ctx: &InteractionContext<'_>) -> Value {
    let mut channel = partial_channel(ctx.channel_id, ctx.channel_name);
    // The channel's `permissions` are the member's there, as in `member.permissions`.
    if let Some(map) = channel.as_object_mut() {
        map.insert("permissions".into(), json!(ctx.member_permissions));
    }
    if let (Some(parent), Some(map)) = (ctx.thread_parent, channel.as_object_mut()) {
        map.insert("type".into(), json!(11));
        map.insert("parent_id".into(), json!(parent.to_string()));
    }
    channel
}

fn interaction_base(kind: u8, ctx: &InteractionContext<'_>, data: Value) -> Value {
    json!({
        "id": ctx.id.to_string(),
        "application_id": ctx.application_id.to_string(),
        "type": kind,
        "data": data,
        "guild_id": ctx.guild_id.to_string(),
        "channel": interaction_channel(ctx),
        "channel_id": ctx.channel_id.to_string(),
        "member": acting_member(ctx),
        "token": ctx.token,
        "version": 1,
        "app_permissions": ctx.app_permissions,
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": { "0": ctx.guild_id.to_string() },
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    })
}

fn command_data(command_id: u64, name: &str, guild_id: u64, options: &[CommandOption]) -> Value {
    let mut users = Vec::new();
    options.iter().for_each(|o| o.users(&mut users));
    let resolved_users: serde_json::Map<String, Value> =
        users.iter().map(|u| (u.id.to_string(), user(u))).collect();
    let resolved_members: serde_json::Map<String, Value> = users
        .iter()
        .map(|u| {
            let mut partial = member(u, "2024-01-01T00:00:00.000000+00:00");
            if let Some(map) = partial.as_object_mut() {
                // Discord leaves the user out of resolved members (it is in resolved users).
                map.remove("user");
            }
            (u.id.to_string(), partial)
        })
        .collect();
    let mut channels = Vec::new();
    options.iter().for_each(|o| o.channels(&mut channels));
    let resolved_channels: serde_json::Map<String, Value> = channels
        .iter()
        .map(|c| (c.to_string(), partial_channel(*c, &format!("channel-{c}"))))
        .collect();
    let mut roles = Vec::new();
    options.iter().for_each(|o| o.roles(&mut roles));
    let resolved_roles: serde_json::Map<String, Value> = roles
        .iter()
        .map(|r| (r.to_string(), role(*r, &format!("role-{r}"))))
        .collect();
    json!({
        "id": command_id.to_string(),
        "name": name,
        "type": 1,
        "guild_id": guild_id.to_string(),
        "options": options.iter().map(CommandOption::to_json).collect::<Vec<_>>(),
        "resolved": {
            "users": resolved_users,
            "members": resolved_members,
            "channels": resolved_channels,
            "roles": resolved_roles,
        },
    })
}

/// INTERACTION_CREATE of a slash command (type 2).
pub fn slash_command(
    ctx: &InteractionContext<'_>,
    command_id: u64,
    name: &str,
    options: &[CommandOption],
) -> Value {
    command_interaction(2, ctx, command_id, name, options)
}

/// INTERACTION_CREATE of an autocomplete request (type 4).
pub fn autocomplete(
    ctx: &InteractionContext<'_>,
    command_id: u64,
    name: &str,
    options: &[CommandOption],
) -> Value {
    command_interaction(4, ctx, command_id, name, options)
}

/// An interaction of `kind` about the command `/name`.
fn command_interaction(
    kind: u8,
    ctx: &InteractionContext<'_>,
    command_id: u64,
    name: &str,
    options: &[CommandOption],
) -> Value {
    interaction_base(
        kind,
        ctx,
        command_data(command_id, name, ctx.guild_id, options),
    )
}

/// INTERACTION_CREATE of a button click (type 3) on `message`.
/// A selection in a string select menu (component type 3) of `message`.
pub fn select_choice(
    ctx: &InteractionContext<'_>,
    message: &Value,
    custom_id: &str,
    values: &[&str],
) -> Value {
    let mut value = interaction_base(
        3,
        ctx,
        json!({ "custom_id": custom_id, "component_type": 3, "values": values }),
    );
    if let Some(map) = value.as_object_mut() {
        map.insert("message".into(), message.clone());
    }
    value
}

/// The option values of the string select menu `custom_id` on `message` (none if absent).
pub fn select_values(message: &Value, custom_id: &str) -> Vec<String> {
    message
        .get("components")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|row| row.get("components").and_then(Value::as_array))
        .flatten()
        .filter(|c| c.get("custom_id").and_then(Value::as_str) == Some(custom_id))
        .filter_map(|c| c.get("options").and_then(Value::as_array))
        .flatten()
        .filter_map(|o| o.get("value").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

pub fn button_click(ctx: &InteractionContext<'_>, message: &Value, custom_id: &str) -> Value {
    let mut value = interaction_base(
        3,
        ctx,
        json!({ "custom_id": custom_id, "component_type": 2 }),
    );
    if let Some(map) = value.as_object_mut() {
        map.insert("message".into(), message.clone());
    }
    value
}
