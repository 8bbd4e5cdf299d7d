//! A thread per game: where the server allows it and the bot may, a new game gets its own
//! public thread under the channel where it began ("Astrid vs Ragnar · Copenhagen"); the
//! channel keeps one line linking to it. Everything about the game is posted in the thread.

use serenity::all::{
    AutoArchiveDuration, ChannelId, ChannelType, CreateThread, EditThread, GuildId, Http,
    Permissions,
};

use super::Data;
use super::posts::seat_of;
use crate::domain::Side;
use crate::logging::ErrorChain;
use crate::service::{GameView, variant_label};

/// Discord's longest thread name.
const MAX_THREAD_NAME_CHARS: usize = 100;

/// What the bot needs in a channel to play a game in a thread of it.
pub fn thread_permissions() -> Permissions {
    Permissions::CREATE_PUBLIC_THREADS | Permissions::SEND_MESSAGES_IN_THREADS
}

/// "Astrid vs Ragnar · Copenhagen", cut to Discord's 100 characters, on one line.
pub fn thread_name(data: &Data, game: &GameView) -> String {
    let label = variant_label(game.variant.as_deref());
    let variant = data
        .service
        .games()
        .variant(label)
        .map_or_else(|_| label.to_owned(), |v| v.view.name);
    named(
        &seat_of(game, Side::Attackers).name,
        &seat_of(game, Side::Defenders).name,
        &variant,
    )
}

fn named(attackers: &str, defenders: &str, variant: &str) -> String {
    let full = format!("{attackers} vs {defenders} · {variant}").replace(['\n', '\r'], " ");
    if full.chars().count() <= MAX_THREAD_NAME_CHARS {
        return full;
    }
    let cut: String = full.chars().take(MAX_THREAD_NAME_CHARS - 1).collect();
    format!("{cut}…")
}

/// The line the channel keeps about a game played in `thread`.
pub fn link_line(data: &Data, game: &GameView, thread: ChannelId) -> String {
    format!(
        "**Game #{}** · {} is played in <#{thread}>.",
        game.id,
        super::mentions::literal_long(&thread_name(data, game))
    )
}

/// Where a game starts, as the interaction that started it describes it.
#[derive(Debug, Clone, Copy)]
pub struct StartPlace {
    pub channel: ChannelId,
    pub guild: Option<GuildId>,
    /// Set when the command was used in a thread: a thread holds no threads.
    pub parent: Option<ChannelId>,
    /// The bot's permissions there (`app_permissions`).
    pub bot_permissions: Option<Permissions>,
}

/// Opens a thread for `game` under the channel it starts in and moves the game there, when the
/// server wants threads (its `/settings`) and the bot may create them. `None`: the game stays
/// where it is (logged when Discord refused).
pub async fn open_game_thread(
    http: &Http,
    data: &Data,
    game: &GameView,
    place: StartPlace,
) -> Option<ChannelId> {
    let StartPlace {
        channel,
        guild,
        parent,
        bot_permissions,
    } = place;
    if parent.is_some() {
        return None;
    }
    let guild = guild?;
    let wanted = match data.service.discord().server_settings(guild.get()).await {
        Ok(settings) => settings.threads,
        Err(e) => {
            tracing::warn!(error = %ErrorChain(&e), "cannot read the server's settings; no thread");
            false
        }
    };
    if !wanted || !bot_permissions.is_some_and(|p| p.contains(thread_permissions())) {
        return None;
    }
    let thread = create_thread(http, data, game, channel).await?;
    match data
        .service
        .discord()
        .move_game_to_thread(game.id, thread.get(), channel.get())
        .await
    {
        Ok(()) => Some(thread),
        Err(e) => {
            tracing::warn!(game = %game.id, %thread, error = %ErrorChain(&e), "cannot move the game into its thread");
            None
        }
    }
}

/// Creates the public thread of `game` under `channel`; `None` (logged) when Discord refuses.
pub async fn create_thread(
    http: &Http,
    data: &Data,
    game: &GameView,
    channel: ChannelId,
) -> Option<ChannelId> {
    let builder = CreateThread::new(thread_name(data, game))
        .kind(ChannelType::PublicThread)
        .auto_archive_duration(AutoArchiveDuration::OneWeek);
    match data
        .rest_gate()
        .run(channel.create_thread(http, builder))
        .await
    {
        Ok(thread) => Some(thread.id),
        Err(e) => {
            tracing::info!(game = %game.id, %channel, error = %ErrorChain(&e), "no thread for the game; it stays in the channel");
            None
        }
    }
}

/// Unarchives `thread` so the bot can post in it again.
pub async fn unarchive(http: &Http, thread: ChannelId) -> Result<(), serenity::Error> {
    thread
        .edit_thread(http, EditThread::new().archived(false))
        .await
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_is_named_after_its_players_and_variant_within_discords_limit() {
        assert_eq!(
            named("Astrid", "Ragnar", "Copenhagen"),
            "Astrid vs Ragnar · Copenhagen"
        );
        let long = named(&"A".repeat(80), &"R".repeat(80), "Copenhagen");
        assert_eq!(long.chars().count(), MAX_THREAD_NAME_CHARS);
        assert!(long.ends_with('…'));
        assert!(!named("two\nlines", "b", "c").contains('\n'));
    }

    #[test]
    fn a_thread_needs_both_thread_permissions() {
        assert!(!Permissions::CREATE_PUBLIC_THREADS.contains(thread_permissions()));
        assert!(
            (Permissions::CREATE_PUBLIC_THREADS | Permissions::SEND_MESSAGES_IN_THREADS)
                .contains(thread_permissions())
        );
    }
}
