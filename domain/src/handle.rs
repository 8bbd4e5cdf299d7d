//! A player's handle: the unique, case-insensitive name people use to find and challenge them
//! (`/players/ada`, `"opponent": "ada"`). The display name is kept apart and may be anything;
//! the handle is what is unique.
//!
//! The rule: 2 to 24 characters of `a-z`, `0-9`, `_` and `-`, starting with a letter, not a
//! reserved word, and not starting with "taflbot" (the service's own players: the AI levels). Handles are compared and stored lowercased, so "Ada" and "ada" are one handle.

use std::fmt;

use serde::{Deserialize, Serialize};

pub const MIN_HANDLE_CHARS: usize = 2;
pub const MAX_HANDLE_CHARS: usize = 24;

/// Words no player may take: they name the service, its roles or its routes, or read as
/// someone else (`me`), or as a ping in Discord (`everyone`, `here`).
pub const RESERVED_HANDLES: &[&str] = &[
    "admin",
    "administrator",
    "ai",
    "anonymous",
    "api",
    "bot",
    "everyone",
    "help",
    "here",
    "me",
    "mod",
    "moderator",
    "null",
    "official",
    "root",
    "staff",
    "support",
    "system",
    "taflbot",
    "undefined",
];

/// No person's handle starts with this: handles that do are the service's own (the players
/// that stand for the AI levels on the leaderboards), so nobody can pass for one of them.
pub const SERVICE_PREFIX: &str = "taflbot";

/// What is wrong with a handle someone asked for, in their terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandleError {
    #[error(
        "a handle must be {MIN_HANDLE_CHARS} to {MAX_HANDLE_CHARS} characters long; {0:?} has {1}"
    )]
    Length(String, usize),
    #[error("a handle must start with a letter (a-z); {0:?} starts with {1:?}")]
    FirstChar(String, char),
    #[error("a handle may only hold letters a-z, digits, \"_\" and \"-\"; {0:?} holds {1:?}")]
    Char(String, char),
    #[error("the handle {0:?} is reserved; choose another")]
    Reserved(String),
    #[error(
        "handles starting with {SERVICE_PREFIX:?} are the bot's own; choose another than {0:?}"
    )]
    ServicePrefix(String),
}

/// A valid handle, lowercased.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Handle(String);

/// On the wire: the rule as a pattern, so a client can check a handle before sending it.
/// (The service also reads one with a leading `@`, surrounding spaces or capitals, and stores
/// it as here.)
impl utoipa::PartialSchema for Handle {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let more = MAX_HANDLE_CHARS - 1;
        let fewer = MIN_HANDLE_CHARS - 1;
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .min_length(Some(MIN_HANDLE_CHARS))
            .max_length(Some(MAX_HANDLE_CHARS))
            .pattern(Some(format!("^[a-z][a-z0-9_-]{{{fewer},{more}}}$")))
            .description(Some(format!(
                "A player's handle: unique, case-insensitive (stored lowercased), \
                 {MIN_HANDLE_CHARS} to {MAX_HANDLE_CHARS} of a-z, 0-9, _ and -, starting with a \
                 letter; these reserved words are refused: {}, and so is any handle starting \
                 with {SERVICE_PREFIX:?}",
                RESERVED_HANDLES.join(", ")
            )))
            .into()
    }
}

impl utoipa::ToSchema for Handle {}

impl Handle {
    /// Reads a handle as a person typed it: surrounding spaces and a leading `@` are ignored,
    /// letters are lowercased; anything else outside the rule is refused, naming what.
    pub fn parse(text: &str) -> Result<Handle, HandleError> {
        let trimmed = text.trim();
        let lowered = trimmed.strip_prefix('@').unwrap_or(trimmed).to_lowercase();
        let count = lowered.chars().count();
        if !(MIN_HANDLE_CHARS..=MAX_HANDLE_CHARS).contains(&count) {
            return Err(HandleError::Length(trimmed.to_owned(), count));
        }
        if let Some(bad) = lowered.chars().find(|c| !allowed(*c)) {
            return Err(HandleError::Char(trimmed.to_owned(), bad));
        }
        if let Some(first) = lowered.chars().next()
            && !first.is_ascii_lowercase()
        {
            return Err(HandleError::FirstChar(trimmed.to_owned(), first));
        }
        if RESERVED_HANDLES.contains(&lowered.as_str()) {
            return Err(HandleError::Reserved(lowered));
        }
        Ok(Handle(lowered))
    }

    /// Reads a handle a person asks to hold: the rule, and none of the bot's own (a handle
    /// read to find someone, [`Handle::parse`], may be one of those).
    pub fn parse_for_person(text: &str) -> Result<Handle, HandleError> {
        let handle = Handle::parse(text)?;
        if handle.0.starts_with(SERVICE_PREFIX) {
            return Err(HandleError::ServicePrefix(handle.0));
        }
        Ok(handle)
    }

