//! Errors: a failed query ([`QueryError`]), and everything else that can go wrong
//! while running one ([`Error`]).

use std::fmt;
use std::time::Duration;

use iceberg_sql::StatementKind;

/// What is known about whether a statement's effects are committed.
///
/// Every error says it ([`Error::commit_state`]); [`Error::outcome_unknown`] is the
/// short test for [`CommitState::Unknown`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommitState {
    /// The statement's query succeeded (or, for maintenance, committed its progress).
    Committed,
    /// Nothing was committed: the query was never created, or it failed or was
    /// cancelled in a way that commits nothing.
    NotCommitted,
    /// It may or may not have committed. The error carries the `ClientRequestToken`
    /// (and the query id when known): resolve it with
    /// [`AthenaExecutor::execute_with`](crate::AthenaExecutor::execute_with) and that
    /// token, which returns the existing execution instead of starting another.
    Unknown,
}

/// `AthenaError.ErrorType` values that can be raised after a statement wrote its data
/// (Athena error type reference, <https://docs.aws.amazon.com/athena/latest/ug/error-reference.html>):
/// 238 "failed to upload metadata to S3", 401/402 "failed to write query results to
/// S3". A write that failed with one of them may have committed.
pub const AFTER_WRITE_ERROR_TYPES: [i32; 3] = [238, 401, 402];

/// Whether statements of `kind` write rows of an Iceberg table with one commit.
pub(crate) fn writes_table(kind: StatementKind) -> bool {
    matches!(
        kind,
        StatementKind::Insert
            | StatementKind::Update
            | StatementKind::Delete
            | StatementKind::Merge
    )
}

/// Whether statements of `kind` change tables or files (so a failure's timing matters).
pub(crate) fn writes_data(kind: StatementKind) -> bool {
    !matches!(
        kind,
        StatementKind::Select
            | StatementKind::ShowCreateTable
            | StatementKind::ShowTables
            | StatementKind::Describe
    )
}

/// Whether `text` (lower case) says `database <name> not found`, Glue's wording; a
/// table's `... not found in database <name>` does not count.
fn names_missing_database(text: &str) -> bool {
    text.match_indices("database ").any(|(i, m)| {
        let rest = &text[i + m.len()..];
        let name_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        name_end > 0 && rest[name_end..].starts_with(" not found")
    })
}

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
    /// `ICEBERG_COMMIT_ERROR`: the commit was refused (a concurrent writer won) or its
    /// result could not be confirmed; a write that failed so may have committed (see
    /// [`QueryError::commit_state`]).
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
    /// The kind of statement that ran, when known.
    pub statement_kind: Option<StatementKind>,
    /// The `ClientRequestToken` the execution was started with, when known.
    pub client_request_token: Option<String>,
    /// For a write that may have committed: what the table's snapshots said (see
    /// [`Evidence`](crate::Evidence)); it decides [`commit_state`](Self::commit_state).
    pub evidence: Option<Box<crate::Evidence>>,
}

impl QueryError {
    /// Whether the failed or cancelled query committed anything.
    ///
    /// The table's snapshots decide when the executor read them
    /// ([`evidence`](Self::evidence)). Otherwise:
    ///
    /// - An `INSERT`, `UPDATE`, `DELETE` or `MERGE` (or unchecked SQL) that was
    ///   `CANCELLED`, or `FAILED` with anything but a USER-category error, **may have
    ///   committed** ([`CommitState::Unknown`]): an Iceberg commit is one atomic swap of
    ///   the table's metadata, but a failure can come after it (a stop that arrives
    ///   during the commit, result files not written: error types 238, 401, 402), and
    ///   `ICEBERG_COMMIT_ERROR` covers both a refused commit and one whose result the
    ///   engine could not confirm (Trino's Glue table operations raise
    ///   `CommitStateUnknownException`, "cannot determine whether the update was
    ///   successful"). A USER-category error (bad data, syntax, a missing table, a
    ///   permission) stops the query before it writes.
    /// - Other statements that write data ([`AFTER_WRITE_ERROR_TYPES`]) may have
    ///   committed; every other failure committed nothing.
    pub fn commit_state(&self) -> CommitState {
        if let Some(e) = &self.evidence {
            return e.verdict;
        }
        if self.state == QueryState::Succeeded {
            return CommitState::Committed;
        }
        let table_write = self.statement_kind.is_none_or(writes_table);
        let user_error = self.category == Some(ErrorCategory::User)
            && self.kind() != FailureKind::IcebergCommitConflict;
        let after_write = self
            .error_type
            .is_some_and(|t| AFTER_WRITE_ERROR_TYPES.contains(&t));
        match self.state {
            QueryState::Failed | QueryState::Cancelled if table_write && !user_error => {
                CommitState::Unknown
            }
            QueryState::Failed if after_write && self.statement_kind.is_none_or(writes_data) => {
                CommitState::Unknown
            }
            _ => CommitState::NotCommitted,
        }
    }

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

