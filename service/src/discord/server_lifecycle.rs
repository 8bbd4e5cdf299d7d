//! A Discord server's lifecycle as the service keeps it: the bot removed from a server pauses
//! the clocks of the games played there (their players are told by direct message and in an
//! event) and the copies shown there of games played elsewhere (no post goes to the server); the bot added back within the grace period resumes them in their channels; after
//! it, they resume off Discord (over HTTP) and the server's rows are deleted.
//!
//! Several instances may see the same gateway event or run the same pass: the removal's row
//! decides (inserted once, deleted once), inside the transaction that acts on it, so each
//! removal and each return is acted on once.

use std::time::Duration;

use crate::domain::GameId;
use crate::store::Conn;
use crate::store::rows::{self, GameRow};

use super::Discord;
use super::game_mirrors::pause_copies_in;
use crate::events::{EventPayload, GamePaused, GameResumed, PauseReason, ResumedWhere};
use crate::games::game_state;
use crate::{Clock, Emitter, Place, Result};

/// How long a server that removed the bot keeps its games paused and its rows, unless the
/// configuration says otherwise (`discord.removed_server_grace_days`).
pub const DEFAULT_REMOVED_SERVER_GRACE: Duration = Duration::from_secs(14 * 24 * 3600);

/// What the end of servers' grace periods did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ServersForgotten {
    pub servers: usize,
    /// Games that went on off Discord.
    pub games: usize,
}

fn millis(span: Duration) -> i64 {
    i64::try_from(span.as_millis()).unwrap_or(i64::MAX)
}

/// The active games placed in `channels` (channels and threads of one server).
fn games_in(c: &Conn<'_>, channels: &[u64]) -> Result<Vec<GameRow>> {
    let mut games = Vec::new();
    for channel in channels {
        let context = Place::DiscordChannel(*channel).to_context();
        games.extend(rows::active_games_in_context(c, &context)?);
    }
    Ok(games)
}

/// Runs the clocks of paused `game` again from where they stopped: its deadline and the
/// start of its turn move on by the pause, so no side is charged for it. Answers the pause.
fn resume(c: &Conn<'_>, game: &mut GameRow, now: i64) -> Result<i64> {
    let paused_for = game.paused_at.map_or(0, |at| now.saturating_sub(at).max(0));
    game.deadline_at = game.deadline_at.map(|d| d.saturating_add(paused_for));
    game.turn_started_at = game.turn_started_at.saturating_add(paused_for);
    game.paused_at = None;
    game.updated_at = now;
    rows::update_game(c, game)?;
    rows::set_game_paused(c, game.id, None)?;
    Ok(paused_for)
}

fn emit_resumed(
    c: &Conn<'_>,
    e: &mut Emitter,
    game: &GameRow,
    place: ResumedWhere,
    paused_ms: i64,
) -> Result<()> {
    e.emit(
        c,
        Some(game.id),
        None,
        game_state::humans(game),
        EventPayload::GameResumed(GameResumed {
            place,
            paused_ms,
            deadline_at: game.deadline_at,
            context: game.context.clone(),
        }),
    )
}

/// A game's place once its server's Discord data is gone: a label, never posted to.
fn left_server_label(guild: u64) -> String {
    format!("discord server {guild} (left)")
}

