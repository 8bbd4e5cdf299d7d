//! Threads and direct messages as the fake models them.
//!
//! Threads: public threads (type 11) created under a text channel with `POST
//! /channels/{id}/threads`; the bot needs CREATE_PUBLIC_THREADS in the parent (else 403 50013),
//! and SEND_MESSAGES_IN_THREADS (not SEND_MESSAGES) to post in the thread. An archived thread
//! that is not locked is unarchived by a message sent to it, as Discord's documentation says
//! ("Sending a message will automatically unarchive the thread, unless the thread has been
//! locked by a moderator"); an archived and locked one refuses messages with 400 50083 until
//! `PATCH /channels/{id}` sets `archived: false`, which a locked thread only takes from a bot
//! with MANAGE_THREADS. A test archives, locks or deletes a thread; a deleted one answers
//! 404 10003 like any deleted channel.
//!
//! Direct messages: `POST /users/@me/channels` with a `recipient_id` opens (or finds) the DM
//! channel of a member; messages to it are stored like any other (without a guild). A member
//! whose DMs are closed refuses them with 403 50007.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::permissions;

/// Discord's thread permissions.
pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
pub const MANAGE_THREADS: u64 = 1 << 34;

/// One thread of the guild.
#[derive(Debug, Clone)]
pub struct FakeThread {
    pub id: u64,
    pub parent_id: u64,
    pub name: String,
    pub archived: bool,
    pub locked: bool,
    pub created_at: String,
}

impl FakeThread {
    /// The thread as Discord's channel routes answer it (`ThreadResponse`).
    pub fn to_json(&self, guild_id: u64, owner_id: u64, now: &str) -> Value {
        json!({
            "id": self.id.to_string(),
            "type": 11,
            "guild_id": guild_id.to_string(),
            "parent_id": self.parent_id.to_string(),
            "name": self.name,
            "owner_id": owner_id.to_string(),
            "flags": 0,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": now,
                "auto_archive_duration": 10080,
                "locked": self.locked,
                "create_timestamp": self.created_at,
            },
        })
    }
}

/// The guild's threads and the bot's direct-message channels.
#[derive(Debug, Default)]
pub struct Threads {
    pub threads: HashMap<u64, FakeThread>,
    /// Threads the test deleted.
    pub deleted: HashSet<u64>,
    /// DM channel id -> the member it reaches.
    pub dm_channels: HashMap<u64, u64>,
    /// Members who do not take direct messages from server members.
    pub closed_dms: HashSet<u64>,
    /// The most active threads the guild may hold; `None`: Discord's [`ACTIVE_THREAD_LIMIT`].
    pub active_limit: Option<usize>,
}

/// Discord's limit of active threads per guild.
pub const ACTIVE_THREAD_LIMIT: usize = 1_000;

impl Threads {
    pub fn live_thread(&self, id: u64) -> Option<&FakeThread> {
        self.threads
            .get(&id)
            .filter(|_| !self.deleted.contains(&id))
    }

    /// Whether the guild holds as many active threads as it may.
    pub fn at_active_limit(&self) -> bool {
        let active = self
            .threads
            .values()
            .filter(|t| !t.archived && !self.deleted.contains(&t.id))
            .count();
        active >= self.active_limit.unwrap_or(ACTIVE_THREAD_LIMIT)
    }

    /// The DM channel of `user`, opened on first use.
    pub fn dm_channel_of(&mut self, user: u64, fresh_id: impl FnOnce() -> u64) -> u64 {
        if let Some((channel, _)) = self.dm_channels.iter().find(|(_, u)| **u == user) {
            return *channel;
        }
        let channel = fresh_id();
        self.dm_channels.insert(channel, user);
        channel
    }
}

/// Whether a message needs more than the bot holds in a thread's parent: seeing it and sending
/// in threads (SEND_MESSAGES_IN_THREADS replaces SEND_MESSAGES there), plus files.
pub fn may_post_in_thread(parent_bits: u64, files: bool) -> Result<(), &'static str> {
    if parent_bits & permissions::VIEW_CHANNEL == 0 {
        return Err("VIEW_CHANNEL");
    }
    if parent_bits & SEND_MESSAGES_IN_THREADS == 0 {
        return Err("SEND_MESSAGES_IN_THREADS");
    }
    if files && parent_bits & permissions::ATTACH_FILES == 0 {
        return Err("ATTACH_FILES");
    }
    Ok(())
}
