//! A Discord server's own settings (`/settings`): its defaults for new games, whether games get
//! a thread, the channels where games may start, and the role that may abort games. Who may
//! change them, and what a missing setting means, is decided here, once.

use crate::domain::PlayerId;
use crate::store::rows::{self, GuildSettingsRow};

use super::Discord;
use crate::{ClockSpec, DEFAULT_AI_LEVEL, DEFAULT_VARIANT, Result, ServiceError};

/// The variant `/play` starts where a server set none: small and quick to learn, friendlier to
/// newcomers than 11x11 Copenhagen (see `/help`).
pub const PLAY_DEFAULT_VARIANT: &str = "brandubh";

/// A member of a Discord server acting in it, as Discord described them in the interaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerMember {
    pub guild_id: u64,
    pub player: PlayerId,
    /// The member's MANAGE_GUILD permission (in `member.permissions`).
    pub manages_server: bool,
    /// The member's roles.
    pub roles: Vec<u64>,
}

/// A server's settings, with the bot's defaults where it set nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSettings {
    pub guild_id: u64,
    /// The server's own default variant, if any.
    pub default_variant: Option<String>,
    pub default_clock: Option<ClockSpec>,
    pub ai_level: Option<u8>,
    /// Whether each game gets its own thread (where the bot may create one).
    pub threads: bool,
    /// Channels where games may start; empty: any.
    pub game_channels: Vec<u64>,
    pub moderator_role: Option<u64>,
}

impl ServerSettings {
    fn defaults(guild_id: u64) -> ServerSettings {
        ServerSettings {
            guild_id,
            default_variant: None,
            default_clock: None,
            ai_level: None,
            threads: true,
            game_channels: Vec::new(),
            moderator_role: None,
        }
    }

    /// The variant of a `/play` that names none.
    pub fn play_variant(&self) -> String {
        self.default_variant
            .clone()
            .unwrap_or_else(|| PLAY_DEFAULT_VARIANT.to_owned())
    }

    /// The variant of a `/challenge` that names none.
    pub fn challenge_variant(&self) -> String {
        self.default_variant
            .clone()
            .unwrap_or_else(|| DEFAULT_VARIANT.to_owned())
    }

    /// The AI level of a `/play` that names none.
    pub fn play_level(&self) -> u8 {
        self.ai_level.unwrap_or(DEFAULT_AI_LEVEL)
    }

    /// Whether a game may start in `channel` (or in a thread of it, `parent`).
    pub fn check_game_channel(&self, channel: u64, parent: Option<u64>) -> Result<()> {
        let allowed = |c: u64| self.game_channels.contains(&c);
        if self.game_channels.is_empty() || allowed(channel) || parent.is_some_and(allowed) {
            return Ok(());
        }
        let names: Vec<String> = self
            .game_channels
            .iter()
            .map(|c| format!("<#{c}>"))
            .collect();
        Err(ServiceError::Forbidden(format!(
            "games are not started in this channel on this server; use {}",
            names.join(", ")
        )))
    }

    /// Whether `member` may abort any game here.
    pub fn is_moderator(&self, member: &ServerMember) -> bool {
        self.moderator_role
            .is_some_and(|role| member.roles.contains(&role))
    }

    fn from_row(row: GuildSettingsRow) -> ServerSettings {
        ServerSettings {
            guild_id: row.guild_id,
            default_variant: row.default_variant,
            default_clock: row
                .default_clock
                .and_then(|text| serde_json::from_str(&text).ok()),
            ai_level: row.ai_level,
            threads: row.threads,
            game_channels: row.game_channels,
            moderator_role: row.moderator_role,
        }
    }

    fn to_row(&self) -> GuildSettingsRow {
        GuildSettingsRow {
            guild_id: self.guild_id,
            default_variant: self.default_variant.clone(),
            default_clock: self
                .default_clock
                .and_then(|clock| serde_json::to_string(&clock).ok()),
            ai_level: self.ai_level,
            threads: self.threads,
            moderator_role: self.moderator_role,
            game_channels: self.game_channels.clone(),
        }
    }
}

/// What `/settings` changes; `None` leaves a setting as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsChange {
    pub default_variant: Option<String>,
    pub default_clock: Option<ClockSpec>,
    pub ai_level: Option<u8>,
    pub threads: Option<bool>,
    /// Adds a channel where games may start.
    pub allow_channel: Option<u64>,
    /// Removes a channel from that list.
    pub disallow_channel: Option<u64>,
    /// Empties the list: games may start anywhere.
    pub any_channel: bool,
    pub moderator_role: Option<u64>,
    /// Removes the moderator role.
    pub no_moderator_role: bool,
}

impl SettingsChange {
    pub fn is_empty(&self) -> bool {
        self == &SettingsChange::default()
    }
}

