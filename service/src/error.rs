use crate::domain::{
    AnnotationId, ChallengeId, EventId, GameId, PlayerId, PuzzleId, TokenId, TournamentId,
    WebSessionId, WebhookId,
};
use crate::logging::ErrorChain;
use crate::store::StoreError;

use crate::views::GameView;

/// The cause of an internal error: any error, or a sentence naming what broke.
pub type InternalCause = Box<dyn std::error::Error + Send + Sync>;

/// The code of a refused NUL character, on every front end (`ServiceError::NulCharacter`, and
/// the API's and the web client's refusal of one in a request's fields).
pub const NUL_CODE: &str = "nul_character";

/// What a caller asked for that is not there (or not for their eyes: a private game is not
/// found by anyone else). Typed, so a front end can tell a missing game from a missing
/// analysis; `Display` is the sentence shown to users.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Missing {
    #[error("game {0} not found")]
    Game(GameId),
    /// The game is there, but it has fewer plies than asked for.
    #[error("game {game} has only {plies} moves, not {asked}")]
    Ply {
        game: GameId,
        plies: u32,
        asked: u32,
    },
    /// The game is there, but not in the channel the command came from.
    #[error("game {0} is not played in this channel")]
    GameElsewhere(GameId),
    /// The game is there, but nobody asked for its analysis yet.
    #[error("game {0} has no analysis yet: ask for one with POST /games/{0}/analysis")]
    Analysis(GameId),
    #[error("player {0} not found")]
    Player(PlayerId),
    #[error("no player has the handle {0:?}")]
    Handle(String),
    #[error("challenge {0} not found")]
    Challenge(ChallengeId),
    #[error("event {0} not found")]
    Event(EventId),
    #[error("webhook {0} not found")]
    Webhook(WebhookId),
    #[error("token {0} not found")]
    Token(TokenId),
    #[error("session {0} not found")]
    WebSession(WebSessionId),
    #[error("no variant is called {0:?}")]
    Variant(String),
    #[error("tournament {0} not found")]
    Tournament(TournamentId),
    #[error("team match {0} not found")]
    TeamMatch(crate::domain::TeamMatchId),
    #[error("annotation {0} not found (or not yours)")]
    Annotation(AnnotationId),
    #[error("puzzle {0} not found")]
    Puzzle(PuzzleId),
    /// Every puzzle (of the variant asked for) has been tried by this player.
    #[error("no puzzle left to try{0}: come back once more games are analysed")]
    NoPuzzleLeft(String),
    /// A leaderboard is kept per preset variant; `known` lists them.
    #[error("no variant {variant:?} (each preset has a leaderboard; known: {known})")]
    Leaderboard { variant: String, known: String },
}

/// Everything a caller of the games service can be told. Front ends map `code()` to their
/// own form (an HTTP status, a private Discord reply); `Display` is a readable sentence.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    NotFound(Missing),
    #[error("{0}")]
    Forbidden(String),
    #[error("it is not your turn: {0} to move")]
    NotYourTurn(String),
    #[error("{message}")]
    Conflict {
        message: String,
        /// The game as it is now, so the caller can retry against it.
        game: Option<Box<GameView>>,
    },
    #[error("the game is over")]
    GameOver,
    #[error("illegal move: {0}")]
    IllegalMove(String),
    #[error("{0}")]
    Invalid(String),
    /// A text holding the NUL character, which no database column holds (PostgreSQL refuses
    /// it, SQLite would keep it): refused where the text enters, before anything is stored.
    /// The text says where it was, in the caller's terms ("the comment on move 3").
    #[error("{0} must not contain the NUL character (\\u0000)")]
    NulCharacter(String),
    #[error("{0}")]
    Unavailable(String),
    /// Asked too often or too much at once (a cooldown, a per-player cap): refused for now,
    /// with when to try again (for a cap, when it is worth looking again).
    #[error("{message}")]
    Limited {
        message: String,
        retry_after_secs: u64,
    },
    /// The database is out of reach for now (locked, I/O, file gone): worth retrying soon.
    /// The cause (a path, SQLite's words) is for the log, not for the client.
    #[error("the database is unavailable for now; try again shortly")]
    StoreUnavailable(#[source] StoreError),
    /// A failure of ours (a bug, corrupt data, a crashed task): a client is told only these
    /// words; the cause is kept for the one log line of the boundary that answers.
    #[error("internal error")]
    Internal(#[source] InternalCause),
}

impl ServiceError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ServiceError::NotFound(_) => "not_found",
            ServiceError::Forbidden(_) => "forbidden",
            ServiceError::NotYourTurn(_) => "not_your_turn",
            ServiceError::Conflict { .. } => "conflict",
            ServiceError::GameOver => "game_over",
            ServiceError::IllegalMove(_) => "illegal_move",
            ServiceError::Invalid(_) => "invalid",
            ServiceError::NulCharacter(_) => NUL_CODE,
            ServiceError::Unavailable(_) | ServiceError::StoreUnavailable(_) => "unavailable",
            ServiceError::Limited { .. } => "rate_limited",
            ServiceError::Internal(_) => "internal",
        }
    }

    /// An internal error caused by `cause`: an error, or a sentence naming what broke.
    pub fn internal(cause: impl Into<InternalCause>) -> ServiceError {
        ServiceError::Internal(cause.into())
    }

    /// Whether this is a failure of ours (logged by the boundary that answers), not a refusal
    /// of what the caller asked (answered, not logged).
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            ServiceError::Internal(_) | ServiceError::StoreUnavailable(_)
        )
    }

    /// Logs a failure of ours with its causes; a refusal is not logged. Called once, by the
    /// boundary that answers for it (an HTTP or web responder, a background worker), which
    /// names itself in `during`.
    pub fn log_failure(&self, during: &str) {
        match self {
            ServiceError::Internal(_) => {
                tracing::error!(error = %ErrorChain(self), "{during} failed");
            }
            // The database out of reach passes; worth a warning, not an alarm.
            ServiceError::StoreUnavailable(_) => {
                tracing::warn!(error = %ErrorChain(self), "{during} failed");
            }
            _ => {}
        }
    }
}

/// No logging here: the boundary that answers logs the failure once (`log_failure`).
impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        if e.is_unavailable() {
            ServiceError::StoreUnavailable(e)
        } else {
            ServiceError::internal(e)
        }
    }
}
