//! What the service keeps for the Discord front end: the outbox of channel posts and direct
//! messages, game threads, challenge posts, server settings and moderators, games followed
//! into a channel, and replies that show a change themselves. The rules of play stay in
//! `games/`; this area only knows where things are shown.

mod challenge_posts;
mod channel_posts;
mod follow;
mod game_mirrors;
mod game_threads;
mod identify_turns;
mod moderation;
pub mod place;
pub mod reply;
mod server_lifecycle;
mod server_settings;

use super::GamesService;

pub use challenge_posts::ChallengePost;
pub use channel_posts::ChannelPost;
pub use game_mirrors::MirrorWithoutThread;
pub(crate) use game_mirrors::copy_paused;
pub use game_threads::GameOffDiscord;
pub use place::{Place, context_schema};
pub use reply::{InReply, REPLY_HOLD_MS};
pub use server_lifecycle::{DEFAULT_REMOVED_SERVER_GRACE, ServersForgotten};
pub(crate) use server_settings::check_manager;
pub use server_settings::{PLAY_DEFAULT_VARIANT, ServerMember, ServerSettings, SettingsChange};

/// The Discord side of the service: `service.discord().claim_due_posts()`.
#[derive(Clone, Copy)]
pub struct Discord<'s> {
    pub(super) service: &'s GamesService,
}
