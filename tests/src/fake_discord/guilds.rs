//! Several servers. The test guild (its channels given by `FakeDiscord::new_channel`) is sent
//! to the bot in GUILD_CREATE; a test adds more with `FakeDiscord::new_guild`, each with its own
//! owner, @everyone permissions, roles and channels. Interactions in a channel carry its
//! guild's id, the member's roles in that guild only, and permissions computed from that
//! guild's @everyone, roles and the channel's overwrites; the bot's messages there belong to
//! that guild. (The added guilds reach the bot only through their interactions: no
//! GUILD_CREATE is sent for them.)

use std::collections::HashMap;

/// One added guild, as permissions need it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FakeGuild {
    pub id: u64,
    pub owner: u64,
    /// What @everyone grants there.
    pub everyone: u64,
}

/// The added guilds, and which channels and roles belong to them (anything not listed belongs
/// to the test guild).
#[derive(Debug, Default)]
pub struct Guilds {
    pub added: HashMap<u64, FakeGuild>,
    pub channels: HashMap<u64, u64>,
    pub roles: HashMap<u64, u64>,
}

impl Guilds {
    /// The guild of `channel` (not a thread: a thread is its parent's), `test_guild` unless it
    /// belongs to an added one.
    pub fn guild_of_channel(&self, channel: u64, test_guild: u64) -> u64 {
        self.channels.get(&channel).copied().unwrap_or(test_guild)
    }

    /// Whether `role` is a role of `guild`.
    pub fn role_in(&self, role: u64, guild: u64, test_guild: u64) -> bool {
        self.roles.get(&role).copied().unwrap_or(test_guild) == guild
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_and_roles_belong_to_the_test_guild_unless_added_elsewhere() {
        let mut guilds = Guilds::default();
        guilds.channels.insert(10, 2);
        guilds.roles.insert(20, 2);
        assert_eq!(guilds.guild_of_channel(10, 1), 2);
        assert_eq!(guilds.guild_of_channel(11, 1), 1);
        assert!(guilds.role_in(20, 2, 1));
        assert!(!guilds.role_in(20, 1, 1));
        assert!(guilds.role_in(21, 1, 1));
    }
}