impl Discord<'_> {
    /// Notes that `channel` (a channel or thread) belongs to server `guild`, so the server's
    /// games are found if the bot is removed from it. Read first: most commands come from a
    /// channel already noted, and write nothing.
    pub async fn note_channel_guild(self, channel: u64, guild: u64) -> Result<()> {
        let known = self
            .service
            .read(move |c| Ok(rows::channel_guild_known(c, channel)?))
            .await?;
        if known {
            return Ok(());
        }
        self.service
            .inner
            .store
            .write(move |c| {
                let now = crate::SystemClock.now_ms();
                Ok(rows::note_channel_guild(c, channel, guild, now)?)
            })
            .await
    }

    /// The bot was removed from server `guild` (GUILD_DELETE without `unavailable`): the clocks
    /// of its games stop, each game gets a `game_paused` event (and its players a direct
    /// message), until the bot is back or `grace` passes. Answers the games paused; none when
    /// the removal was already acted on.
    pub async fn bot_removed_from_server(self, guild: u64, grace: Duration) -> Result<Vec<GameId>> {
        let grace = millis(grace);
        let paused = self
            .service
            .commit(move |c, e| {
                let now = e.now();
                if !rows::insert_guild_removal(c, guild, now)? {
                    return Ok(Vec::new());
                }
                let channels = rows::channels_of_guild(c, guild)?;
                // Copies of games played elsewhere (a tournament game between two servers)
                // go on there; only their posts here wait for the bot.
                pause_copies_in(c, &channels, now)?;
                let mut paused = Vec::new();
                for game in games_in(c, &channels)? {
                    if game.paused_at.is_some() {
                        continue;
                    }
                    rows::set_game_paused(c, game.id, Some(now))?;
                    e.emit(
                        c,
                        Some(game.id),
                        None,
                        game_state::humans(&game),
                        EventPayload::GamePaused(GamePaused {
                            reason: PauseReason::DiscordServerRemoved,
                            resumes_by: now.saturating_add(grace),
                            context: game.context.clone(),
                        }),
                    )?;
                    paused.push(game.id);
                }
                Ok(paused)
            })
            .await?;
        tracing::info!(
            guild,
            games = paused.len(),
            "the bot was removed from a Discord server; its games are paused"
        );
        Ok(paused)
    }

    /// The bot is in server `guild` (GUILD_CREATE): if it had been removed and the grace
    /// period is not over, the server's games resume in their channels. Answers the games
    /// resumed. Read first: GUILD_CREATE comes for every server at every connection.
    pub async fn bot_back_in_server(self, guild: u64) -> Result<Vec<GameId>> {
        let removed = self
            .service
            .read(move |c| Ok(rows::guild_removed_at(c, guild)?))
            .await?;
        if removed.is_none() {
            return Ok(Vec::new());
        }
        let resumed = self
            .service
            .commit(move |c, e| {
                if !rows::delete_guild_removal(c, guild)? {
                    return Ok(Vec::new());
                }
                let channels = rows::channels_of_guild(c, guild)?;
                let mut resumed = Vec::new();
                for mut game in games_in(c, &channels)? {
                    if game.paused_at.is_none() {
                        continue;
                    }
                    let paused_ms = resume(c, &mut game, e.now())?;
                    emit_resumed(c, e, &game, ResumedWhere::SameChannel, paused_ms)?;
                    resumed.push(game.id);
                }
                Ok(resumed)
            })
            .await?;
        self.after_resume(&resumed);
        tracing::info!(
            guild,
            games = resumed.len(),
            "the bot is back in a Discord server; its games resume"
        );
        Ok(resumed)
    }

    /// Ends the grace period of every server that removed the bot more than `grace` ago: its
    /// games resume off Discord (over HTTP; their players are told by direct message and in an
    /// event) and its Discord rows are deleted.
    pub async fn forget_removed_servers(self, grace: Duration) -> Result<ServersForgotten> {
        let cutoff = self.service.now_ms().saturating_sub(millis(grace));
        let due = self
            .service
            .read(move |c| Ok(rows::guild_removals_before(c, cutoff)?))
            .await?;
        let mut done = ServersForgotten::default();
        for guild in due {
            let resumed = self
                .service
                .commit(move |c, e| {
                    if !rows::delete_guild_removal(c, guild)? {
                        return Ok(None);
                    }
                    let channels = rows::channels_of_guild(c, guild)?;
                    let label = left_server_label(guild);
                    let mut resumed = Vec::new();
                    for mut game in games_in(c, &channels)? {
                        rows::set_game_context(c, game.id, Some(&label))?;
                        game.context = Some(label.clone());
                        let paused_ms = resume(c, &mut game, e.now())?;
                        emit_resumed(c, e, &game, ResumedWhere::OffDiscord, paused_ms)?;
                        resumed.push(game.id);
                    }
                    for channel in &channels {
                        rows::relabel_pending_challenges(
                            c,
                            &Place::DiscordChannel(*channel).to_context(),
                            &label,
                        )?;
                    }
                    rows::delete_guild_rows(c, guild, &channels)?;
                    Ok(Some(resumed))
                })
                .await?;
            let Some(resumed) = resumed else { continue };
            self.after_resume(&resumed);
            tracing::info!(
                guild,
                games = resumed.len(),
                "a Discord server's grace period ended: its games go on over HTTP and its Discord data is deleted"
            );
            done.servers += 1;
            done.games += resumed.len();
        }
        Ok(done)
    }

    /// Runs [`Self::forget_removed_servers`] every `every` until `shutdown` turns true.
    pub async fn run_removed_servers(
        self,
        grace: Duration,
        every: Duration,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut ticker = tokio::time::interval(every.max(Duration::from_millis(10)));
        loop {
            tokio::select! {
                _ = ticker.tick() => {
                    if let Err(e) = self.forget_removed_servers(grace).await {
                        tracing::warn!(error = %crate::logging::ErrorChain(&e), "ending removed servers' grace periods failed");
                    }
                }
                _ = shutdown.changed() => return,
            }
        }
    }

    /// Games whose clocks run again: the AI moves where it is to.
    fn after_resume(self, games: &[GameId]) {
        for game in games {
            self.service.games().kick_ai(*game);
        }
    }

    /// Whether `channel` is in a server that removed the bot: its refusals say nothing about
    /// the channel, so its games stay (paused) rather than leave it.
    pub async fn in_removed_server(self, channel: u64) -> Result<bool> {
        self.service
            .read(move |c| Ok(rows::channel_in_removed_guild(c, channel)?))
            .await
    }

    /// How many rows are kept about server `guild` (tests, diagnostics).
    pub async fn server_row_count(self, guild: u64) -> Result<u64> {
        self.service
            .read(move |c| Ok(rows::guild_row_count(c, guild)?))
            .await
    }
}
