//! A game belongs to the channel (or thread) where it was started: the Discord front end is
//! the only one that names such a place.

use serenity::all::ChannelId;

use crate::service::Place;

/// The place of a command or button used in `channel`.
pub fn here(channel: ChannelId) -> Place {
    Place::DiscordChannel(channel.get())
}

/// The channel of a stored context, if it is a Discord place.
pub fn channel_of(context: &str) -> Option<ChannelId> {
    Place::from_context(context)
        .discord_channel()
        .map(ChannelId::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts_round_trip_and_foreign_ones_are_ignored() {
        let channel = ChannelId::new(1234567890123);
        assert_eq!(channel_of(&here(channel).to_context()), Some(channel));
        assert_eq!(channel_of("http:client:7"), None);
        assert_eq!(channel_of("discord:channel:0"), None);
        assert_eq!(channel_of("discord:channel:abc"), None);
    }
}