    /// The handle of the player that stands for the AI at `level`: `taflbot-ai-level-3`, or
    /// with `-n` after it when an older account holds that (made before the prefix was kept
    /// for the service).
    pub fn of_ai_level(level: u8, n: u32) -> Handle {
        match n {
            0 | 1 => Handle(format!("{SERVICE_PREFIX}-ai-level-{level}")),
            n => Handle(format!("{SERVICE_PREFIX}-ai-level-{level}-{n}")),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A handle made from a display name or a Discord username, to be made unique with a
    /// numeric suffix (see [`Handle::with_suffix`]): lowercased, accents and other characters
    /// outside the rule dropped, spaces and dots turned into `_`, cut to leave room for a
    /// suffix. Falls back to "player" when nothing usable is left, or when what is left starts
    /// with the service's prefix (no suffix would make it a person's handle).
    pub fn base_from(name: &str) -> String {
        let mut base = String::new();
        for c in name.trim().to_lowercase().chars() {
            let c = match c {
                ' ' | '.' => '_',
                c => c,
            };
            if !allowed(c) || (base.is_empty() && !c.is_ascii_lowercase()) {
                continue;
            }
            // No runs of separators: "a  b" is "a_b".
            if matches!(c, '_' | '-') && base.ends_with(['_', '-']) {
                continue;
            }
            base.push(c);
        }
        let base = base.trim_end_matches(['_', '-']);
        let base: String = base.chars().take(BASE_CHARS).collect();
        if base.chars().count() < MIN_HANDLE_CHARS || base.starts_with(SERVICE_PREFIX) {
            "player".to_owned()
        } else {
            base
        }
    }

    /// `base` itself (`n` = 1) or `base` followed by `n`, cut so it fits; `None` when that is
    /// not a valid handle (a reserved word).
    pub fn with_suffix(base: &str, n: u32) -> Option<Handle> {
        let text = if n <= 1 {
            base.to_owned()
        } else {
            let suffix = n.to_string();
            let room = MAX_HANDLE_CHARS.saturating_sub(suffix.len());
            format!("{}{suffix}", base.chars().take(room).collect::<String>())
        };
        Handle::parse(&text).ok()
    }
}

/// Room left for a numeric suffix in a derived handle.
const BASE_CHARS: usize = MAX_HANDLE_CHARS - 4;

fn allowed(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Handle {
    type Error = HandleError;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Handle::parse(&text)
    }
}

impl Handle {
    /// A handle as it was stored. Stored handles were checked when written; they are read as
    /// they are, so a later change of the rule (a new reserved word) never makes a stored row
    /// unreadable.
    pub fn from_stored(text: String) -> Handle {
        Handle(text)
    }
}

impl From<Handle> for String {
    fn from(handle: Handle) -> Self {
        handle.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_lowercased_and_checked_against_the_rule() {
        assert_eq!(
            Handle::parse(" @Ada_L-1 ").map(|h| h.0),
            Ok("ada_l-1".into())
        );
        assert!(matches!(Handle::parse("a"), Err(HandleError::Length(..))));
        assert!(matches!(
            Handle::parse(&"a".repeat(25)),
            Err(HandleError::Length(..))
        ));
        assert!(matches!(
            Handle::parse("1ada"),
            Err(HandleError::FirstChar(..))
        ));
        assert!(matches!(
            Handle::parse("_ada"),
            Err(HandleError::FirstChar(..))
        ));
        assert!(matches!(
            Handle::parse("ada lovelace"),
            Err(HandleError::Char(_, ' '))
        ));
        assert!(matches!(
            Handle::parse("adä"),
            Err(HandleError::Char(_, 'ä'))
        ));
        for taken in ["taflbot-ai-level-3", "TaflBot_AI", "taflbot2"] {
            assert!(Handle::parse(taken).is_ok(), "found by it: {taken}");
            let refused = Handle::parse_for_person(taken);
            assert!(
                matches!(refused, Err(HandleError::ServicePrefix(_))),
                "{taken}: {refused:?}"
            );
        }
        assert_eq!(Handle::of_ai_level(3, 1).as_str(), "taflbot-ai-level-3");
        assert_eq!(Handle::of_ai_level(3, 2).as_str(), "taflbot-ai-level-3-2");
        for word in ["admin", "Everyone", "ME", "ai"] {
            assert!(
                matches!(Handle::parse(word), Err(HandleError::Reserved(_))),
                "{word}"
            );
        }
        let message = Handle::parse("1ada").unwrap_err().to_string();
        assert!(message.contains("start with a letter"), "{message}");
    }

    #[test]
    fn bases_are_made_from_any_name() {
        assert_eq!(Handle::base_from("Ada Lovelace"), "ada_lovelace");
        assert_eq!(Handle::base_from("  ..Bo.b  "), "bo_b");
        assert_eq!(Handle::base_from("42 Zoë"), "zo");
        assert_eq!(Handle::base_from("@everyone"), "everyone");
        assert_eq!(Handle::base_from("é"), "player");
        assert_eq!(Handle::base_from("x"), "player");
        // A name that reads as the bot's own gets no handle that does.
        assert_eq!(Handle::base_from("Taflbot AI level 3"), "player");
        assert!(Handle::with_suffix(&Handle::base_from("taflbot"), 1).is_some());
        assert_eq!(Handle::base_from(&"long".repeat(20)).len(), BASE_CHARS);
    }

    #[test]
    fn suffixes_make_derived_handles_valid_and_distinct() {
        assert_eq!(
            Handle::with_suffix("ada", 1).map(|h| h.0),
            Some("ada".into())
        );
        assert_eq!(
            Handle::with_suffix("ada", 2).map(|h| h.0),
            Some("ada2".into())
        );
        // A reserved base is taken only with a suffix.
        assert_eq!(Handle::with_suffix("everyone", 1), None);
        assert_eq!(
            Handle::with_suffix("everyone", 2).map(|h| h.0),
            Some("everyone2".into())
        );
        let long = "x".repeat(BASE_CHARS);
        let h = Handle::with_suffix(&long, 123_456).unwrap();
        assert_eq!(h.as_str().len(), MAX_HANDLE_CHARS);
        assert!(h.as_str().ends_with("123456"));
    }
}
