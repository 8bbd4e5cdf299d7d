//! `taflbot discord invite-url`: the link a server owner opens to add the bot to a server, with
//! the scopes and the few permissions the bot needs; and `taflbot discord register`
//! (`discord_register.rs`).

use std::num::NonZeroU64;
use std::path::PathBuf;
use std::process::ExitCode;

use serenity::all::{ApplicationId, GuildId, Permissions};

use crate::config::Config;

/// Discord's authorization page for the bot flow (OAuth2, "Bot Authorization Flow").
const AUTHORIZE_URL: &str = "https://discord.com/oauth2/authorize";

/// `bot` puts the bot in the server; `applications.commands` lets it register its slash
/// commands there. Discord's docs separate scopes with an encoded space.
const SCOPES: &str = "bot%20applications.commands";

/// Everything the bot asks for in a server, and nothing else: no Administrator, no Mention
/// Everyone (so `@everyone`, `@here` and roles that are not mentionable never ping from it).
pub const BOT_PERMISSIONS: Permissions = Permissions::empty()
    // Today: to see a game's channel at all; without it nothing else applies there.
    .union(Permissions::VIEW_CHANNEL)
    // Today: the announcer posts moves made over HTTP or by the AI, game ends, draw offers,
    // reminders and expired challenges as channel messages; `/challenge`, `/play` and
    // `/follow` check it (Send Messages in Threads in a thread).
    .union(Permissions::SEND_MESSAGES)
    // Today: `/help` and `/rules` answer with embeds.
    .union(Permissions::EMBED_LINKS)
    // Today: every move's post carries the board PNG; `/challenge`, `/play` and `/follow`
    // check it.
    .union(Permissions::ATTACH_FILES)
    // Today: a game started inside a thread is announced in that thread, where Send Messages
    // counts for nothing. Planned: per-game threads.
    .union(Permissions::SEND_MESSAGES_IN_THREADS)
    // Planned: per-game threads are public threads the bot opens.
    .union(Permissions::CREATE_PUBLIC_THREADS);
// Left out on purpose:
// - Read Message History: the bot reads no messages (it has only the GUILDS intent), replies to
//   none, reacts to none and lists no archived threads.
// - Manage Threads: a message the bot sends into an archived thread unarchives it, and it may
//   unarchive its own threads anyway; deleting, locking or moderating threads is not planned.

#[derive(Debug, clap::Args)]
pub struct DiscordArgs {
    #[command(subcommand)]
    pub command: DiscordCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum DiscordCommand {
    /// Print the URL a server owner opens to add the bot to a server.
    InviteUrl(InviteUrlArgs),
    /// Register this build's slash commands with Discord (globally, or in one server) and exit.
    Register(super::discord_register::RegisterArgs),
}

#[derive(Debug, clap::Args)]
pub struct InviteUrlArgs {
    /// The bot's application id (Developer Portal, General Information); by default read off
    /// the configured bot token.
    #[arg(long, value_name = "ID")]
    pub application_id: Option<NonZeroU64>,
    /// Preselect this server on Discord's page and do not let the owner pick another.
    #[arg(long, value_name = "ID")]
    pub guild: Option<NonZeroU64>,
    /// Config file (see config.example.toml) holding `[discord] token`; TAFLBOT_* variables
    /// override it.
    #[arg(long, short, env = "TAFLBOT_CONFIG")]
    pub config: Option<PathBuf>,
}

/// Why no application id could be found. The messages never quote the token.
#[derive(Debug, thiserror::Error)]
pub enum ApplicationIdError {
    #[error(
        "no bot token is configured: pass --application-id <ID> (Developer Portal, General \
         Information), or set TAFLBOT_DISCORD_TOKEN or [discord] token"
    )]
    NoToken,
    #[error(
        "the configured bot token is not a Discord bot token (its first part must be the \
         bot's id in base64): pass --application-id <ID> (Developer Portal, General \
         Information), or copy the token again"
    )]
    Undecodable,
}

