//! How the typed values are written as words: in sentences (`Display`) and, through the store
//! (`store/src/domain_values.rs`), in their columns. The one place that names them in text.

use tafl_engine::Side;

use super::{
    AnalysisStatus, ChallengeStatus, GameStatus, MailKind, ReminderKind, SessionOpening,
    SharedLimit, SideChoice, TournamentStatus, WithdrawalRule,
};
use super::{MatchStatus, TeamSide};

/// A value kept as one of a fixed set of words.
pub trait Word: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn word(self) -> &'static str;
}

/// The value a word names, if any.
pub fn from_word<T: Word>(text: &str) -> Option<T> {
    T::ALL.iter().copied().find(|v| v.word() == text)
}

macro_rules! word_display {
    ($type:ty) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.word())
            }
        }
    };
}

impl Word for GameStatus {
    const ALL: &'static [Self] = &[
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Aborted,
    ];
    fn word(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }
}
word_display!(GameStatus);

impl Word for TournamentStatus {
    const ALL: &'static [Self] = &[
        TournamentStatus::SignUp,
        TournamentStatus::Running,
        TournamentStatus::Finished,
        TournamentStatus::Cancelled,
    ];
    fn word(self) -> &'static str {
        match self {
            TournamentStatus::SignUp => "sign_up",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }
}
word_display!(TournamentStatus);

impl Word for WithdrawalRule {
    const ALL: &'static [Self] = &[
        WithdrawalRule::Forfeit,
        WithdrawalRule::Annul,
        WithdrawalRule::AnnulUnderHalf,
    ];
    fn word(self) -> &'static str {
        match self {
            WithdrawalRule::Forfeit => "forfeit",
            WithdrawalRule::Annul => "annul",
            WithdrawalRule::AnnulUnderHalf => "annul_under_half",
        }
    }
}
word_display!(WithdrawalRule);

impl Word for MatchStatus {
    const ALL: &'static [Self] = &[
        MatchStatus::SignUp,
        MatchStatus::Running,
        MatchStatus::Finished,
        MatchStatus::Cancelled,
    ];
    fn word(self) -> &'static str {
        match self {
            MatchStatus::SignUp => "sign_up",
            MatchStatus::Running => "running",
            MatchStatus::Finished => "finished",
            MatchStatus::Cancelled => "cancelled",
        }
    }
}
word_display!(MatchStatus);

impl Word for TeamSide {
    const ALL: &'static [Self] = &[TeamSide::Home, TeamSide::Away];
    fn word(self) -> &'static str {
        match self {
            TeamSide::Home => "home",
            TeamSide::Away => "away",
        }
    }
}
word_display!(TeamSide);

impl Word for AnalysisStatus {
    const ALL: &'static [Self] = &[
        AnalysisStatus::Queued,
        AnalysisStatus::Running,
        AnalysisStatus::Done,
    ];
    fn word(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
        }
    }
}
word_display!(AnalysisStatus);

impl Word for ChallengeStatus {
    const ALL: &'static [Self] = &[
        ChallengeStatus::Pending,
        ChallengeStatus::Accepted,
        ChallengeStatus::Declined,
        ChallengeStatus::Cancelled,
        ChallengeStatus::Expired,
    ];
    fn word(self) -> &'static str {
        match self {
            ChallengeStatus::Pending => "pending",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }
}
word_display!(ChallengeStatus);

impl Word for SideChoice {
    const ALL: &'static [Self] = &[
        SideChoice::Attackers,
        SideChoice::Defenders,
        SideChoice::Random,
    ];
    fn word(self) -> &'static str {
        self.as_str()
    }
}
word_display!(SideChoice);

impl Word for ReminderKind {
    const ALL: &'static [Self] = &[ReminderKind::Deadline, ReminderKind::Inactivity];
    fn word(self) -> &'static str {
        match self {
            ReminderKind::Deadline => "deadline",
            ReminderKind::Inactivity => "inactivity",
        }
    }
}
word_display!(ReminderKind);

impl Word for SessionOpening {
    const ALL: &'static [Self] = &[SessionOpening::SignInLink, SessionOpening::ApiToken];
    fn word(self) -> &'static str {
        match self {
            SessionOpening::SignInLink => "sign_in_link",
            SessionOpening::ApiToken => "api_token",
        }
    }
}
word_display!(SessionOpening);

impl Word for MailKind {
    const ALL: &'static [Self] = &[MailKind::Confirmation, MailKind::Turns];
    fn word(self) -> &'static str {
        match self {
            MailKind::Confirmation => "confirmation",
            MailKind::Turns => "turns",
        }
    }
}
word_display!(MailKind);

impl Word for SharedLimit {
    const ALL: &'static [Self] = &[SharedLimit::SignInFailure, SharedLimit::Registration];
    fn word(self) -> &'static str {
        match self {
            SharedLimit::SignInFailure => "sign_in_failure",
            SharedLimit::Registration => "registration",
        }
    }
}
word_display!(SharedLimit);

/// The engine's [`Side`] in a column (a foreign type needs a local wrapper to be stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideColumn(pub Side);

impl Word for SideColumn {
    const ALL: &'static [Self] = &[SideColumn(Side::Attackers), SideColumn(Side::Defenders)];
    fn word(self) -> &'static str {
        self.0.as_str()
    }
}
word_display!(SideColumn);
