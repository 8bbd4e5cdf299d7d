use crate::store::StoreError;

use super::views::GameView;

/// Everything a caller of the games service can be told. Front ends map `code()` to their
/// own form (an HTTP status, a private Discord reply); `Display` is a readable sentence.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("{0}")]
    NotFound(String),
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
    #[error("{0}")]
    Unavailable(String),
    /// The database is out of reach for now (locked, I/O, file gone): worth retrying soon.
    #[error("{0}")]
    StoreUnavailable(String),
    #[error("{0}")]
    Internal(String),
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
            ServiceError::Unavailable(_) | ServiceError::StoreUnavailable(_) => "unavailable",
            ServiceError::Internal(_) => "internal",
        }
    }

    pub(crate) fn not_found(what: impl std::fmt::Display) -> ServiceError {
        ServiceError::NotFound(format!("{what} not found"))
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        tracing::error!(error = %e, "store failure");
        if e.is_unavailable() {
            // The detail (a path, SQLite's words) is in the log, not for the client.
            ServiceError::StoreUnavailable(
                "the database is unavailable for now; try again shortly".into(),
            )
        } else {
            ServiceError::Internal(format!("storage failure: {e}"))
        }
    }
}