pub fn run(args: DiscordArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        DiscordCommand::InviteUrl(args) => print_invite_url(args),
        DiscordCommand::Register(args) => super::discord_register::run(args),
    }
}

fn print_invite_url(args: InviteUrlArgs) -> anyhow::Result<ExitCode> {
    let application = match args.application_id {
        Some(id) => ApplicationId::from(id),
        None => {
            let config = Config::load(args.config.as_deref())?;
            let token = config
                .discord
                .enabled_token()
                .ok_or(ApplicationIdError::NoToken)?;
            application_id_from_token(token)?
        }
    };
    let url = invite_url(application, args.guild.map(GuildId::from));
    super::outln!("{url}");
    Ok(ExitCode::SUCCESS)
}

/// The authorization URL for `application`, optionally locked to one server.
pub fn invite_url(application: ApplicationId, guild: Option<GuildId>) -> String {
    let mut url = format!(
        "{AUTHORIZE_URL}?client_id={application}&scope={SCOPES}&permissions={}",
        BOT_PERMISSIONS.bits()
    );
    if let Some(guild) = guild {
        url.push_str(&format!("&guild_id={guild}&disable_guild_select=true"));
    }
    url
}

/// The application id inside a bot token: its first dot-separated part is the bot user's id in
/// base64, and a bot user's id is its application's id (some old applications are the exception:
/// theirs pass `--application-id`).
pub fn application_id_from_token(token: &str) -> Result<ApplicationId, ApplicationIdError> {
    let token = token.trim();
    serenity::utils::validate_token(token).map_err(|_| ApplicationIdError::Undecodable)?;
    let token = token.strip_prefix("Bot ").unwrap_or(token);
    let first_part = token.split('.').next().unwrap_or_default();
    decode_base64(first_part)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|digits| digits.parse::<NonZeroU64>().ok())
        .map(ApplicationId::from)
        .ok_or(ApplicationIdError::Undecodable)
}

