//! Server, channel and thread events a test provokes, sent through the gateway's dispatch as
//! Discord sends them:
//!
//! - the bot removed from the test guild (GUILD_DELETE without `unavailable`, as Discord sends
//!   when the bot is kicked or the server deleted) and added back (GUILD_CREATE); while it is
//!   out, the guild's channels refuse its messages (with 403 50013 here: every permission of
//!   the bot is gone; Discord answers 50001 Missing Access);
//! - an outage of the guild (GUILD_DELETE with `unavailable: true`), which changes nothing else;
//! - a thread deleted (THREAD_DELETE) or archived and locked by a moderator (THREAD_UPDATE).
//!
//! (CHANNEL_DELETE is sent by [`FakeDiscord::delete_channel`].)

use std::collections::HashMap;

use serde_json::{Value, json};

use super::{FakeDiscord, FakeError, checked, locked, now_rfc3339, payloads};

/// The bot's permissions as they were before it was removed from the guild; give it back to
/// [`FakeDiscord::add_bot_back`].
#[derive(Debug)]
pub struct BotRemoval {
    /// Channel -> the bot's bits there, for the channels whose bits a test had set.
    kept: HashMap<u64, u64>,
    channels: Vec<u64>,
}

impl FakeDiscord {
    /// Sends an event; a bot not connected misses it, as a disconnected one would (it learns
    /// of the guild again at its next session).
    fn send_guild_event(&self, event: &str, data: Value) -> Result<(), FakeError> {
        match self.state.gateway.dispatch(event, data) {
            Ok(()) | Err(FakeError::NotConnected) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The bot is removed from the test guild: GUILD_DELETE `{id}` (no `unavailable`), and
    /// every channel of the guild refuses its messages until [`Self::add_bot_back`].
    pub fn remove_bot_from_guild(&self) -> Result<BotRemoval, FakeError> {
        let channels: Vec<u64> = self
            .state
            .live_channels()
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let kept = {
            let mut bits = locked(&self.state.bot_permissions);
            let kept = channels
                .iter()
                .filter_map(|c| bits.get(c).map(|b| (*c, *b)))
                .collect();
            for channel in &channels {
                bits.insert(*channel, 0);
            }
            kept
        };
        let data = json!({ "id": self.state.guild_id.to_string() });
        checked::<serenity::model::guild::UnavailableGuild>("GUILD_DELETE", &data)?;
        self.send_guild_event("GUILD_DELETE", data)?;
        Ok(BotRemoval { kept, channels })
    }

    /// The bot is added back to the test guild: its permissions are as before the removal,
    /// and it gets the guild's GUILD_CREATE.
    pub fn add_bot_back(&self, removal: BotRemoval) -> Result<(), FakeError> {
        {
            let mut bits = locked(&self.state.bot_permissions);
            for channel in &removal.channels {
                match removal.kept.get(channel) {
                    Some(kept) => bits.insert(*channel, *kept),
                    None => bits.remove(channel),
                };
            }
        }
        let now = now_rfc3339();
        let channels = self.state.live_channels();
        let members = locked(&self.state.members).clone();
        let guild = payloads::guild_create(&payloads::GuildSpec {
            guild_id: self.state.guild_id,
            owner_id: self.state.owner.id,
            channels: &channels,
            members: &members,
            now: &now,
        });
        checked::<serenity::model::guild::Guild>("GUILD_CREATE", &guild)?;
        self.send_guild_event("GUILD_CREATE", guild)
    }

    /// Discord loses the test guild for a while (an outage): GUILD_DELETE with
    /// `unavailable: true`. Nothing else changes.
    pub fn guild_outage(&self) -> Result<(), FakeError> {
        let data = json!({ "id": self.state.guild_id.to_string(), "unavailable": true });
        checked::<serenity::model::guild::UnavailableGuild>("GUILD_DELETE", &data)?;
        self.send_guild_event("GUILD_DELETE", data)
    }

    /// Deletes a thread, as [`Self::delete_thread`], and sends THREAD_DELETE.
    pub fn delete_thread_and_tell(&self, thread_id: u64) -> Result<(), FakeError> {
        let thread = self
            .thread(thread_id)
            .ok_or(FakeError::UnknownChannel(thread_id))?;
        self.delete_thread(thread_id)?;
        let data = json!({
            "id": thread_id.to_string(),
            "guild_id": self.state.guild_id.to_string(),
            "parent_id": thread.parent_id.to_string(),
            "type": 11,
        });
        checked::<serenity::model::channel::PartialGuildChannel>("THREAD_DELETE", &data)?;
        self.send_guild_event("THREAD_DELETE", data)
    }

    /// Archives and locks a thread, as a moderator does, and sends THREAD_UPDATE.
    pub fn lock_thread_and_tell(&self, thread_id: u64) -> Result<(), FakeError> {
        self.archive_thread(thread_id, true)?;
        let thread = self
            .thread(thread_id)
            .ok_or(FakeError::UnknownChannel(thread_id))?;
        let data = thread.to_json(self.state.guild_id, self.state.bot.id, &now_rfc3339());
        checked::<serenity::model::channel::GuildChannel>("THREAD_UPDATE", &data)?;
        self.send_guild_event("THREAD_UPDATE", data)
    }
}
