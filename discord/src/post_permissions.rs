//! What posting a game's messages in a place takes, for the member who starts the game there
//! and for the bot. Discord's permissions of an interaction (`member.permissions`,
//! `app_permissions`) are already those of its channel, overwrites applied; inside a thread,
//! posting takes SEND_MESSAGES_IN_THREADS and SEND_MESSAGES does not count.

use serenity::all::Permissions;

/// Whether a place is a channel or a thread of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceKind {
    Channel,
    Thread,
}

impl PlaceKind {
    /// The permission that lets anyone write here.
    pub fn send_permission(self) -> Permissions {
        match self {
            PlaceKind::Channel => Permissions::SEND_MESSAGES,
            PlaceKind::Thread => Permissions::SEND_MESSAGES_IN_THREADS,
        }
    }
}

/// What a member needs to start a game here: to write here themselves, so nobody makes the
/// bot post for weeks where they may not (an announcements channel).
pub fn member_needs(place: PlaceKind) -> Permissions {
    Permissions::VIEW_CHANNEL | place.send_permission()
}

/// What the bot needs to post a game here: the moves by HTTP and the AI, with their boards.
pub fn bot_needs(place: PlaceKind) -> Permissions {
    Permissions::VIEW_CHANNEL | place.send_permission() | Permissions::ATTACH_FILES
}

/// The permissions of `needed` that `held` lacks (none for an administrator).
pub fn missing(held: Permissions, needed: Permissions) -> Permissions {
    if held.contains(Permissions::ADMINISTRATOR) {
        return Permissions::empty();
    }
    needed - held
}

/// The names of `permissions` as Discord's settings show them, for a refusal.
pub fn names(permissions: Permissions) -> String {
    let mut names: Vec<&str> = Vec::new();
    for (bit, name) in [
        (Permissions::VIEW_CHANNEL, "View Channel"),
        (Permissions::SEND_MESSAGES, "Send Messages"),
        (
            Permissions::SEND_MESSAGES_IN_THREADS,
            "Send Messages in Threads",
        ),
        (Permissions::ATTACH_FILES, "Attach Files"),
    ] {
        if permissions.contains(bit) {
            names.push(name);
        }
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_takes_the_thread_bit_and_not_send_messages() {
        let in_channel = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
        assert!(missing(in_channel, member_needs(PlaceKind::Channel)).is_empty());
        assert_eq!(
            missing(in_channel, member_needs(PlaceKind::Thread)),
            Permissions::SEND_MESSAGES_IN_THREADS
        );
        let in_thread = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES_IN_THREADS;
        assert!(missing(in_thread, member_needs(PlaceKind::Thread)).is_empty());
    }

    #[test]
    fn the_bot_needs_files_too_and_an_administrator_needs_nothing_more() {
        let held = Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES;
        let lacking = missing(held, bot_needs(PlaceKind::Channel));
        assert_eq!(lacking, Permissions::ATTACH_FILES);
        assert_eq!(names(lacking), "Attach Files");
        assert!(missing(Permissions::ADMINISTRATOR, bot_needs(PlaceKind::Thread)).is_empty());
    }
}
