//! The store's narrow SQL interface: what a read or write job gets instead of a driver's
//! connection. A handful of operations (execute, query one/optional/all with a typed row
//! accessor, an insert's `RETURNING id`), so every rows function and service closure is
//! written once, whatever database is behind it.
//!
//! SQL is written in the dialect both SQLite (≥ 3.35) and PostgreSQL accept: numbered
//! placeholders `?1`, `?2`... (rewritten to `$1`, `$2`... for PostgreSQL by
//! [`numbered_placeholders_as_dollars`]), `INSERT ... ON CONFLICT ... DO NOTHING/UPDATE`,
//! `RETURNING`. Where a statement must differ, the one rows function that needs it matches
//! on [`Conn::dialect`].

use std::borrow::Cow;
use std::cell::RefCell;

use super::StoreError;
use super::value::{FromSqlValue, ToSqlValue};
use super::{pg, sqlite};

/// The parameters of one statement, in placeholder order (`?1` first).
pub type Params<'p> = &'p [&'p dyn ToSqlValue];

/// Builds [`Params`] from expressions: `params![game, ply]`, `params![]`. Used as
/// `store::params!` (exported at the crate root only because macros must be).
#[doc(hidden)]
#[macro_export]
macro_rules! __store_params {
    ($($value:expr),* $(,)?) => {
        &[$(&$value as &dyn $crate::ToSqlValue),*] as $crate::Params<'_>
    };
}

/// Which SQL a connection speaks, for the few statements that cannot be written once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A connection (or the transaction of a write job) as the store hands it to a job.
pub struct Conn<'a> {
    backend: Backend<'a>,
}

enum Backend<'a> {
    Sqlite(&'a rusqlite::Connection),
    Postgres(RefCell<&'a mut pg::Session>),
}

impl<'a> Conn<'a> {
    pub(super) fn sqlite(conn: &'a rusqlite::Connection) -> Conn<'a> {
        Conn {
            backend: Backend::Sqlite(conn),
        }
    }

    pub(super) fn postgres(session: &'a mut pg::Session) -> Conn<'a> {
        Conn {
            backend: Backend::Postgres(RefCell::new(session)),
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self.backend {
            Backend::Sqlite(_) => Dialect::Sqlite,
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs a statement that returns no rows; answers how many rows it changed.
    pub fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => sqlite::execute(c, sql, params),
            Backend::Postgres(session) => session_of(session)?.execute(sql, params),
        }
    }

    /// Runs statements without parameters or results, several in one string: transaction
    /// control and schema changes, for the migration runner (jobs get `execute`).
    pub(super) fn batch(&self, sql: &str) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Backend::Postgres(session) => session_of(session)?.batch(sql),
        }
    }

    /// Runs a write whose row count the caller does not need. On PostgreSQL it is sent with
    /// the job's next statement (one round trip for both), or when the job ends; a failure is
    /// then that statement's, or the job's.
    pub fn execute_pipelined(&self, sql: &str, params: Params<'_>) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => sqlite::execute(c, sql, params).map(|_| ()),
            Backend::Postgres(session) => session_of(session)?.execute_pipelined(sql, params),
        }
    }

    /// Every row of a PostgreSQL query; the session is free again when they are read.
    fn postgres_rows(
        session: &RefCell<&'a mut pg::Session>,
        sql: &str,
        params: Params<'_>,
    ) -> Result<Vec<postgres::Row>, StoreError> {
        session_of(session)?.query(sql, params)
    }

    /// Every row the query returns, each read by `read`.
    pub fn query_all<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut read: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        match &self.backend {
            Backend::Sqlite(c) => sqlite::query(c, sql, params, usize::MAX, read),
            Backend::Postgres(session) => Self::postgres_rows(session, sql, params)?
                .iter()
                .map(|row| read(&Row::postgres(row)))
                .collect(),
        }
    }

    /// The first row the query returns, if any.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        read: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let mut read = Some(read);
        let mut first = match &self.backend {
            Backend::Sqlite(c) => sqlite::query(c, sql, params, 1, |row| match read.take() {
                Some(read) => read(row),
                None => Err(StoreError::Corrupt("a row was read twice".into())),
            })?,
            Backend::Postgres(session) => {
                match (
                    Self::postgres_rows(session, sql, params)?.first(),
                    read.take(),
                ) {
                    (Some(row), Some(read)) => vec![read(&Row::postgres(row))?],
                    _ => Vec::new(),
                }
            }
        };
        Ok(first.pop())
    }

    /// The first row of a query that always returns one (an aggregate, a `RETURNING`).
    pub fn query_one<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        read: impl FnOnce(&Row<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.query_opt(sql, params, read)?
            .ok_or_else(|| StoreError::NoRow(first_words(sql)))
    }

    /// Runs an `INSERT ... RETURNING id` and answers the new row's id.
    pub fn insert_returning_id(&self, sql: &str, params: Params<'_>) -> Result<i64, StoreError> {
        self.query_one(sql, params, |r| r.get(0))
    }
}

