//! The service's typed values in their columns: words for statuses and sides, integers for ids,
//! text for handles. Written here, beside the other column values, so the domain knows nothing
//! of the store; the words themselves are the domain's (`domain/src/columns.rs`).

use crate::domain::{
    AnalysisId, AnalysisStatus, AnnotationId, ChallengeId, ChallengeStatus, DeliveryId, EventId,
    GameId, GameStatus, Handle, ImportedPlayerId, MailId, MailKind, MatchStatus, OutboxId,
    PlayerId, PuzzleId, ReminderKind, ResultReason, SessionOpening, SharedLimit, SideChoice,
    SideColumn, TeamMatchId, TeamSide, TokenId, TournamentId, TournamentStatus, WebSessionId,
    WebhookId, WithdrawalRule, Word, from_word,
};

use super::value::{FromSqlValue, SqlValue, ToSqlValue, ValueError};

fn read_word<T: Word>(value: SqlValue<'_>) -> Result<T, ValueError> {
    let text = String::from_sql_value(value)?;
    from_word(&text).ok_or_else(|| ValueError::Invalid(format!("unexpected stored word {text:?}")))
}

macro_rules! word_column {
    ($($type:ty),*) => {$(
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
    )*};
}

word_column!(
    GameStatus,
    AnalysisStatus,
    ChallengeStatus,
    SideChoice,
    ReminderKind,
    SideColumn,
    SessionOpening,
    SharedLimit,
    TournamentStatus,
    MailKind,
    MatchStatus,
    TeamSide,
    WithdrawalRule
);

macro_rules! id_column {
    ($($name:ident),*) => {$(
        impl ToSqlValue for $name {
            fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
                Ok(SqlValue::Integer(self.get()))
            }
        }
        impl FromSqlValue for $name {
            fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
                i64::from_sql_value(value).map($name)
            }
        }
    )*};
}

id_column!(
    PlayerId,
    GameId,
    ChallengeId,
    EventId,
    WebhookId,
    TokenId,
    DeliveryId,
    OutboxId,
    MailId,
    AnalysisId,
    WebSessionId,
    TournamentId,
    TeamMatchId,
    ImportedPlayerId,
    AnnotationId,
    PuzzleId
);

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

impl ToSqlValue for Handle {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Text(self.as_str().into()))
    }
}

impl FromSqlValue for Handle {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        String::from_sql_value(value).map(Handle::from_stored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{
        AnalysisStatus, ChallengeStatus, GameStatus, ReminderKind, ResultReason, SessionOpening,
        SharedLimit, SideChoice,
    };

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
        SessionOpening::ALL.iter().for_each(|&s| round_trip(s));
        SharedLimit::ALL.iter().for_each(|&s| round_trip(s));
        MatchStatus::ALL.iter().for_each(|&s| round_trip(s));
        TeamSide::ALL.iter().for_each(|&s| round_trip(s));
        WithdrawalRule::ALL.iter().for_each(|&s| round_trip(s));
        round_trip(ResultReason::NoFirstMove);
        round_trip(ResultReason::Rules(tafl_engine::WinReason::KingEscaped));
    }

    #[test]
    fn an_unknown_stored_word_is_an_error_not_a_default() {
        assert!(GameStatus::from_sql_value(SqlValue::Text("paused".into())).is_err());
        assert!(GameStatus::from_sql_value(SqlValue::Integer(1)).is_err());
    }
}
