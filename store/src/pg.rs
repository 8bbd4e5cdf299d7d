//! The PostgreSQL side of [`Conn`](super::Conn): one session per connection with its own
//! statement cache (the store runs a fixed set of statements, each prepared once per
//! connection), `?n` placeholders rewritten to `$n`, and values converted to and from the
//! types PostgreSQL inferred for each placeholder and column.
//!
//! A session pipelines: statements whose answer nobody waits for (the writer's savepoint
//! control, a write whose row count is not read) are sent together with the next statement,
//! so both cost one round trip. Round trips to the server are what a shared database's
//! writer spends its time on, and it holds the cluster-wide write lock meanwhile.

use std::borrow::Cow;
use std::collections::HashMap;
use std::error::Error;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use postgres::{NoTls, Statement};
use tokio::runtime::Runtime;
use tokio_postgres::Client;

use super::conn::{Params, first_words, numbered_placeholders_as_dollars};
use super::error::BackendError;
use super::value::SqlValue;
use super::{Conn, StoreError};

/// More than the store's distinct statements; a cache that fills is emptied, not grown.
const STATEMENT_CACHE: usize = 512;

/// Runs `f` where a session may block: each session drives its connection on a runtime of its
/// own, which cannot run on a thread that drives async tasks, so there `f` gets a thread of
/// its own (connecting at start-up, closing connections at the end).
pub(super) fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if tokio::runtime::Handle::try_current().is_err() {
        return f();
    }
    std::thread::scope(|scope| match scope.spawn(f).join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    })
}

/// A statement sent ahead of the next one.
enum Pipelined {
    /// Transaction control (`RELEASE job; SAVEPOINT job`), without parameters.
    Control(String),
    /// A write whose row count nobody reads.
    Write(Statement, Vec<Bound<'static>>),
}

impl Pipelined {
    /// Sends the statement when first polled (as every request of `tokio-postgres` is).
    fn send(self, client: &Client) -> Pin<Box<dyn Future<Output = Result<(), StoreError>> + '_>> {
        match self {
            Pipelined::Control(sql) => {
                Box::pin(async move { Ok(client.batch_execute(&sql).await?) })
            }
            Pipelined::Write(statement, values) => Box::pin(async move {
                client.execute(&statement, &as_params(&values)).await?;
                Ok(())
            }),
        }
    }
}

/// The deadlines every PostgreSQL connection has (`database.connect_timeout_ms`,
/// `database.statement_timeout_ms`, `database.lock_timeout_ms`): a server that does not
/// answer, a statement that runs on, a row lock another session holds: none holds a request,
/// the writer or a reader for longer. Each is PostgreSQL's own setting, sent with the
/// connection's start-up (no round trip of its own); a passed deadline is an error that means
/// "not now" (a 503 with `Retry-After`). Zero: no deadline (PostgreSQL's own default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PgTimeouts {
    /// Opening a connection, unless `database.url` sets its own `connect_timeout`.
    pub connect: Duration,
    pub statement: Duration,
    pub lock: Duration,
}

impl Default for PgTimeouts {
    fn default() -> Self {
        PgTimeouts {
            connect: Duration::from_secs(5),
            statement: Duration::from_secs(5),
            lock: Duration::from_secs(2),
        }
    }
}

impl From<&crate::config::DatabaseConfig> for PgTimeouts {
    fn from(db: &crate::config::DatabaseConfig) -> Self {
        PgTimeouts {
            connect: Duration::from_millis(db.connect_timeout_ms),
            statement: Duration::from_millis(db.statement_timeout_ms),
            lock: Duration::from_millis(db.lock_timeout_ms),
        }
    }
}

impl PgTimeouts {
    /// The start-up options that set the statement and lock deadlines; the URL's own
    /// `options` come after them, so a URL that sets either keeps its own.
    fn startup_options(&self, url_options: Option<&str>) -> String {
        let mut options = format!(
            "-c statement_timeout={} -c lock_timeout={}",
            self.statement.as_millis(),
            self.lock.as_millis()
        );
        if let Some(own) = url_options.filter(|o| !o.trim().is_empty()) {
            options.push(' ');
            options.push_str(own);
        }
        options
    }
}

/// Where a PostgreSQL database is and the deadlines of every connection to it.
#[derive(Debug, Clone)]
pub struct PgTarget {
    pub url: String,
    pub timeouts: PgTimeouts,
}

/// One connection to the server and the statements prepared on it.
pub(super) struct Session {
    client: Client,
    /// Drives the connection, only while the session waits for the server.
    runtime: Runtime,
    statements: HashMap<String, Statement>,
    /// Set when a statement failed: PostgreSQL has then aborted the open transaction.
    failed: bool,
    /// Sent with the next statement, in order.
    ahead: Vec<Pipelined>,
    /// A transaction's start is queued in `ahead`, not yet sent.
    begin_unsent: bool,
}

