//! What callers ask the service for.

use tafl_engine::ai::Level;
use utoipa::openapi::schema::{Object, ObjectBuilder, SchemaType, Type};

use crate::domain::PlayerId;
pub use crate::domain::SideChoice;

use crate::ClockSpec;

/// Whom a challenge is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    Player(PlayerId),
    /// Anyone may accept.
    Open,
    /// The game against the AI starts at once.
    Ai {
        level: u8,
    },
}

/// The variant of a challenge that names none, in every front end.
pub const DEFAULT_VARIANT: &str = "copenhagen";
/// The AI's level when a front end's user names none.
pub const DEFAULT_AI_LEVEL: u8 = 2;

/// A challenge's `variant`: a preset's id, or null.
pub fn variant_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(
            tafl_engine::variants()
                .iter()
                .map(|v| serde_json::Value::from(v.id))
                .chain([serde_json::Value::Null]),
        ))
        .description(Some(format!(
            "A preset's id from /variants (default {DEFAULT_VARIANT})"
        )))
        .build()
}

/// A variant named in a path (`/leaderboards/{variant}`): a preset's id.
pub fn variant_path_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(tafl_engine::variants().iter().map(|v| v.id)))
        .description(Some("A preset's id from /variants"))
        .build()
}

/// A challenge's `ai_level`: one of the engine's AI levels, or null. (A server may allow
/// fewer, with `games.max_ai_level`.)
pub fn ai_level_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
        .minimum(Some(Level::MIN))
        .maximum(Some(Level::MAX))
        .description(Some(
            "Challenge the AI at this level: the game starts at once",
        ))
        .build()
}

/// Which rules a game uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesChoice {
    /// A preset id (see `variants`).
    Variant(String),
    /// An OpenTafl rules string.
    Rules(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChallenge {
    pub opponent: Opponent,
    pub rules: RulesChoice,
    pub side: SideChoice,
    pub clock: ClockSpec,
    /// Where the game is shown in a front end; a client's label is checked (see [`Place`]).
    pub context: Option<crate::Place>,
    /// Rated or casual; `None`: rated between two people on a preset with a clock (see
    /// [`Challenges::check`](crate::Challenges::check)).
    pub rated: Option<bool>,
    /// Shown only to its players; otherwise anyone may read the game, without a token.
    pub private: bool,
}

/// A move as a player sends it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MoveRequest {
    /// Forgiving notation: "e5-e8", "E5 E8", "e5e8"...
    pub text: String,
    /// The ply the player saw (moves played so far). When given and the game has moved on,
    /// the move is refused with a conflict carrying the current game.
    pub expected_ply: Option<u32>,
    /// A repeated request with the same key gets the first answer again.
    pub idempotency_key: Option<String>,
}

impl Default for RulesChoice {
    fn default() -> Self {
        RulesChoice::Variant(DEFAULT_VARIANT.to_owned())
    }
}
