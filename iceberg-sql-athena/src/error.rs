//! Errors: a failed query ([`QueryError`]), and everything else that can go wrong
//! while running one ([`Error`]).

use std::fmt;
use std::time::Duration;

/// The final state of a query execution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QueryState {
    /// Waiting for capacity.
    Queued,
    /// Running.
    Running,
    /// Finished successfully.
    Succeeded,
    /// Finished with an error.
    Failed,
    /// Stopped (by `StopQueryExecution` or by Athena).
    Cancelled,
}

impl QueryState {
    /// Whether no further state change will happen.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            QueryState::Succeeded | QueryState::Failed | QueryState::Cancelled
        )
    }
}

impl fmt::Display for QueryState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QueryState::Queued => "QUEUED",
            QueryState::Running => "RUNNING",
            QueryState::Succeeded => "SUCCEEDED",
            QueryState::Failed => "FAILED",
            QueryState::Cancelled => "CANCELLED",
        })
    }
}

/// `AthenaError.ErrorCategory`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCategory {
    /// 1: an Athena-side failure.
    System,
    /// 2: the statement or its data is at fault; resubmitting does not help.
    User,
    /// 3: anything else.
    Other,
    /// A value this crate does not know.
    Unknown(i32),
}

impl ErrorCategory {
    /// Maps the API's integer.
    pub fn from_code(code: i32) -> Self {
        match code {
            1 => ErrorCategory::System,
            2 => ErrorCategory::User,
            3 => ErrorCategory::Other,
            n => ErrorCategory::Unknown(n),
        }
    }
}

/// What a failure means for the caller, decided from the reason text and `AthenaError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FailureKind {
    /// `ICEBERG_COMMIT_ERROR`: a concurrent writer won; resubmitting is safe (nothing was
    /// committed).
    IcebergCommitConflict,
    /// `ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED`: progress was made, run the same OPTIMIZE again.
    OptimizeMoreRunsNeeded,
    /// `ICEBERG_VACUUM_MORE_RUNS_NEEDED`: run the same VACUUM again.
    VacuumMoreRunsNeeded,
    /// Error types 1400-1406 (Glue, S3 or Athena throttling).
    Throttled,
    /// Athena says the query might succeed if resubmitted.
    Retryable,
    /// Syntax error or wrong parameter count (error type 1006).
    Syntax,
    /// A table or view does not exist (error type 1110).
    TableNotFound,
    /// Permission error (1500, 1501).
    Permission,
    /// Anything else.
    Other,
}

/// A query that reached `FAILED` (or `CANCELLED`): Athena's reason and error details,
/// with the SQL and the query id.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QueryError {
    /// The execution that failed.
    pub query_id: String,
    /// The SQL that was submitted.
    pub sql: String,
    /// `FAILED` or `CANCELLED`.
    pub state: QueryState,
    /// `Status.StateChangeReason`.
    pub reason: Option<String>,
    /// `AthenaError.ErrorCategory`.
    pub category: Option<ErrorCategory>,
    /// `AthenaError.ErrorType` (see the Athena error reference).
    pub error_type: Option<i32>,
    /// `AthenaError.Retryable`.
    pub retryable: bool,
    /// `AthenaError.ErrorMessage`.
    pub message: Option<String>,
}

impl QueryError {
    fn text_contains(&self, needle: &str) -> bool {
        self.reason.as_deref().is_some_and(|r| r.contains(needle))
            || self.message.as_deref().is_some_and(|m| m.contains(needle))
    }

    /// Classifies the failure.
    pub fn kind(&self) -> FailureKind {
        if self.text_contains("ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED") {
            FailureKind::OptimizeMoreRunsNeeded
        } else if self.text_contains("ICEBERG_VACUUM_MORE_RUNS_NEEDED") {
            FailureKind::VacuumMoreRunsNeeded
        } else if self.text_contains("ICEBERG_COMMIT_ERROR") {
            FailureKind::IcebergCommitConflict
        } else if matches!(self.error_type, Some(1400..=1406)) {
            FailureKind::Throttled
        } else if self.error_type == Some(1006) {
            FailureKind::Syntax
        } else if self.error_type == Some(1110) {
            FailureKind::TableNotFound
        } else if matches!(self.error_type, Some(1500 | 1501)) {
            FailureKind::Permission
        } else if self.retryable {
            FailureKind::Retryable
        } else {
            FailureKind::Other
        }
    }

    /// Whether resubmitting the same statement with a fresh token may succeed. Never true
    /// for USER-category errors other than Iceberg commit conflicts and throttling.
    pub fn is_retryable(&self) -> bool {
        if self.state != QueryState::Failed {
            return false;
        }
        match self.kind() {
            FailureKind::IcebergCommitConflict | FailureKind::Throttled => true,
            FailureKind::Retryable => self.category != Some(ErrorCategory::User),
            _ => false,
        }
    }