impl Session {
    /// Connects to `url` (`postgres://user:password@host:port/database`) with the default
    /// deadlines.
    #[cfg(test)]
    pub(super) fn connect(url: &str) -> Result<Session, StoreError> {
        Session::connect_to(&PgTarget {
            url: url.to_owned(),
            timeouts: PgTimeouts::default(),
        })
    }

    /// Connects to `target`, its deadlines set on the connection.
    pub(super) fn connect_to(target: &PgTarget) -> Result<Session, StoreError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::Setup(format!("cannot start a database runtime: {e}")))?;
        // A server that does not answer must not hang the writer or a reader for the
        // system's TCP timeout (minutes): unless the URL sets its own `connect_timeout`.
        let mut config: tokio_postgres::Config = target.url.parse()?;
        if config.get_connect_timeout().is_none() && !target.timeouts.connect.is_zero() {
            config.connect_timeout(target.timeouts.connect);
        }
        let options = target.timeouts.startup_options(config.get_options());
        config.options(&options);
        let (client, connection) = runtime.block_on(config.connect(NoTls))?;
        runtime.spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a database connection ended");
            }
        });
        Ok(Session {
            client,
            runtime,
            statements: HashMap::new(),
            failed: false,
            ahead: Vec::new(),
            begin_unsent: false,
        })
    }

    /// Whether the connection was lost (the server went away): the session is then dropped.
    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// Runs statements without parameters or results (transaction control, migrations).
    pub(super) fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.round_trip(|client| client.batch_execute(sql))
    }

    /// Queues transaction control to go with the next statement; its failure is that
    /// statement's.
    pub(super) fn batch_ahead(&mut self, sql: &str) {
        match self.ahead.last_mut() {
            Some(Pipelined::Control(queued)) => {
                queued.push(' ');
                queued.push_str(sql);
            }
            _ => self.ahead.push(Pipelined::Control(sql.to_owned())),
        }
    }

    /// Queues the start of a transaction (and what goes with it, such as taking a lock) to
    /// go with the next statement.
    pub(super) fn begin_ahead(&mut self, sql: &str) {
        self.batch_ahead(sql);
        self.begin_unsent = true;
    }

    /// Sends the writes still queued, if any: a job's writes have all been answered when it
    /// ends. Transaction control waits for the next statement (at the latest the commit's).
    pub(super) fn settle(&mut self) -> Result<(), StoreError> {
        if !self.ahead.iter().any(|a| matches!(a, Pipelined::Write(..))) {
            return Ok(());
        }
        self.round_trip(|_| async { Ok(()) })
    }

    /// Drops what is queued (the transaction is being rolled back); `true` when that held
    /// the transaction's start: the server never saw the transaction, so there is nothing to
    /// roll back.
    pub(super) fn forget_ahead(&mut self) -> bool {
        self.ahead.clear();
        std::mem::take(&mut self.begin_unsent)
    }

    /// Whether a statement failed since the last call (and forgets it).
    pub(super) fn take_failed(&mut self) -> bool {
        std::mem::take(&mut self.failed)
    }

    pub(super) fn conn(&mut self) -> Conn<'_> {
        Conn::postgres(self)
    }

    /// Sends what is queued, then the request `last` makes, in one round trip; the first
    /// failure is the answer (after it the server refuses the rest of the transaction), and
    /// marks the session failed.
    fn round_trip<'s, T, F>(
        &'s mut self,
        last: impl FnOnce(&'s Client) -> F,
    ) -> Result<T, StoreError>
    where
        F: Future<Output = Result<T, postgres::Error>> + 's,
    {
        let ahead = std::mem::take(&mut self.ahead);
        self.begin_unsent = false;
        let client = &self.client;
        let answer = self.runtime.block_on(async {
            // `join` polls the queued requests first, so they are sent first.
            let (earlier, last) = futures_util::future::join(
                futures_util::future::join_all(ahead.into_iter().map(|a| a.send(client))),
                last(client),
            )
            .await;
            earlier.into_iter().collect::<Result<Vec<()>, _>>()?;
            Ok(last?)
        });
        if answer.is_err() {
            self.failed = true;
        }
        answer
    }

    fn statement(&mut self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let text = numbered_placeholders_as_dollars(sql);
        let statement = self.round_trip(|client| client.prepare(&text))?;
        if self.statements.len() >= STATEMENT_CACHE {
            self.statements.clear();
        }
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    pub(super) fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<usize, StoreError> {
        let statement = self.statement(sql)?;
        let values = bind(&statement, sql, params)?;
        let changed = self.round_trip(|client| async move {
            client.execute(&statement, &as_params(&values)).await
        })?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    /// Queues a write whose row count nobody reads, to go with the next statement (or the
    /// end of the job); its failure is that statement's.
    pub(super) fn execute_pipelined(
        &mut self,
        sql: &str,
        params: Params<'_>,
    ) -> Result<(), StoreError> {
        let statement = self.statement(sql)?;
        let values = owned(bind(&statement, sql, params)?);
        self.ahead.push(Pipelined::Write(statement, values));
        Ok(())
    }

    /// Every row of the query (read by the caller once the session is free again, so reading
    /// a row may run another statement).
    pub(super) fn query(
        &mut self,
        sql: &str,
        params: Params<'_>,
    ) -> Result<Vec<postgres::Row>, StoreError> {
        let statement = self.statement(sql)?;
        let values = bind(&statement, sql, params)?;
        self.round_trip(|client| async move { client.query(&statement, &as_params(&values)).await })
    }
}

/// Bound values that outlive the caller's parameters (for a statement sent later).
fn owned(values: Vec<Bound<'_>>) -> Vec<Bound<'static>> {
    values.into_iter().map(Bound::into_owned).collect()
}

/// The parameters' values, checked against the statement's placeholders: their number, and
/// each value's kind against the type PostgreSQL inferred for its placeholder (strictly: an
/// integer never becomes a boolean nor a boolean an integer, so a rows function that binds the
/// wrong kind fails here, on its first run, rather than hiding a column typed differently on
/// the two backends).
fn bind<'p>(
    statement: &Statement,
    sql: &str,
    params: Params<'p>,
) -> Result<Vec<Bound<'p>>, StoreError> {
    let expected = statement.params().len();
    if params.len() != expected {
        return Err(StoreError::Parameter(format!(
            "{} values given for {expected} placeholders",
            params.len()
        )));
    }
    params
        .iter()
        .zip(statement.params())
        .enumerate()
        .map(|(i, (param, ty))| {
            let value = param
                .to_sql_value()
                .map_err(|e| StoreError::Parameter(format!("parameter {}: {e}", i + 1)))?;
            Bound::new(value, ty).map_err(|unfit| match unfit {
                Unfit::Kind { value } => StoreError::ParameterKind {
                    index: i + 1,
                    statement: first_words(sql),
                    value,
                    placeholder: ty.name().to_owned(),
                },
                Unfit::Range(value) => StoreError::Parameter(format!(
                    "parameter {}: {value} is out of range for {ty}",
                    i + 1
                )),
            })
        })
        .collect()
}

