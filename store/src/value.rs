//! The values that cross the store's boundary: what a statement's placeholders are bound to
//! and what a column holds, in the store's own terms. Domain types implement [`ToSqlValue`]
//! and [`FromSqlValue`], so no database driver's type leaves `store/` and a second backend
//! reads and writes them through the same impls.

use std::borrow::Cow;

/// One SQL value, borrowed where it can be. Booleans are their own kind: SQLite stores them
/// as 0/1, other databases have a boolean type.
#[derive(Debug, Clone, PartialEq)]
pub enum SqlValue<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Bool(bool),
    Text(Cow<'a, str>),
    Blob(Cow<'a, [u8]>),
}

impl SqlValue<'_> {
    /// The same value, owning what it borrowed (for a statement sent later).
    pub fn into_owned(self) -> SqlValue<'static> {
        match self {
            SqlValue::Null => SqlValue::Null,
            SqlValue::Integer(i) => SqlValue::Integer(i),
            SqlValue::Real(r) => SqlValue::Real(r),
            SqlValue::Bool(b) => SqlValue::Bool(b),
            SqlValue::Text(text) => SqlValue::Text(Cow::Owned(text.into_owned())),
            SqlValue::Blob(bytes) => SqlValue::Blob(Cow::Owned(bytes.into_owned())),
        }
    }

    /// The kind, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            SqlValue::Null => "null",
            SqlValue::Integer(_) => "integer",
            SqlValue::Real(_) => "real",
            SqlValue::Bool(_) => "boolean",
            SqlValue::Text(_) => "text",
            SqlValue::Blob(_) => "blob",
        }
    }
}

/// A value that does not fit where it is going: a stored value of the wrong kind or out of
/// range (corrupt data), or a parameter the database cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    #[error("expected {expected}, found {found}")]
    WrongKind {
        expected: &'static str,
        found: &'static str,
    },
    #[error("{0} is out of range")]
    OutOfRange(String),
    #[error("{0}")]
    Invalid(String),
}

/// Binds as one placeholder's value.
pub trait ToSqlValue {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError>;
}

/// Reads from one column's value.
pub trait FromSqlValue: Sized {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError>;
}

fn wrong_kind(expected: &'static str, found: &SqlValue<'_>) -> ValueError {
    ValueError::WrongKind {
        expected,
        found: found.kind(),
    }
}

impl<T: ToSqlValue + ?Sized> ToSqlValue for &T {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        (**self).to_sql_value()
    }
}

impl<T: ToSqlValue> ToSqlValue for Option<T> {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        match self {
            Some(value) => value.to_sql_value(),
            None => Ok(SqlValue::Null),
        }
    }
}

impl<T: FromSqlValue> FromSqlValue for Option<T> {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Null => Ok(None),
            other => T::from_sql_value(other).map(Some),
        }
    }
}

impl ToSqlValue for str {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Text(Cow::Borrowed(self)))
    }
}

impl ToSqlValue for String {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Text(Cow::Borrowed(self)))
    }
}

impl FromSqlValue for String {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Text(text) => Ok(text.into_owned()),
            other => Err(wrong_kind("text", &other)),
        }
    }
}

impl ToSqlValue for [u8] {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Blob(Cow::Borrowed(self)))
    }
}

impl ToSqlValue for Vec<u8> {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Blob(Cow::Borrowed(self)))
    }
}

impl FromSqlValue for Vec<u8> {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Blob(bytes) => Ok(bytes.into_owned()),
            other => Err(wrong_kind("blob", &other)),
        }
    }
}

impl ToSqlValue for bool {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Bool(*self))
    }
}

/// SQLite has no boolean type: a boolean column holds 0 or 1.
impl FromSqlValue for bool {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Bool(b) => Ok(b),
            SqlValue::Integer(i) => Ok(i != 0),
            other => Err(wrong_kind("boolean", &other)),
        }
    }
}

impl ToSqlValue for f64 {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Real(*self))
    }
}

/// SQLite keeps a whole-numbered REAL as it was written, but an aggregate over integers is one.
impl FromSqlValue for f64 {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Real(r) => Ok(r),
            SqlValue::Integer(i) => Ok(i as f64),
            other => Err(wrong_kind("real", &other)),
        }
    }
}

impl ToSqlValue for i64 {
    fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
        Ok(SqlValue::Integer(*self))
    }
}

impl FromSqlValue for i64 {
    fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
        match value {
            SqlValue::Integer(i) => Ok(i),
            other => Err(wrong_kind("integer", &other)),
        }
    }
}

/// The other integers go through `i64`, checked both ways.
macro_rules! integer_via_i64 {
    ($($int:ty),*) => {$(
        impl ToSqlValue for $int {
            fn to_sql_value(&self) -> Result<SqlValue<'_>, ValueError> {
                i64::try_from(*self)
                    .map(SqlValue::Integer)
                    .map_err(|_| ValueError::OutOfRange(self.to_string()))
            }
        }

        impl FromSqlValue for $int {
            fn from_sql_value(value: SqlValue<'_>) -> Result<Self, ValueError> {
                let wide = i64::from_sql_value(value)?;
                <$int>::try_from(wide).map_err(|_| ValueError::OutOfRange(wide.to_string()))
            }
        }
    )*};
}

integer_via_i64!(u8, u16, u32, u64, i32, usize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_out_of_range_are_errors_both_ways() {
        assert!(u64::MAX.to_sql_value().is_err());
        assert_eq!(u32::from_sql_value(SqlValue::Integer(7)), Ok(7));
        assert!(u32::from_sql_value(SqlValue::Integer(-1)).is_err());
        assert!(u8::from_sql_value(SqlValue::Integer(256)).is_err());
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_an_error_not_a_default() {
        assert!(i64::from_sql_value(SqlValue::Text("1".into())).is_err());
        assert!(String::from_sql_value(SqlValue::Integer(1)).is_err());
        assert!(String::from_sql_value(SqlValue::Null).is_err());
        assert_eq!(Option::<String>::from_sql_value(SqlValue::Null), Ok(None));
    }

    #[test]
    fn booleans_read_from_integers_and_booleans() {
        assert_eq!(bool::from_sql_value(SqlValue::Integer(1)), Ok(true));
        assert_eq!(bool::from_sql_value(SqlValue::Integer(0)), Ok(false));
        assert_eq!(bool::from_sql_value(SqlValue::Bool(true)), Ok(true));
    }
}
