//! Where a game or challenge is shown in a front end. Only the Discord front end, acting on an
//! interaction in a channel, can bind a game to that channel; a client of the HTTP API gives a
//! free label, which is stored and shown back but never posted to.

use crate::{Result, ServiceError};

/// How a Discord place is written in the `context` column.
const DISCORD_CHANNEL: &str = "discord:channel:";

/// A label may be at most this long (characters).
pub const MAX_LABEL_CHARS: usize = 200;

/// The labels a client may give (see [`Place::checked`]).
pub fn context_schema() -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::schema::Type::String,
            utoipa::openapi::schema::Type::Null,
        ]))
        .max_length(Some(MAX_LABEL_CHARS))
        .description(Some(
            "Your own label for the game, shown back as it is. A label naming a Discord place \
             (starting with \"discord:\") is refused with 422: only /challenge or /play used in \
             a Discord channel binds a game to it.",
        ))
        .build()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A Discord channel or thread where a slash command or button was used.
    DiscordChannel(u64),
    /// A client's own label (HTTP): never a place the bot posts to.
    Label(String),
}

impl Place {
    /// The place as stored.
    pub fn to_context(&self) -> String {
        match self {
            Place::DiscordChannel(id) => format!("{DISCORD_CHANNEL}{id}"),
            Place::Label(label) => label.clone(),
        }
    }

    /// Reads a stored context (rows written by any earlier version read the same way).
    pub fn from_context(context: &str) -> Place {
        match discord_channel_of(context) {
            Some(id) => Place::DiscordChannel(id),
            None => Place::Label(context.to_owned()),
        }
    }

    /// The Discord channel this place is, if it is one.
    pub fn discord_channel(&self) -> Option<u64> {
        match self {
            Place::DiscordChannel(id) => Some(*id),
            Place::Label(_) => None,
        }
    }

    /// Checks a place a client asked for: a label that names a Discord place is refused, so no
    /// client can make the bot post in a channel where nobody asked for the game.
    pub fn checked(self) -> Result<Place> {
        let Place::Label(label) = &self else {
            return Ok(self);
        };
        if label.trim().to_ascii_lowercase().starts_with("discord:") {
            return Err(ServiceError::Invalid(format!(
                "context {label:?} names a Discord place; a game is bound to a Discord channel \
                 only by /challenge or /play used in that channel. Give another label, or none."
            )));
        }
        if label.chars().count() > MAX_LABEL_CHARS {
            return Err(ServiceError::Invalid(format!(
                "context is {} characters long; at most {MAX_LABEL_CHARS} are allowed",
                label.chars().count()
            )));
        }
        Ok(self)
    }
}

fn discord_channel_of(context: &str) -> Option<u64> {
    let id: u64 = context.strip_prefix(DISCORD_CHANNEL)?.parse().ok()?;
    (id != 0).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_round_trip_through_the_context_column() {
        let channel = Place::DiscordChannel(1_234_567_890_123);
        assert_eq!(Place::from_context(&channel.to_context()), channel);
        let label = Place::Label("my bot, table 3".into());
        assert_eq!(Place::from_context(&label.to_context()), label);
        assert_eq!(
            Place::from_context("discord:channel:0"),
            Place::Label("discord:channel:0".into())
        );
    }

    #[test]
    fn a_client_label_cannot_name_a_discord_place() {
        for label in [
            "discord:channel:42",
            " Discord:channel:42",
            "discord:anything",
        ] {
            let error = Place::Label(label.into()).checked().unwrap_err();
            assert!(error.to_string().contains("/challenge"), "{error}");
        }
        assert!(Place::Label("x".repeat(201)).checked().is_err());
        assert!(Place::Label("table 3".into()).checked().is_ok());
        assert!(Place::DiscordChannel(42).checked().is_ok());
    }
}