fn as_params<'v>(values: &'v [Bound<'_>]) -> Vec<&'v (dyn ToSql + Sync)> {
    values.iter().map(|v| v as _).collect()
}

/// Why a value cannot be bound to its placeholder.
enum Unfit {
    /// Of another kind than the placeholder's type (an integer where a boolean goes).
    Kind { value: &'static str },
    /// An integer beyond the placeholder's narrower integer type.
    Range(i64),
}

/// A parameter as PostgreSQL receives it: converted, once, to the type the server inferred for
/// its placeholder (a `BIGINT` column's, a `BOOLEAN` one's...). Only same-kind conversions
/// exist: an integer into a narrower integer type when it fits, a text into any text type.
#[derive(Debug)]
enum Bound<'a> {
    Null,
    Int8(i64),
    Int4(i32),
    Int2(i16),
    Float8(f64),
    Bool(bool),
    Text(Cow<'a, str>),
    Bytea(Cow<'a, [u8]>),
}

impl<'a> Bound<'a> {
    fn new(value: SqlValue<'a>, ty: &Type) -> Result<Bound<'a>, Unfit> {
        let kind = value.kind();
        let narrow = |i: i64, bound: Option<Bound<'a>>| bound.ok_or(Unfit::Range(i));
        match (value, ty) {
            (SqlValue::Null, _) => Ok(Bound::Null),
            (SqlValue::Integer(i), &Type::INT8) => Ok(Bound::Int8(i)),
            (SqlValue::Integer(i), &Type::INT4) => {
                narrow(i, i32::try_from(i).ok().map(Bound::Int4))
            }
            (SqlValue::Integer(i), &Type::INT2) => {
                narrow(i, i16::try_from(i).ok().map(Bound::Int2))
            }
            (SqlValue::Real(r), &Type::FLOAT8) => Ok(Bound::Float8(r)),
            (SqlValue::Bool(b), &Type::BOOL) => Ok(Bound::Bool(b)),
            (SqlValue::Text(t), &Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME) => {
                Ok(Bound::Text(t))
            }
            (SqlValue::Blob(b), &Type::BYTEA) => Ok(Bound::Bytea(b)),
            _ => Err(Unfit::Kind { value: kind }),
        }
    }

    /// The same value, owning what it borrowed (for a statement sent later).
    fn into_owned(self) -> Bound<'static> {
        match self {
            Bound::Null => Bound::Null,
            Bound::Int8(i) => Bound::Int8(i),
            Bound::Int4(i) => Bound::Int4(i),
            Bound::Int2(i) => Bound::Int2(i),
            Bound::Float8(r) => Bound::Float8(r),
            Bound::Bool(b) => Bound::Bool(b),
            Bound::Text(t) => Bound::Text(Cow::Owned(t.into_owned())),
            Bound::Bytea(b) => Bound::Bytea(Cow::Owned(b.into_owned())),
        }
    }
}

impl ToSql for Bound<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self {
            Bound::Null => Ok(IsNull::Yes),
            Bound::Int8(i) => i.to_sql(ty, out),
            Bound::Int4(i) => i.to_sql(ty, out),
            Bound::Int2(i) => i.to_sql(ty, out),
            Bound::Float8(r) => r.to_sql(ty, out),
            Bound::Bool(b) => b.to_sql(ty, out),
            Bound::Text(t) => t.as_ref().to_sql(ty, out),
            Bound::Bytea(b) => b.as_ref().to_sql(ty, out),
        }
    }

    /// Every type is tried: [`Bound::new`] made each value of its placeholder's type.
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Column `index` of `row` as the store's value.
pub(super) fn column<'r>(row: &'r postgres::Row, index: usize) -> Result<SqlValue<'r>, StoreError> {
    let ty = row
        .columns()
        .get(index)
        .map(|c| c.type_().clone())
        .ok_or_else(|| StoreError::Corrupt(format!("no column {index}")))?;
    let value = match ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(index)?.map(SqlValue::Integer),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(index)?
            .map(|i| SqlValue::Integer(i.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(index)?
            .map(|i| SqlValue::Integer(i.into())),
        Type::BOOL => row.try_get::<_, Option<bool>>(index)?.map(SqlValue::Bool),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(index)?.map(SqlValue::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(index)?
            .map(|r| SqlValue::Real(r.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => row
            .try_get::<_, Option<&str>>(index)?
            .map(|t| SqlValue::Text(t.into())),
        Type::BYTEA => row
            .try_get::<_, Option<&[u8]>>(index)?
            .map(|b| SqlValue::Blob(b.into())),
        other => {
            return Err(StoreError::Corrupt(format!(
                "column {index} is of type {other}, which the store does not read (cast it)"
            )));
        }
    };
    Ok(value.unwrap_or(SqlValue::Null))
}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        let code = e.code().cloned();
        let unavailable = e.is_closed() || code.as_ref().is_none_or(unavailable_code);
        let unique_violation = e
            .as_db_error()
            .filter(|db| *db.code() == SqlState::UNIQUE_VIOLATION)
            .map(|db| db.constraint().unwrap_or_default().to_owned());
        // The server's own words (the client's Display is only "db error").
        let source: Box<dyn Error + Send + Sync> = match e.as_db_error() {
            Some(db) => Box::new(db.clone()),
            None => Box::new(e),
        };
        StoreError::Database(BackendError::new(source, unavailable, unique_violation))
    }
}

/// Whether `e` is PostgreSQL's `lock_timeout` passing: a lock another session holds was not
/// had within it.
pub(super) fn is_lock_timeout(e: &StoreError) -> bool {
    let StoreError::Database(backend) = e else {
        return false;
    };
    backend
        .driver()
        .downcast_ref::<postgres::error::DbError>()
        .is_some_and(|db| *db.code() == SqlState::LOCK_NOT_AVAILABLE)
}

/// PostgreSQL's answers that mean "not now" rather than "wrong": the connection (class 08),
/// resources (53), the server shutting down or starting (57P0x), a deadline passed
/// (`statement_timeout`: query cancelled; `lock_timeout`: lock not available), and the
/// conflicts a retry resolves (serialization failure, deadlock). An error without a code
/// is the connection's (I/O, closed).
fn unavailable_code(code: &SqlState) -> bool {
    let class = code.code().get(..2).unwrap_or_default();
    matches!(class, "08" | "53")
        || matches!(
            *code,
            SqlState::ADMIN_SHUTDOWN
                | SqlState::CRASH_SHUTDOWN
                | SqlState::CANNOT_CONNECT_NOW
                | SqlState::T_R_SERIALIZATION_FAILURE
                | SqlState::T_R_DEADLOCK_DETECTED
                | SqlState::LOCK_NOT_AVAILABLE
                // `statement_timeout` passed (or the statement was cancelled).
                | SqlState::QUERY_CANCELED
        )
}