/// Base64 with or without padding, in either alphabet (`+/` or `-_`): all a token's first part
/// needs, without a dependency for it. `None` if `text` is not base64.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    // One leftover character holds 6 bits: less than a byte, so no encoder writes it.
    if text.len() % 4 == 1 {
        return None;
    }
    let mut bytes = Vec::with_capacity(text.len() * 3 / 4);
    let mut pending: u32 = 0;
    let mut pending_bits = 0;
    for c in text.bytes() {
        let sextet = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        pending = ((pending << 6) | u32::from(sextet)) & 0xFFFF;
        pending_bits += 6;
        if pending_bits >= 8 {
            pending_bits -= 8;
            bytes.push(u8::try_from((pending >> pending_bits) & 0xFF).ok()?);
        }
    }
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard base64 without padding, as Discord writes a token's first part.
    fn encode_base64(bytes: &[u8]) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut text = String::new();
        for chunk in bytes.chunks(3) {
            let mut group = [0u8; 3];
            group[..chunk.len()].copy_from_slice(chunk);
            let n = (u32::from(group[0]) << 16) | (u32::from(group[1]) << 8) | u32::from(group[2]);
            for i in 0..=chunk.len() {
                text.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            }
        }
        text
    }

    fn fake_token(bot_id: u64) -> String {
        format!(
            "{}.GaBcDe.not-a-real-secret_0123456789abcdefghijkl",
            encode_base64(bot_id.to_string().as_bytes())
        )
    }

    #[test]
    fn the_permissions_are_exactly_the_named_ones() {
        let named = [
            Permissions::VIEW_CHANNEL,
            Permissions::SEND_MESSAGES,
            Permissions::EMBED_LINKS,
            Permissions::ATTACH_FILES,
            Permissions::SEND_MESSAGES_IN_THREADS,
            Permissions::CREATE_PUBLIC_THREADS,
        ];
        let expected = named.iter().fold(0u64, |bits, p| bits | p.bits());
        assert_eq!(BOT_PERMISSIONS.bits(), expected);
        assert_eq!(BOT_PERMISSIONS.iter().count(), named.len());
        // The README's permission table quotes this number.
        assert_eq!(BOT_PERMISSIONS.bits(), 309_237_697_536);
    }

    #[test]
    fn the_permissions_grant_no_power_over_the_server() {
        for forbidden in [
            Permissions::ADMINISTRATOR,
            Permissions::MENTION_EVERYONE,
            Permissions::MANAGE_THREADS,
            Permissions::READ_MESSAGE_HISTORY,
        ] {
            assert!(!BOT_PERMISSIONS.intersects(forbidden), "{forbidden:?}");
        }
    }

    #[test]
    fn the_readme_quotes_the_permission_integer() {
        let readme = include_str!("../../../README.md");
        assert!(
            readme.contains(&BOT_PERMISSIONS.bits().to_string()),
            "README.md does not mention {}",
            BOT_PERMISSIONS.bits()
        );
    }

    #[test]
    fn the_url_names_the_application_scopes_and_permissions() {
        let app = ApplicationId::new(159_985_870_458_322_944);
        assert_eq!(
            invite_url(app, None),
            "https://discord.com/oauth2/authorize?client_id=159985870458322944\
             &scope=bot%20applications.commands&permissions=309237697536"
        );
        assert_eq!(
            invite_url(app, Some(GuildId::new(81_384_788_765_712_384))),
            "https://discord.com/oauth2/authorize?client_id=159985870458322944\
             &scope=bot%20applications.commands&permissions=309237697536\
             &guild_id=81384788765712384&disable_guild_select=true"
        );
    }

    #[test]
    fn the_application_id_is_read_off_a_token() {
        // Ids of 17, 18 and 19 digits: base64 with two, no and one padding characters dropped.
        for id in [
            81_384_788_765_712_384,
            159_985_870_458_322_944,
            1_234_567_890_123_456_789,
        ] {
            let token = fake_token(id);
            assert_eq!(application_id_from_token(&token).unwrap().get(), id);
            assert_eq!(
                application_id_from_token(&format!("Bot {token}"))
                    .unwrap()
                    .get(),
                id
            );
        }
        // The example token of serenity's docs, encoded by Discord rather than by this test.
        let token = "Mjg4NzYwMjQxMzYzODc3ODg4.C_ikow.j3VupLBuE1QWZng3TMGH0z_UAwg";
        assert_eq!(
            application_id_from_token(token).unwrap().get(),
            288_760_241_363_877_888
        );
    }

    #[test]
    fn a_token_that_is_not_a_bot_token_is_refused_without_quoting_it() {
        let secret = "hunter2";
        for token in [
            secret.to_owned(),
            format!("{}.{secret}.x", encode_base64(b"not digits")),
            format!("{}.{secret}.x", encode_base64(b"0")),
            format!("M!.{secret}.x"),
            format!("ODE.{secret}.x.y"),
        ] {
            let error = application_id_from_token(&token).unwrap_err();
            assert!(matches!(error, ApplicationIdError::Undecodable), "{token}");
            assert!(!error.to_string().contains(secret));
        }
    }

    #[test]
    fn padded_and_url_safe_base64_decode_alike() {
        assert_eq!(
            decode_base64("ODEzODQ3ODg3NjU3MTIzODQ=").unwrap(),
            b"81384788765712384"
        );
        assert_eq!(
            decode_base64("ODEzODQ3ODg3NjU3MTIzODQ").unwrap(),
            b"81384788765712384"
        );
        assert_eq!(decode_base64("-_8").unwrap(), decode_base64("+/8").unwrap());
        assert_eq!(decode_base64("QUJD").unwrap(), b"ABC");
        assert!(decode_base64("QUJDR").is_none());
    }
}