    /// Whether the failure says the table (or view) does not exist.
    ///
    /// True for error type 1110 ([`FailureKind::TableNotFound`]), and, because Athena
    /// runs `SHOW CREATE TABLE` and other DDL through its Hive/Glue path where the
    /// error type is not always set, for these texts in the reason or message
    /// (case-insensitive): `Table not found` (Hive's `SemanticException [Error
    /// 10001]: Table not found db.t`), `TABLE_NOT_FOUND` (Trino), `Table '...' does not
    /// exist` (Trino), and `EntityNotFoundException` (Glue). A missing **database**
    /// matches the Glue form too; creating the table then fails with its own error.
    pub fn is_table_not_found(&self) -> bool {
        if self.state != QueryState::Failed {
            return false;
        }
        if self.kind() == FailureKind::TableNotFound {
            return true;
        }
        [self.reason.as_deref(), self.message.as_deref()]
            .into_iter()
            .flatten()
            .map(str::to_ascii_lowercase)
            .any(|t| {
                t.contains("table not found")
                    || t.contains("table_not_found")
                    || t.contains("entitynotfoundexception")
                    || (t.contains("table '") && t.contains("does not exist"))
            })
    }

    /// Whether this is `ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED` / `ICEBERG_VACUUM_MORE_RUNS_NEEDED`.
    pub fn needs_more_runs(&self) -> bool {
        matches!(
            self.kind(),
            FailureKind::OptimizeMoreRunsNeeded | FailureKind::VacuumMoreRunsNeeded
        )
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "query {} {}", self.query_id, self.state)?;
        if let Some(r) = self.reason.as_deref().or(self.message.as_deref()) {
            write!(f, ": {r}")?;
        }
        let mut details = Vec::new();
        if let Some(c) = self.category {
            details.push(format!("category {c:?}"));
        }
        if let Some(t) = self.error_type {
            details.push(format!("error type {t}"));
        }
        if self.retryable {
            details.push("retryable".to_string());
        }
        if !details.is_empty() {
            write!(f, " ({})", details.join(", "))?;
        }
        write!(f, "\n  in: {}", excerpt(&self.sql))
    }
}

impl std::error::Error for QueryError {}

pub(crate) fn excerpt(sql: &str) -> String {
    const MAX: usize = 400;
    if sql.len() <= MAX {
        return sql.to_string();
    }
    let mut end = MAX;
    while !sql.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &sql[..end], sql.len())
}

/// Everything that can go wrong while running statements on Athena.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The query reached `FAILED` (after any retries the policy allowed).
    #[error("{0}")]
    Failed(Box<QueryError>),
    /// The query was cancelled (by someone else, or by Athena).
    #[error("{0}")]
    Cancelled(Box<QueryError>),
    /// The overall timeout passed. The running query (if any) was sent
    /// `StopQueryExecution`.
    #[error(
        "timed out after {elapsed:?} (query {query_id:?}, stop sent: {stop_sent})\n  in: {sql}"
    )]
    Timeout {
        /// The execution that was running, if one had started.
        query_id: Option<String>,
        /// The SQL.
        sql: String,
        /// The configured limit.
        elapsed: Duration,
        /// Whether `StopQueryExecution` was accepted.
        stop_sent: bool,
    },
    /// An Athena API call failed after the SDK's own retries.
    #[error("Athena {operation} failed: {message}{}", query_id.as_deref().map(|q| format!(" (query {q})")).unwrap_or_default())]
    Api {
        /// The operation (`StartQueryExecution`, ...).
        operation: &'static str,
        /// The service's error code, e.g. `InvalidRequestException`.
        code: Option<String>,
        /// The full error text.
        message: String,
        /// The execution concerned, if known.
        query_id: Option<String>,
        /// The SQL concerned, if any.
        sql: Option<String>,
    },
    /// Athena answered without a field this crate needs.
    #[error("unexpected Athena response to {operation}: {message}")]
    Protocol {
        /// The operation.
        operation: &'static str,
        /// What was missing or wrong.
        message: String,
    },
    /// A statement of the wrong kind was passed to a helper.
    #[error("{0}")]
    InvalidArgument(String),
    /// A helper could not build its statement, or `iceberg_sql::evolve` refused to
    /// plan an evolution (the core crate's error; a refusal lists every change Athena
    /// cannot make in place, each with its way out). Nothing was run for it.
    #[error("{0}")]
    Statement(Box<iceberg_sql::Error>),
    /// An evolution plan has breaking steps (renames, type promotions, drops) that were
    /// not allowed. Nothing was run.
    #[error("the evolution plan has breaking steps that were not allowed ({}); nothing was run:\n{plan}", refused.join("; "))]
    BreakingChange {
        /// The whole plan, as planned.
        plan: Box<iceberg_sql::evolve::EvolutionPlan>,
        /// The steps that were not allowed, described.
        refused: Vec<String>,
    },
    /// The text `SHOW CREATE TABLE` returned could not be read into a table
    /// definition (e.g. a column type the core crate does not know).
    #[error(
        "cannot read the live definition of {table} (query {query_id}): {source}\n  text: {}",
        excerpt(text)
    )]
    LiveDefinition {
        /// The table.
        table: String,
        /// The `SHOW CREATE TABLE` execution.
        query_id: String,
        /// The text it returned (rows joined with newlines).
        text: String,
        /// The parser's error.
        source: Box<iceberg_sql::Error>,
    },
    /// `OPTIMIZE`/`VACUUM` still needed more runs after the configured maximum.
    #[error("still {kind:?} after {runs} runs (query {query_id})\n  in: {sql}")]
    MoreRunsExhausted {
        /// Which maintenance statement.
        kind: FailureKind,
        /// Runs made.
        runs: u32,
        /// The last execution.
        query_id: String,
        /// The SQL.
        sql: String,
    },
    /// A result row could not be decoded (the core crate's decode error, which names
    /// the column).
    #[error("row {row} of query {query_id}: {source}")]
    Decode {
        /// The execution.
        query_id: String,
        /// 0-based data row number (header excluded).
        row: u64,
        /// What did not fit.
        source: Box<iceberg_sql::Error>,
    },
}

