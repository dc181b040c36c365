//! What the executor sends: a validated [`Statement`], or [`UncheckedSql`] for what the
//! builders do not cover.

use iceberg_sql::{ErrorKind, Statement, StatementKind, MAX_QUERY_BYTES};

use crate::error::Result;

/// SQL text that **no builder made and nothing validated**: the escape hatch for
/// statements the builders do not cover (ad-hoc analytics, `SHOW VIEWS`, a function the
/// typed expressions lack, …).
///
/// Only the size is checked (Athena's 262,144-byte limit) and that there is text at all.
/// Nothing checks that it is one statement, parses on Athena, quotes names or means
/// what you think: that is on you. It runs only through
/// [`AthenaExecutor::execute_unchecked`](crate::AthenaExecutor::execute_unchecked), with
/// the same idempotent start, polling, timeout, cancel and stop on drop as any
/// statement; a `FAILED` query is **never resubmitted** (the executor cannot tell what
/// the text does, so it cannot tell whether running it again is safe), and its rows are
/// read and decoded as usual ([`decode`](crate::AthenaExecutor::decode)).
///
/// It is its own type, so it goes nowhere a validated statement is required:
///
/// ```compile_fail
/// # use iceberg_sql_athena::{AthenaExecutor, UncheckedSql};
/// # async fn run(executor: AthenaExecutor) -> iceberg_sql_athena::Result<()> {
/// let sql = UncheckedSql::new("SHOW VIEWS IN analytics")?;
/// executor.execute(&sql).await?; // error: expected `&Statement`, found `&UncheckedSql`
/// # Ok(()) }
/// ```
///
/// It takes the explicit call:
///
/// ```
/// # use iceberg_sql_athena::{AthenaExecutor, UncheckedSql};
/// # async fn run(executor: AthenaExecutor) -> iceberg_sql_athena::Result<()> {
/// let sql = UncheckedSql::new("SHOW VIEWS IN analytics")?;
/// executor.execute_unchecked(&sql).await?;
/// # Ok(()) }
/// ```
///
/// Values from outside belong in `?` parameters, never in the text:
///
/// ```
/// use iceberg_sql_athena::UncheckedSql;
///
/// let sql = UncheckedSql::new(
///     "SELECT tool_name, approx_percentile(latency_ms, 0.99) AS p99 \
///      FROM analytics.mcp_events WHERE user_id = ? GROUP BY tool_name",
/// )?
/// .params(["'u-42'"]);
/// assert_eq!(sql.parameters(), ["'u-42'"]);
///
/// let too_long = UncheckedSql::new("x".repeat(262_145)).unwrap_err();
/// assert!(too_long.to_string().contains("262144 bytes"));
/// # Ok::<(), iceberg_sql_athena::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UncheckedSql {
    sql: String,
    params: Vec<String>,
}

impl UncheckedSql {
    /// Wraps `sql` after checking only that it is not blank and fits Athena's limit of
    /// [`MAX_QUERY_BYTES`] bytes.
    pub fn new(sql: impl Into<String>) -> Result<UncheckedSql> {
        let sql = sql.into();
        if sql.trim().is_empty() {
            return Err(iceberg_sql::Error::new(
                ErrorKind::Syntax,
                "unchecked SQL is empty: there is no statement to run",
            )
            .into());
        }
        if sql.len() > MAX_QUERY_BYTES {
            return Err(iceberg_sql::Error::new(
                ErrorKind::QueryTooLong,
                format!(
                    "the unchecked SQL is {} bytes long; Athena accepts at most {MAX_QUERY_BYTES} bytes per query",
                    sql.len()
                ),
            )
            .with_hint("split the work into several statements, or stage the data in S3")
            .into());
        }
        Ok(UncheckedSql {
            sql,
            params: Vec::new(),
        })
    }

    /// Sets the `ExecutionParameters`: one SQL literal per `?` in the text, in order
    /// (`'text'` with `''` for a quote, `42`, `DATE '2026-01-01'`, …). Athena documents
    /// them for `SELECT`, `INSERT INTO`, CTAS and `UNLOAD`
    /// (<https://docs.aws.amazon.com/athena/latest/ug/querying-with-prepared-statements.html>).
    #[must_use]
    pub fn params<S: Into<String>>(mut self, params: impl IntoIterator<Item = S>) -> Self {
        self.params = params.into_iter().map(Into::into).collect();
        self
    }

    /// The text.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The `ExecutionParameters`.
    pub fn parameters(&self) -> &[String] {
        &self.params
    }
}

/// One call's text, its kind when a builder made it (unchecked SQL has none), its
/// `ExecutionParameters`, and the validated statement for the cleanup hook.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Submission<'a> {
    pub(crate) sql: &'a str,
    pub(crate) kind: Option<StatementKind>,
    pub(crate) params: &'a [String],
    pub(crate) statement: Option<&'a Statement>,
}

impl<'a> Submission<'a> {
    pub(crate) fn statement(statement: &'a Statement) -> Self {
        Submission {
            sql: statement.sql(),
            kind: Some(statement.kind()),
            params: statement.params(),
            statement: Some(statement),
        }
    }

    pub(crate) fn unchecked(sql: &'a UncheckedSql) -> Self {
        Submission {
            sql: &sql.sql,
            kind: None,
            params: &sql.params,
            statement: None,
        }
    }

    /// The kind's name for messages and spans.
    pub(crate) fn kind_name(&self) -> &'static str {
        self.kind.map_or("unchecked SQL", StatementKind::name)
    }
}