    /// Whether the failure says the database does not exist: Hive's `Database does
    /// not exist: db` (`SemanticException [Error 10072]`, what Athena's DDL path
    /// prints; `DATABASE_NOT_EXISTS` in Hive's
    /// <https://github.com/apache/hive/blob/master/ql/src/java/org/apache/hadoop/hive/ql/ErrorMsg.java>),
    /// Trino's `SCHEMA_NOT_FOUND` / `Schema '…' does not exist`, or Glue's
    /// `Database … not found`, in the reason or message (case-insensitive).
    pub fn is_database_not_found(&self) -> bool {
        if self.state != QueryState::Failed {
            return false;
        }
        [self.reason.as_deref(), self.message.as_deref()]
            .into_iter()
            .flatten()
            .map(str::to_ascii_lowercase)
            .any(|t| {
                t.contains("database does not exist")
                    || t.contains("schema_not_found")
                    || (t.contains("schema '") && t.contains("does not exist"))
                    || names_missing_database(&t)
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
        if let Some(e) = &self.evidence {
            write!(f, "\n  commit: {:?}: {e}", e.verdict)?;
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

/// How an API call failed, for retry decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApiErrorClass {
    /// The service refused the call for its rate or a quota (`ThrottlingException`,
    /// `TooManyRequestsException`, ...): it had no effect; call again later.
    Throttling,
    /// A 5xx answer, a timeout, a connection failure or an unreadable answer: the call
    /// may or may not have taken effect; calling again with the same idempotency token
    /// is safe.
    Transient,
    /// A 4xx answer other than throttling (`InvalidRequestException`, access denied):
    /// calling again does not help.
    Rejected,
    /// The request could not even be built; nothing was sent.
    NotSent,
}

/// An Athena API call that failed after the SDK's retries (and, for
/// `StartQueryExecution` and `GetQueryExecution`, after the executor's own).
///
/// The SDK error is kept as [`source`](std::error::Error::source); `Display` is one
/// line naming the call, the statement kind, the service's code and message, and the
/// request id.
#[derive(Debug)]
#[non_exhaustive]
pub struct ApiError {
    /// The API call (`StartQueryExecution`, `GetQueryExecution`, ...).
    pub operation: &'static str,
    /// The kind of statement concerned, if any.
    pub statement_kind: Option<StatementKind>,
    /// The service's error code, e.g. `ThrottlingException`.
    pub code: Option<String>,
    /// The service's message (first line, at most 300 bytes) or what failed locally.
    pub message: String,
    /// The HTTP status, when an answer came.
    pub http_status: Option<u16>,
    /// `x-amzn-RequestId` of the answer, when an answer came.
    pub request_id: Option<String>,
    /// For retry decisions.
    pub class: ApiErrorClass,
    /// The execution concerned, if known.
    pub query_id: Option<String>,
    /// The `ClientRequestToken` of the statement's current attempt, if any.
    pub client_request_token: Option<String>,
    /// The SQL concerned, if any.
    pub sql: Option<String>,
    /// What the failure leaves known about the statement's commit.
    pub commit_state: CommitState,
    pub(crate) source: Box<dyn std::error::Error + Send + Sync + 'static>,
}

impl ApiError {
    /// Whether the service throttled the call.
    pub fn is_throttling(&self) -> bool {
        self.class == ApiErrorClass::Throttling
    }

    /// Whether calling again (with the same idempotency token) may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self.class,
            ApiErrorClass::Throttling | ApiErrorClass::Transient
        )
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Athena {}", self.operation)?;
        if let Some(k) = self.statement_kind {
            write!(f, " for {}", k.name())?;
        }
        f.write_str(" failed: ")?;
        if let Some(c) = &self.code {
            write!(f, "{c}: ")?;
        }
        f.write_str(&self.message)?;
        let mut details = Vec::new();
        if let Some(s) = self.http_status {
            details.push(format!("HTTP {s}"));
        }
        if let Some(r) = &self.request_id {
            details.push(format!("request id {r}"));
        }
        if let Some(q) = &self.query_id {
            details.push(format!("query {q}"));
        }
        if self.commit_state == CommitState::Unknown {
            details.push("outcome unknown".to_string());
        }
        if !details.is_empty() {
            write!(f, " ({})", details.join(", "))?;
        }
        Ok(())
    }
}

impl std::error::Error for ApiError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
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
    /// The timeout passed. The running query (if any) was sent `StopQueryExecution`,
    /// and its final state awaited for `stop_grace`.
    #[error(
        "timed out after {elapsed:?} (query {query_id:?}, stop sent: {stop_sent}, commit: {commit_state:?})\n  in: {}",
        excerpt(sql)
    )]
    Timeout {
        /// The execution that was running, if one had started.
        query_id: Option<String>,
        /// The `ClientRequestToken` of the attempt that was running or starting.
        client_request_token: Option<String>,
        /// The SQL.
        sql: String,
        /// The configured limit.
        elapsed: Duration,
        /// Whether `StopQueryExecution` was accepted.
        stop_sent: bool,
        /// The final state seen after the stop: `SUCCEEDED` (it committed before the
        /// stop took effect), `CANCELLED`/`FAILED`, or unknown.
        commit_state: CommitState,
    },
    /// An Athena API call failed after the retries (see [`ApiError`]).
    #[error(transparent)]
    Api(Box<ApiError>),
    /// A multi-run statement (`OPTIMIZE`/`VACUUM` while Athena answers
    /// `ICEBERG_*_MORE_RUNS_NEEDED`), or a maintenance sequence, failed after some runs
    /// completed. Each completed run committed its progress.
    #[error("{error} (after {} completed run{})", completed.len(), if completed.len() == 1 { "" } else { "s" })]
    MaintenanceIncomplete {
        /// The runs that completed, in order.
        completed: Vec<crate::Run>,
        /// What stopped the rest.
        #[source]
        error: Box<Error>,
    },
    /// [`AthenaExecutor::materialize_days`](crate::AthenaExecutor::materialize_days)
    /// stopped at a day: the days before it are filled, `day` and `not_started` are not
    /// (or, if `error`'s commit state is unknown, `day` may be). Run it again with the
    /// same arguments to go on: it reads the missing days from the table again.
    #[error("daily materialization stopped at {day} after filling {} day{} ({} not started): {error}",
        filled.len(), if filled.len() == 1 { "" } else { "s" }, not_started.len())]
    DaysIncomplete {
        /// The days filled, in order.
        filled: Vec<crate::FilledDay>,
        /// The day that failed.
        day: chrono::NaiveDate,
        /// The missing days after it, not started.
        not_started: Vec<chrono::NaiveDate>,
        /// What stopped the run.
        #[source]
        error: Box<Error>,
    },
    /// A CTAS or UNLOAD failed with a retryable error, and the cleanup that must come
    /// before resubmitting it failed. The statement was not resubmitted.
    #[error("cleanup before resubmitting failed: {cleanup}; the statement's failure: {failure}")]
    Cleanup {
        /// The failure that would have been retried.
        failure: Box<QueryError>,
        /// The cleanup's error.
        #[source]
        cleanup: Box<Error>,
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
    /// The text `SHOW CREATE TABLE` (or `DESCRIBE`) returned could not be read into a
    /// table definition (e.g. a column type the core crate does not know).
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
        /// Every run (each committed its progress), in order.
        completed: Vec<crate::Run>,
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
            Error::Timeout { query_id, .. } => query_id.as_deref(),
            Error::Api(a) => a.query_id.as_deref(),
            Error::MoreRunsExhausted { query_id, .. }
            | Error::Decode { query_id, .. }
            | Error::LiveDefinition { query_id, .. } => Some(query_id),
            Error::MaintenanceIncomplete { error, .. } | Error::DaysIncomplete { error, .. } => {
                error.query_id()
            }
            Error::Cleanup { failure, .. } => Some(&failure.query_id),
            _ => None,
        }
    }

    /// The `ClientRequestToken` of the attempt concerned, if one was made.
    pub fn client_request_token(&self) -> Option<&str> {
        match self {
            Error::Failed(q) | Error::Cancelled(q) => q.client_request_token.as_deref(),
            Error::Timeout {
                client_request_token,
                ..
            } => client_request_token.as_deref(),
            Error::Api(a) => a.client_request_token.as_deref(),
            Error::MaintenanceIncomplete { error, .. } | Error::DaysIncomplete { error, .. } => {
                error.client_request_token()
            }
            Error::Cleanup { failure, .. } => failure.client_request_token.as_deref(),
            _ => None,
        }
    }

    /// What is known about whether the statement committed (see [`CommitState`]).
    pub fn commit_state(&self) -> CommitState {
        match self {
            Error::Failed(q) | Error::Cancelled(q) => q.commit_state(),
            Error::Cleanup { failure, .. } => failure.commit_state(),
            Error::Timeout { commit_state, .. } => *commit_state,
            Error::Api(a) => a.commit_state,
            Error::Protocol { .. } => CommitState::Unknown,
            Error::MaintenanceIncomplete { error, .. } | Error::DaysIncomplete { error, .. } => {
                error.commit_state()
            }
            Error::MoreRunsExhausted { .. }
            | Error::LiveDefinition { .. }
            | Error::Decode { .. } => CommitState::Committed,
            Error::InvalidArgument(_) | Error::Statement(_) | Error::BreakingChange { .. } => {
                CommitState::NotCommitted
            }
        }
    }

    /// Whether the statement may or may not have committed: the error carries the
    /// token to resolve it with (see [`CommitState::Unknown`]).
    pub fn outcome_unknown(&self) -> bool {
        self.commit_state() == CommitState::Unknown
    }

    /// The API error, when an API call failed.
    pub fn api_error(&self) -> Option<&ApiError> {
        match self {
            Error::Api(a) => Some(a),
            Error::MaintenanceIncomplete { error, .. } | Error::DaysIncomplete { error, .. } => {
                error.api_error()
            }
            _ => None,
        }
    }

    /// Whether an API call was throttled.
    pub fn is_throttling(&self) -> bool {
        self.api_error().is_some_and(ApiError::is_throttling)
    }

    /// The request id of the failed API call, if an answer came.
    pub fn request_id(&self) -> Option<&str> {
        self.api_error().and_then(|a| a.request_id.as_deref())
    }

    /// Whether this is the overall timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout { .. })
    }
}