/// The session behind a PostgreSQL connection; a statement run while a row of another is being
/// read gets the rows first, so this is only refused for a job that re-enters its own `Conn`.
fn session_of<'s, 'a>(
    session: &'s RefCell<&'a mut pg::Session>,
) -> Result<std::cell::RefMut<'s, &'a mut pg::Session>, StoreError> {
    session
        .try_borrow_mut()
        .map_err(|_| StoreError::Thread("a connection was used while busy".into()))
}

/// The start of a statement, to say which one failed without quoting a whole query.
pub(super) fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(6).collect::<Vec<_>>().join(" ")
}

/// One row of a query's answer; columns by position from 0.
pub struct Row<'r> {
    backend: RowBackend<'r>,
}

enum RowBackend<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r postgres::Row),
}

impl<'r> Row<'r> {
    pub(super) fn sqlite(row: &'r rusqlite::Row<'r>) -> Row<'r> {
        Row {
            backend: RowBackend::Sqlite(row),
        }
    }

    pub(super) fn postgres(row: &'r postgres::Row) -> Row<'r> {
        Row {
            backend: RowBackend::Postgres(row),
        }
    }

    /// Column `index` as a `T`; a stored value that does not read as one is corrupt data.
    pub fn get<T: FromSqlValue>(&self, index: usize) -> Result<T, StoreError> {
        let value = match self.backend {
            RowBackend::Sqlite(row) => sqlite::column(row, index)?,
            RowBackend::Postgres(row) => pg::column(row, index)?,
        };
        T::from_sql_value(value).map_err(|e| StoreError::Corrupt(format!("column {index}: {e}")))
    }
}

/// `?1`, `?2`... as PostgreSQL's `$1`, `$2`... outside quoted strings and identifiers. A `?`
/// not followed by digits is left alone (the store's SQL has none).
pub fn numbered_placeholders_as_dollars(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some(q), c) if c == q => {
                quote = None;
                out.push(c);
            }
            (Some(_), c) => out.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                out.push(ch);
            }
            (None, '?') if chars.peek().is_some_and(char::is_ascii_digit) => out.push('$'),
            (None, c) => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_dollars_outside_quotes() {
        assert_eq!(
            numbered_placeholders_as_dollars(
                "SELECT id FROM games WHERE id = ?1 AND context = '?2' AND ply > ?12"
            ),
            "SELECT id FROM games WHERE id = $1 AND context = '?2' AND ply > $12"
        );
        assert_eq!(
            numbered_placeholders_as_dollars("SELECT 'it''s ?1', ?2"),
            "SELECT 'it''s ?1', $2"
        );
        assert!(matches!(
            numbered_placeholders_as_dollars("SELECT 1"),
            Cow::Borrowed(_)
        ));
    }
}
