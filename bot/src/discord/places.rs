//! A game belongs to the channel (or thread) it was started in: the service stores that place
//! as an opaque context string.

use serenity::all::ChannelId;

const PREFIX: &str = "discord:channel:";

pub fn channel_context(channel: ChannelId) -> String {
    format!("{PREFIX}{}", channel.get())
}

/// The channel of a context string written by [`channel_context`].
pub fn channel_of(context: &str) -> Option<ChannelId> {
    let id: u64 = context.strip_prefix(PREFIX)?.parse().ok()?;
    (id != 0).then(|| ChannelId::new(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_round_trip_and_foreign_ones_are_ignored() {
        let channel = ChannelId::new(1234567890123);
        assert_eq!(channel_of(&channel_context(channel)), Some(channel));
        assert_eq!(channel_of("http:client:7"), None);
        assert_eq!(channel_of("discord:channel:0"), None);
        assert_eq!(channel_of("discord:channel:abc"), None);
    }
}
