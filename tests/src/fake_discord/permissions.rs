//! The bot's permissions in a channel, as Discord checks them before it accepts a message there.
//! (Interaction callbacks and follow-ups are not subject to them, as on Discord.)

use super::answer::Refusal;

pub const VIEW_CHANNEL: u64 = 1 << 10;
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const EMBED_LINKS: u64 = 1 << 14;
pub const ATTACH_FILES: u64 = 1 << 15;

/// Every permission bit Discord defines today.
pub const ALL_PERMISSIONS: u64 = 2_251_799_813_685_247;

/// What the bot holds in the test guild's channels unless a test says otherwise: everything
/// but the thread permissions (CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS), so a game
/// stays in its channel unless a test grants them (`FakeDiscord::allow_threads`).
pub const DEFAULT_BOT_PERMISSIONS: u64 = ALL_PERMISSIONS
    & !(super::threads::CREATE_PUBLIC_THREADS | super::threads::SEND_MESSAGES_IN_THREADS);

/// What a message needs beyond seeing the channel and sending in it.
#[derive(Debug, Clone, Copy, Default)]
pub struct MessageNeeds {
    pub embeds: bool,
    pub files: bool,
}

/// Checks a message posted (or edited) in a channel where the bot holds `bits`; on a refusal,
/// names the permission that was missing.
pub fn check_message(bits: u64, needs: MessageNeeds) -> Result<(), (Refusal, &'static str)> {
    let required = [
        (true, VIEW_CHANNEL, "VIEW_CHANNEL"),
        (true, SEND_MESSAGES, "SEND_MESSAGES"),
        (needs.embeds, EMBED_LINKS, "EMBED_LINKS"),
        (needs.files, ATTACH_FILES, "ATTACH_FILES"),
    ];
    match required
        .iter()
        .find(|(needed, bit, _)| *needed && bits & bit == 0)
    {
        Some((_, _, name)) => Err((Refusal::MissingPermissions, name)),
        None => Ok(()),
    }
}
