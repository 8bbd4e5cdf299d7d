//! Who a player row is: a person, or the taflbot AI at one level.

use serde::Serialize;
use utoipa::ToSchema;

/// `person`, or `ai`: the AI at a level, rated from its games against people (never signs in,
/// earns no title).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlayerKind {
    Person,
    Ai,
}

impl PlayerKind {
    /// The kind of a player who is the AI at `ai_level`, or a person when that is `None`.
    pub fn of(ai_level: Option<u8>) -> PlayerKind {
        match ai_level {
            Some(_) => PlayerKind::Ai,
            None => PlayerKind::Person,
        }
    }
}
