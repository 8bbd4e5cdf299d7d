//! Ids of the stored things, each its own type, so a challenge id never passes where a game id
//! is meant. On the wire and in the database each is the plain integer.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $described:literal) => {
        $(#[$doc])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl $name {
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }

        /// On the wire: a whole number from 1 up.
        impl utoipa::PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                    .minimum(Some(1))
                    .description(Some($described))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}
    };
}

id_type!(
    /// A player: a person known by a token, a Discord account, or both.
    PlayerId,
    "A player's id."
);
id_type!(GameId, "A game's id.");
id_type!(ChallengeId, "A challenge's id.");
id_type!(
    /// An event; ids increase in commit order, so `since` resumes a stream.
    EventId,
    "An event's id; ids increase in commit order, so a stream resumes after the last one seen."
);
id_type!(WebhookId, "A webhook's id.");
id_type!(TokenId, "An API token's id.");
id_type!(
    /// A browser session of the web client.
    WebSessionId,
    "A browser session's id."
);
id_type!(
    /// One event's delivery to one webhook.
    DeliveryId,
    "A webhook delivery's id."
);
id_type!(
    /// A post waiting in the Discord outbox.
    OutboxId,
    "A Discord outbox post's id."
);
id_type!(
    /// A mail in the mail outbox (a confirmation link, a turn notice).
    MailId,
    "A mail's id."
);
id_type!(
    /// A tournament: its players, rounds and games.
    TournamentId,
    "A tournament's id."
);
id_type!(
    /// A team match: two teams, a pair of games on each board.
    TeamMatchId,
    "A team match's id."
);
id_type!(
    /// A computer analysis of a game.
    AnalysisId,
    "An analysis's id."
);
id_type!(
    /// A player named in an imported game record: a name, not a taflbot account.
    ImportedPlayerId,
    "An imported player's id (a name from an imported record, not an account)."
);
id_type!(
    /// A comment or a variation added to a finished game.
    AnnotationId,
    "An annotation's id."
);
id_type!(
    /// A puzzle mined from a game.
    PuzzleId,
    "A puzzle's id."
);
