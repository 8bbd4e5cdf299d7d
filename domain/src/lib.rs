//! What the service speaks in: ids, statuses, results, and seats. The store maps these
//! to its columns (`columns.rs`); front ends match on them; nothing crosses a module boundary as
//! a bare string or integer.

pub mod client_addr;
pub mod webhook_target;

mod columns;
mod engine_schemas;
mod game_facts;
mod handle;
mod ids;
mod instance;
mod mail_kind;
mod player_kind;
mod reminder;
mod result;
mod seat;
mod session_opening;
mod shared_limit;
mod side_choice;
mod status;
mod title;
mod withdrawal_rule;

pub use columns::{SideColumn, Word, from_word};
pub use engine_schemas::{SideSchema, WarningKindSchema};
pub use game_facts::{GameOrigin, Visibility};
pub use handle::{Handle, HandleError, MAX_HANDLE_CHARS, MIN_HANDLE_CHARS};
pub use ids::{
    AnalysisId, AnnotationId, ChallengeId, DeliveryId, EventId, GameId, ImportedPlayerId, MailId,
    OutboxId, PlayerId, PuzzleId, TeamMatchId, TokenId, TournamentId, WebSessionId, WebhookId,
};
pub use instance::InstanceId;
pub use mail_kind::MailKind;
pub use player_kind::PlayerKind;
pub use reminder::ReminderKind;
pub use result::ResultReason;
pub use seat::Seat;
pub use session_opening::SessionOpening;
pub use shared_limit::SharedLimit;
pub use side_choice::SideChoice;
pub use status::{
    AnalysisStatus, ChallengeStatus, GameStatus, MatchStatus, TeamSide, TournamentStatus,
    WebhookStatus,
};
pub use tafl_engine::{DrawReason, Side, WinReason};
pub use title::{Title, TitleThreshold, title_for};
pub use withdrawal_rule::WithdrawalRule;