/// Settings are for the members who may manage the server (Manage Server).
pub(crate) fn check_manager(member: &ServerMember) -> Result<()> {
    if member.manages_server {
        return Ok(());
    }
    Err(ServiceError::Forbidden(
        "only members who may manage this server (Manage Server) can see or change its \
         settings"
            .into(),
    ))
}

impl Discord<'_> {
    /// The settings of the Discord server `guild` (the defaults where it set none).
    pub async fn server_settings(self, guild: u64) -> Result<ServerSettings> {
        self.service
            .read(move |c| {
                Ok(rows::guild_settings(c, guild)?
                    .map(ServerSettings::from_row)
                    .unwrap_or_else(|| ServerSettings::defaults(guild)))
            })
            .await
    }

    /// The settings of `member`'s server, shown only to a member who may manage the server.
    pub async fn server_settings_for_manager(
        self,
        member: &ServerMember,
    ) -> Result<ServerSettings> {
        check_manager(member)?;
        self.server_settings(member.guild_id).await
    }

    /// Changes a server's settings: only a member who may manage the server may.
    pub async fn change_server_settings(
        self,
        member: &ServerMember,
        change: SettingsChange,
    ) -> Result<ServerSettings> {
        check_manager(member)?;
        let variant = match &change.default_variant {
            Some(variant) => Some(crate::ratings::preset(variant)?.to_owned()),
            None => None,
        };
        if let Some(clock) = change.default_clock {
            clock
                .validate()?
                .at_least(self.service.inner.config.min_move_clock_secs)?;
        }
        if let Some(level) = change.ai_level {
            self.service.challenges().check_ai_level(level)?;
        }
        let guild = member.guild_id;
        self.service
            .commit(move |c, e| {
                let mut settings = rows::guild_settings(c, guild)?
                    .map(ServerSettings::from_row)
                    .unwrap_or_else(|| ServerSettings::defaults(guild));
                settings.default_variant = variant.or(settings.default_variant);
                settings.default_clock = change.default_clock.or(settings.default_clock);
                settings.ai_level = change.ai_level.or(settings.ai_level);
                settings.threads = change.threads.unwrap_or(settings.threads);
                if change.any_channel {
                    settings.game_channels.clear();
                }
                if let Some(channel) = change.allow_channel
                    && !settings.game_channels.contains(&channel)
                {
                    settings.game_channels.push(channel);
                }
                if let Some(channel) = change.disallow_channel {
                    settings.game_channels.retain(|c| *c != channel);
                }
                if change.no_moderator_role {
                    settings.moderator_role = None;
                }
                settings.moderator_role = change.moderator_role.or(settings.moderator_role);
                rows::save_guild_settings(c, &settings.to_row(), e.now())?;
                Ok(settings)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(manages_server: bool, roles: Vec<u64>) -> ServerMember {
        ServerMember {
            guild_id: 1,
            player: PlayerId(1),
            manages_server,
            roles,
        }
    }

    #[test]
    fn without_settings_play_is_brandubh_and_games_start_anywhere() {
        let settings = ServerSettings::defaults(1);
        assert_eq!(settings.play_variant(), "brandubh");
        assert_eq!(settings.challenge_variant(), DEFAULT_VARIANT);
        assert_eq!(settings.play_level(), DEFAULT_AI_LEVEL);
        assert!(settings.threads);
        assert!(settings.check_game_channel(42, None).is_ok());
        assert!(!settings.is_moderator(&member(true, vec![7])));
    }

    #[test]
    fn a_channel_not_listed_is_refused_with_the_list() {
        let settings = ServerSettings {
            game_channels: vec![10, 11],
            ..ServerSettings::defaults(1)
        };
        let refusal = settings.check_game_channel(12, None).unwrap_err();
        assert!(refusal.to_string().contains("<#10>, <#11>"), "{refusal}");
        assert!(settings.check_game_channel(11, None).is_ok());
        assert!(
            settings.check_game_channel(99, Some(10)).is_ok(),
            "a thread of a listed one"
        );
    }

    #[test]
    fn the_moderator_role_makes_moderators() {
        let settings = ServerSettings {
            moderator_role: Some(7),
            ..ServerSettings::defaults(1)
        };
        assert!(settings.is_moderator(&member(false, vec![3, 7])));
        assert!(!settings.is_moderator(&member(true, vec![3])));
    }

    #[test]
    fn settings_read_back_from_their_row() {
        let settings = ServerSettings {
            default_variant: Some("tablut".into()),
            default_clock: Some(ClockSpec::PerMove { seconds: 86_400 }),
            ai_level: Some(3),
            threads: false,
            game_channels: vec![5],
            moderator_role: Some(9),
            ..ServerSettings::defaults(1)
        };
        assert_eq!(ServerSettings::from_row(settings.to_row()), settings);
    }
}