/// The crate's `Result`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

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
            statement_kind: None,
            client_request_token: None,
            evidence: None,
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

    #[test]
    fn missing_databases_are_recognised() {
        let hits = [
            failure(
                "FAILED: SemanticException [Error 10072]: Database does not exist: analytics",
                None,
            ),
            failure("Schema 'analytics' does not exist", Some(1000)),
            failure(
                "SCHEMA_NOT_FOUND: line 1:1: Schema 'analytics' does not exist",
                None,
            ),
            failure(
                "EntityNotFoundException: Database analytics not found. (Service: AWSGlue)",
                None,
            ),
        ];
        for q in &hits {
            assert!(q.is_database_not_found(), "{q}");
        }
        let misses = [
            failure("Table not found analytics.t", Some(1110)),
            failure(
                "EntityNotFoundException: Table t not found in database analytics",
                None,
            ),
            failure("NOT_SUPPORTED: SHOW CREATE TABLE", Some(1200)),
        ];
        for q in &misses {
            assert!(!q.is_database_not_found(), "{q}");
        }
        let mut cancelled = failure("Database does not exist: analytics", None);
        cancelled.state = QueryState::Cancelled;
        assert!(!cancelled.is_database_not_found());
    }

    #[test]
    fn failures_that_may_follow_a_commit_leave_a_write_unknown() {
        let mut q = failure(
            "HIVE_CANNOT_OPEN_SPLIT: Failed to write query results",
            Some(401),
        );
        q.category = Some(ErrorCategory::System);
        q.statement_kind = Some(StatementKind::Insert);
        assert_eq!(q.commit_state(), CommitState::Unknown);
        q.statement_kind = Some(StatementKind::CreateTableAs);
        assert_eq!(q.commit_state(), CommitState::Unknown);
        q.statement_kind = Some(StatementKind::Select);
        assert_eq!(q.commit_state(), CommitState::NotCommitted);
        // A commit error is not proof that nothing committed, whatever its category.
        for kind in [
            StatementKind::Insert,
            StatementKind::Update,
            StatementKind::Delete,
            StatementKind::Merge,
        ] {
            let mut c = failure("ICEBERG_COMMIT_ERROR: Failed to commit", Some(233));
            c.statement_kind = Some(kind);
            assert_eq!(c.commit_state(), CommitState::Unknown, "{kind:?}");
            c.state = QueryState::Cancelled;
            assert_eq!(c.commit_state(), CommitState::Unknown, "{kind:?}");
        }
        // An internal error of a write, too.
        let mut i = failure("GENERIC_INTERNAL_ERROR: worker node lost", Some(200));
        i.category = Some(ErrorCategory::System);
        i.statement_kind = Some(StatementKind::Merge);
        assert_eq!(i.commit_state(), CommitState::Unknown);
        // A data error stops the write before it commits.
        let mut d = failure("INVALID_CAST_ARGUMENT: Value cannot be cast", Some(1001));
        d.statement_kind = Some(StatementKind::Insert);
        assert_eq!(d.commit_state(), CommitState::NotCommitted);
        // A failed DDL statement changed nothing.
        let mut ddl = failure("GENERIC_INTERNAL_ERROR", Some(200));
        ddl.category = Some(ErrorCategory::System);
        ddl.statement_kind = Some(StatementKind::CreateTable);
        assert_eq!(ddl.commit_state(), CommitState::NotCommitted);
    }
}
