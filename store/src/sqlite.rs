//! The SQLite side of [`Conn`](super::Conn): statements from the connection's statement cache
//! (every statement the store runs is one of a fixed set of strings, so each is prepared once
//! per connection), parameters and columns translated to and from [`SqlValue`].

use std::borrow::Cow;

use rusqlite::ToSql;
use rusqlite::types::{ToSqlOutput, ValueRef};

use super::StoreError;
use super::conn::{Params, Row};
use super::value::SqlValue;

/// More than the store's distinct statements, so the cache never evicts one it will need again.
pub(super) const STATEMENT_CACHE: usize = 256;

/// A parameter as rusqlite binds it.
struct Bound<'a>(SqlValue<'a>);

impl ToSql for Bound<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match &self.0 {
            SqlValue::Null => ValueRef::Null,
            SqlValue::Integer(i) => ValueRef::Integer(*i),
            SqlValue::Real(r) => ValueRef::Real(*r),
            SqlValue::Bool(b) => ValueRef::Integer(i64::from(*b)),
            SqlValue::Text(text) => ValueRef::Text(text.as_bytes()),
            SqlValue::Blob(bytes) => ValueRef::Blob(bytes),
        }))
    }
}

/// Binds `params` to `statement` in place (no list of bound values is built: this runs for
/// every statement of every request). A count that does not match the SQL's placeholders is
/// refused, as rusqlite's own binding does.
fn bind(statement: &mut rusqlite::Statement<'_>, params: Params<'_>) -> Result<(), StoreError> {
    let expected = statement.parameter_count();
    if params.len() != expected {
        return Err(StoreError::Parameter(format!(
            "{} values given for {expected} placeholders",
            params.len()
        )));
    }
    for (i, param) in params.iter().enumerate() {
        let value = param
            .to_sql_value()
            .map_err(|e| StoreError::Parameter(format!("parameter {}: {e}", i + 1)))?;
        statement.raw_bind_parameter(i + 1, Bound(value))?;
    }
    Ok(())
}

pub(super) fn execute(
    c: &rusqlite::Connection,
    sql: &str,
    params: Params<'_>,
) -> Result<usize, StoreError> {
    let mut statement = c.prepare_cached(sql)?;
    bind(&mut statement, params)?;
    Ok(statement.raw_execute()?)
}

/// Up to `limit` rows of the query, each read by `read`.
pub(super) fn query<T>(
    c: &rusqlite::Connection,
    sql: &str,
    params: Params<'_>,
    limit: usize,
    mut read: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut statement = c.prepare_cached(sql)?;
    bind(&mut statement, params)?;
    let mut rows = statement.raw_query();
    let mut out = Vec::new();
    while out.len() < limit
        && let Some(row) = rows.next()?
    {
        out.push(read(&Row::sqlite(row))?);
    }
    Ok(out)
}

pub(super) fn column<'r>(
    row: &'r rusqlite::Row<'r>,
    index: usize,
) -> Result<SqlValue<'r>, StoreError> {
    Ok(match row.get_ref(index)? {
        ValueRef::Null => SqlValue::Null,
        ValueRef::Integer(i) => SqlValue::Integer(i),
        ValueRef::Real(r) => SqlValue::Real(r),
        ValueRef::Text(bytes) => SqlValue::Text(Cow::Borrowed(
            std::str::from_utf8(bytes)
                .map_err(|e| StoreError::Corrupt(format!("column {index}: {e}")))?,
        )),
        ValueRef::Blob(bytes) => SqlValue::Blob(Cow::Borrowed(bytes)),
    })
}
