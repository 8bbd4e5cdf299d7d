//! How the typed values are written as words: in their columns, and in sentences (`Display`).
//! The one place that names them in text.

use tafl_engine::Side;

use crate::store::{FromSqlValue, SqlValue, ToSqlValue, ValueError};

use super::{AnalysisStatus, ChallengeStatus, GameStatus, ReminderKind, ResultReason, SideChoice};

/// A value kept as one of a fixed set of words.
trait Word: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn word(self) -> &'static str;
}

fn read_word<T: Word>(value: SqlValue<'_>) -> Result<T, ValueError> {
    let text = String::from_sql_value(value)?;
    T::ALL
        .iter()
        .copied()
        .find(|v| v.word() == text)
        .ok_or_else(|| ValueError::Invalid(format!("unexpected stored word {text:?}")))
}

macro_rules! word_column {
    ($type:ty) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.word())
            }
        }
        impl ToSqlValue for $type {
            fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
                Ok(SqlValue::Text(self.word().into()))
            }
        }
        impl FromSqlValue for $type {
            fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
                read_word(value)
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
word_column!(GameStatus);

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
word_column!(AnalysisStatus);

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
word_column!(ChallengeStatus);

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
word_column!(SideChoice);

impl Word for ReminderKind {
    const ALL: &'static [Self] = &[ReminderKind::Deadline, ReminderKind::Inactivity];
    fn word(self) -> &'static str {
        match self {
            ReminderKind::Deadline => "deadline",
            ReminderKind::Inactivity => "inactivity",
        }
    }
}
word_column!(ReminderKind);

impl ToSqlValue for ResultReason {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Text(self.as_str().into()))
    }
}

impl FromSqlValue for ResultReason {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        let text = String::from_sql_value(value)?;
        ResultReason::parse(&text)
            .ok_or_else(|| ValueError::Invalid(format!("unexpected result reason {text:?}")))
    }
}

/// The engine's [`Side`] in a column (a foreign type needs a local wrapper to be stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SideColumn(pub Side);

impl Word for SideColumn {
    const ALL: &'static [Self] = &[SideColumn(Side::Attackers), SideColumn(Side::Defenders)];
    fn word(self) -> &'static str {
        self.0.as_str()
    }
}
word_column!(SideColumn);

#[cfg(test)]
mod tests {
    use super::*;

    /// Written as its column value and read back from it.
    fn round_trip<T: ToSqlValue + FromSqlValue + PartialEq + std::fmt::Debug>(value: T) {
        let stored = value.to_sql_value().map(|v| T::from_sql_value(v));
        assert_eq!(stored, Ok(Ok(value)));
    }

    #[test]
    fn every_value_reads_back_as_written() {
        GameStatus::ALL.iter().for_each(|&s| round_trip(s));
        AnalysisStatus::ALL.iter().for_each(|&s| round_trip(s));
        ChallengeStatus::ALL.iter().for_each(|&s| round_trip(s));
        SideChoice::ALL.iter().for_each(|&s| round_trip(s));
        SideColumn::ALL.iter().for_each(|&s| round_trip(s));
        ReminderKind::ALL.iter().for_each(|&s| round_trip(s));
        round_trip(ResultReason::NoFirstMove);
        round_trip(ResultReason::Rules(tafl_engine::WinReason::KingEscaped));
    }

    #[test]
    fn an_unknown_stored_word_is_an_error_not_a_default() {
        assert!(GameStatus::from_sql_value(SqlValue::Text("paused".into())).is_err());
        assert!(GameStatus::from_sql_value(SqlValue::Integer(1)).is_err());
    }
}