impl From<iceberg_sql::Error> for Error {
    fn from(e: iceberg_sql::Error) -> Self {
        Error::Statement(Box::new(e))
    }
}

impl Error {
    /// The failed or cancelled query's details, if that is what happened.
    pub fn query_error(&self) -> Option<&QueryError> {
        match self {
            Error::Failed(q) | Error::Cancelled(q) => Some(q),
            _ => None,
        }
    }

    /// The query execution id concerned, if known.
    pub fn query_id(&self) -> Option<&str> {
        match self {
            Error::Failed(q) | Error::Cancelled(q) => Some(&q.query_id),
            Error::Timeout { query_id, .. } | Error::Api { query_id, .. } => query_id.as_deref(),
            Error::MoreRunsExhausted { query_id, .. }
            | Error::Decode { query_id, .. }
            | Error::LiveDefinition { query_id, .. } => Some(query_id),
            _ => None,
        }
    }

    /// Whether this is the overall timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout { .. })
    }
}

/// The crate's `Result`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// [`AthenaExecutor::append`](crate::AthenaExecutor::append) stopped at a failing batch.
/// The batches before it were committed; the failing one and those after it were not
/// (or, after a timeout, its outcome is unknown: check the query id before resubmitting).
#[derive(Debug, thiserror::Error)]
#[error("batch {} of {total} failed ({} committed before it): {error}", failed_batch + 1, completed.len())]
#[non_exhaustive]
pub struct AppendError {
    /// Outcomes of the batches that finished, in order.
    pub completed: Vec<crate::QueryOutcome>,
    /// 0-based index of the batch that failed.
    pub failed_batch: usize,
    /// Number of batches.
    pub total: usize,
    /// What went wrong.
    #[source]
    pub error: Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(reason: &str, error_type: Option<i32>) -> QueryError {
        QueryError {
            query_id: "q".into(),
            sql: "SHOW CREATE TABLE analytics.t".into(),
            state: QueryState::Failed,
            reason: Some(reason.into()),
            category: Some(ErrorCategory::User),
            error_type,
            retryable: false,
            message: None,
        }
    }

    #[test]
    fn table_not_found_is_recognised_from_type_and_text() {
        let hits = [
            failure("anything", Some(1110)),
            failure(
                "FAILED: SemanticException [Error 10001]: Table not found analytics.t",
                None,
            ),
            failure(
                "TABLE_NOT_FOUND: line 1:1: Table 'awsdatacatalog.analytics.t' does not exist",
                Some(1000),
            ),
            failure(
                "com.amazonaws.services.glue.model.EntityNotFoundException: Table t not found",
                None,
            ),
        ];
        for q in &hits {
            assert!(q.is_table_not_found(), "{q}");
        }
        let misses = [
            failure(
                "SYNTAX_ERROR: line 1:8: Column 'nope' cannot be resolved",
                Some(1006),
            ),
            failure("Schema 'analytics' does not exist", Some(1000)),
            failure("NOT_SUPPORTED: SHOW CREATE TABLE", Some(1200)),
        ];
        for q in &misses {
            assert!(!q.is_table_not_found(), "{q}");
        }
        let mut cancelled = failure("Table not found analytics.t", Some(1110));
        cancelled.state = QueryState::Cancelled;
        assert!(!cancelled.is_table_not_found());
    }
}
