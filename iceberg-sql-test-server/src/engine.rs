//! What a query does: the [`Engine`] turns each new execution into a [`Plan`] (states
//! over time, then success with rows / an update count, or a failure, or a cancel).

use std::time::Duration;

/// `QueryExecution.Status.State`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// Waiting for capacity.
    Queued,
    /// Running.
    Running,
    /// Finished successfully.
    Succeeded,
    /// Finished with an error.
    Failed,
    /// Stopped.
    Cancelled,
}

impl State {
    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Queued => "QUEUED",
            State::Running => "RUNNING",
            State::Succeeded => "SUCCEEDED",
            State::Failed => "FAILED",
            State::Cancelled => "CANCELLED",
        }
    }

    /// Whether no further change happens.
    pub fn is_terminal(self) -> bool {
        matches!(self, State::Succeeded | State::Failed | State::Cancelled)
    }
}

/// How long a non-terminal phase lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lasts {
    /// This many `GetQueryExecution` calls see it (deterministic whatever the timing).
    Polls(u32),
    /// This long after the phase began (`tokio::time`, so a paused clock works too).
    For(Duration),
    /// Until the query is stopped (or [`TestServer::settle`](crate::TestServer::settle)).
    Forever,
}

/// One non-terminal phase of a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phase {
    /// `Queued` or `Running`.
    pub state: State,
    /// How long it lasts.
    pub lasts: Lasts,
}

/// `AthenaError` of a failed query, plus its `StateChangeReason`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// 1 = SYSTEM, 2 = USER, 3 = OTHER.
    pub category: i32,
    /// See <https://docs.aws.amazon.com/athena/latest/ug/error-reference.html>.
    pub error_type: i32,
    /// "True if the query might succeed if resubmitted."
    pub retryable: bool,
    /// `StateChangeReason` and `ErrorMessage`.
    pub message: String,
}

impl Failure {
    /// Any failure.
    pub fn new(category: i32, error_type: i32, retryable: bool, message: &str) -> Self {
        Failure {
            category,
            error_type,
            retryable,
            message: message.to_string(),
        }
    }

    /// A concurrent Iceberg writer won (error type 233, "Iceberg error"; the category
    /// Athena reports for it is not documented, SYSTEM is assumed).
    pub fn iceberg_commit_error() -> Self {
        Failure::new(
            1,
            233,
            false,
            "ICEBERG_COMMIT_ERROR: Failed to commit Iceberg update to table",
        )
    }

    /// OPTIMIZE made progress and must run again.
    pub fn optimize_more_runs_needed() -> Self {
        Failure::new(
            2,
            233,
            false,
            "ICEBERG_OPTIMIZE_MORE_RUNS_NEEDED: Processed 100 partitions in this round of optimization, but there are more partitions remaining.",
        )
    }

    /// VACUUM made progress and must run again.
    pub fn vacuum_more_runs_needed() -> Self {
        Failure::new(
            2,
            233,
            false,
            "ICEBERG_VACUUM_MORE_RUNS_NEEDED: Removed 1000 files in this round of vacuum, but there are more files remaining.",
        )
    }

    /// Glue throttled the query (error type 1401).
    pub fn glue_throttled() -> Self {
        Failure::new(
            1,
            1401,
            true,
            "Rate exceeded (Service: AWSGlue; Status Code: 400; Error Code: ThrottlingException)",
        )
    }

    /// An internal engine error Athena marks retryable (error type 200).
    pub fn internal_retryable() -> Self {
        Failure::new(1, 200, true, "GENERIC_INTERNAL_ERROR: worker node lost")
    }

    /// A data error in the statement (error type 1001): resubmitting does not help.
    pub fn user_data_error() -> Self {
        Failure::new(
            2,
            1001,
            false,
            "INVALID_CAST_ARGUMENT: Value cannot be cast to timestamp",
        )
    }

    /// Writing the query's result files to S3 failed (error type 401).
    pub fn result_write_failed() -> Self {
        Failure::new(
            1,
            401,
            true,
            "HIVE_CANNOT_OPEN_SPLIT: Failed to write query results to S3",
        )
    }
}

/// How a query ends.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// `SUCCEEDED`. `commits`: an `INSERT ... VALUES` adds its rows to the ledger.
    Succeed {
        /// Rows for `GetQueryResults`.
        result: Option<ResultSet>,
        /// `GetQueryResults.UpdateCount`; for a committing INSERT, `None` means "the
        /// number of rows".
        update_count: Option<i64>,
        /// Whether the statement's rows are committed.
        commits: bool,
    },
    /// `FAILED`. With `after_commit`, the rows are committed first (a failure after
    /// the write, e.g. while writing the result files).
    Fail {
        /// The error.
        failure: Failure,
        /// Commit the rows before failing.
        after_commit: bool,
    },
    /// `CANCELLED` by someone else (e.g. the console), with this reason.
    Cancel(String),
}

/// Column metadata and rows of a result.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultSet {
    /// `(name, type)` per column, e.g. `("event_id", "varchar")`.
    pub columns: Vec<(String, String)>,
    /// Data rows; `None` is SQL NULL (no `VarCharValue`).
    pub rows: Vec<Vec<Option<String>>>,
    /// Whether the first page starts with a row of column labels (Athena's `SELECT`).
    pub header: bool,
}

impl ResultSet {
    /// A `SELECT` result (with the header row Athena puts first).
    pub fn select(columns: &[(&str, &str)], rows: Vec<Vec<Option<String>>>) -> Self {
        ResultSet {
            columns: columns
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
            rows,
            header: true,
        }
    }
}

/// What one execution will do.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// Non-terminal phases, in order.
    pub phases: Vec<Phase>,
    /// The terminal state.
    pub end: End,
    /// `StatementType` (`DDL`, `DML`, `UTILITY`).
    pub statement_type: String,
    /// `SubstatementType` (`SELECT`, `INSERT`, ...).
    pub substatement_type: Option<String>,
    /// `Statistics.DataScannedInBytes`.
    pub data_scanned_bytes: i64,
}

impl Plan {
    /// Succeeds after one QUEUED and one RUNNING poll, committing an INSERT's rows.
    pub fn succeed() -> Self {
        Plan {
            phases: vec![
                Phase {
                    state: State::Queued,
                    lasts: Lasts::Polls(1),
                },
                Phase {
                    state: State::Running,
                    lasts: Lasts::Polls(1),
                },
            ],
            end: End::Succeed {
                result: None,
                update_count: None,
                commits: true,
            },
            statement_type: "DML".into(),
            substatement_type: None,
            data_scanned_bytes: 0,
        }
    }

    /// Fails with `failure` after the same phases as [`Plan::succeed`]; commits nothing.
    pub fn fail(failure: Failure) -> Self {
        Plan {
            end: End::Fail {
                failure,
                after_commit: false,
            },
            ..Plan::succeed()
        }
    }

    /// Is cancelled by someone else after the phases.
    pub fn cancel(reason: &str) -> Self {
        Plan {
            end: End::Cancel(reason.to_string()),
            ..Plan::succeed()
        }
    }

    /// Succeeds with these rows.
    pub fn rows(result: ResultSet) -> Self {
        Plan {
            end: End::Succeed {
                result: Some(result),
                update_count: None,
                commits: false,
            },
            substatement_type: Some("SELECT".into()),
            ..Plan::succeed()
        }
    }

    /// Replaces the phases.
    pub fn phases(mut self, phases: Vec<Phase>) -> Self {
        self.phases = phases;
        self
    }

    /// Runs for `polls` polls (after none queued).
    pub fn running_polls(self, polls: u32) -> Self {
        self.phases(vec![Phase {
            state: State::Running,
            lasts: Lasts::Polls(polls),
        }])
    }

    /// Runs for `d` (wall or paused tokio time).
    pub fn running_for(self, d: Duration) -> Self {
        self.phases(vec![Phase {
            state: State::Running,
            lasts: Lasts::For(d),
        }])
    }

    /// Never finishes on its own.
    pub fn running_forever(self) -> Self {
        self.phases(vec![Phase {
            state: State::Running,
            lasts: Lasts::Forever,
        }])
    }

    /// Sets `SubstatementType`.
    pub fn substatement(mut self, t: &str) -> Self {
        self.substatement_type = Some(t.to_string());
        self
    }

    /// Sets `StatementType`.
    pub fn statement_type(mut self, t: &str) -> Self {
        self.statement_type = t.to_string();
        self
    }

    /// Sets `UpdateCount` on success.
    pub fn update_count(mut self, n: i64) -> Self {
        if let End::Succeed { update_count, .. } = &mut self.end {
            *update_count = Some(n);
        }
        self
    }

    /// Sets the bytes scanned.
    pub fn scanned(mut self, bytes: i64) -> Self {
        self.data_scanned_bytes = bytes;
        self
    }
}

/// A new execution, as the engine sees it.
#[derive(Debug, Clone)]
pub struct NewQuery<'a> {
    /// Its `QueryExecutionId`.
    pub id: &'a str,
    /// `QueryString`.
    pub sql: &'a str,
    /// `ExecutionParameters`.
    pub params: &'a [String],
    /// How many executions of this exact `QueryString` came before (0 for the first).
    pub earlier_runs: usize,
}

/// An execution reaching its terminal state, as the engine sees it.
#[derive(Debug, Clone)]
pub struct Finished<'a> {
    /// Its `QueryExecutionId`.
    pub id: &'a str,
    /// `QueryString`.
    pub sql: &'a str,
    /// `SUCCEEDED`, `FAILED` or `CANCELLED`.
    pub state: State,
    /// Whether its write committed.
    pub committed: bool,
}

/// Decides what each new execution does.
pub trait Engine: Send + 'static {
    /// The plan of a new execution.
    fn plan(&mut self, query: &NewQuery<'_>) -> Plan;

    /// Called once when an execution reaches its terminal state: the moment a real
    /// engine has read its input (what a write read is what it finds then, not what
    /// was there when it was submitted).
    fn finished(&mut self, _query: &Finished<'_>) {}
}

/// The plan for any statement nobody scripted: `INSERT` commits its rows with
/// `SubstatementType` `INSERT`; `SELECT` returns no rows; anything else succeeds.
pub fn default_plan(sql: &str) -> Plan {
    let head = sql.trim_start().to_ascii_uppercase();
    if head.starts_with("INSERT") {
        Plan::succeed().substatement("INSERT")
    } else if head.starts_with("SELECT") || head.starts_with("WITH") {
        Plan::rows(ResultSet::default())
    } else if head.starts_with("CREATE") || head.starts_with("DROP") || head.starts_with("ALTER") {
        Plan {
            end: End::Succeed {
                result: None,
                update_count: None,
                commits: false,
            },
            ..Plan::succeed().statement_type("DDL")
        }
    } else {
        Plan {
            end: End::Succeed {
                result: None,
                update_count: None,
                commits: false,
            },
            ..Plan::succeed()
        }
    }
}

type Responder = Box<dyn FnMut(&NewQuery<'_>) -> Plan + Send>;
type SqlTest = Box<dyn Fn(&str) -> bool + Send>;
type FinishObserver = Box<dyn FnMut(&Finished<'_>) + Send>;

/// An [`Engine`] of rules: the first rule whose text test matches the SQL answers;
/// unmatched statements get [`default_plan`].
///
/// ```
/// use iceberg_sql_test_server::{Failure, Plan, ScriptedEngine};
///
/// let engine = ScriptedEngine::new()
///     // The first two OPTIMIZE runs need more runs, then it is done.
///     .more_runs_needed("OPTIMIZE", 2, Failure::optimize_more_runs_needed())
///     .on_contains("bad_table", |_| Plan::fail(Failure::new(2, 1110, false, "TABLE_NOT_FOUND")));
/// # let _ = engine;
/// ```
#[derive(Default)]
pub struct ScriptedEngine {
    rules: Vec<(SqlTest, Responder)>,
    observers: Vec<FinishObserver>,
}

impl std::fmt::Debug for ScriptedEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScriptedEngine({} rules)", self.rules.len())
    }
}

impl ScriptedEngine {
    /// No rules: every statement gets [`default_plan`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A rule for SQL that passes `matches`.
    pub fn on(
        mut self,
        matches: impl Fn(&str) -> bool + Send + 'static,
        respond: impl FnMut(&NewQuery<'_>) -> Plan + Send + 'static,
    ) -> Self {
        self.rules.push((Box::new(matches), Box::new(respond)));
        self
    }

    /// Calls `observe` whenever an execution reaches its terminal state (see
    /// [`Engine::finished`]).
    pub fn on_finish(mut self, observe: impl FnMut(&Finished<'_>) + Send + 'static) -> Self {
        self.observers.push(Box::new(observe));
        self
    }

    /// A rule for SQL containing `needle`.
    pub fn on_contains(
        self,
        needle: &str,
        respond: impl FnMut(&NewQuery<'_>) -> Plan + Send + 'static,
    ) -> Self {
        let needle = needle.to_string();
        self.on(move |sql| sql.contains(&needle), respond)
    }

    /// SQL starting with `prefix` fails with `failure` (a MORE_RUNS_NEEDED answer)
    /// `runs` times, then succeeds.
    pub fn more_runs_needed(self, prefix: &str, runs: usize, failure: Failure) -> Self {
        let prefix = prefix.to_string();
        self.on(
            move |sql| sql.trim_start().starts_with(&prefix),
            move |q| {
                if q.earlier_runs < runs {
                    Plan::fail(failure.clone()).statement_type("UTILITY")
                } else {
                    Plan {
                        end: End::Succeed {
                            result: None,
                            update_count: None,
                            commits: false,
                        },
                        ..Plan::succeed().statement_type("UTILITY")
                    }
                }
            },
        )
    }
}

impl Engine for ScriptedEngine {
    fn plan(&mut self, query: &NewQuery<'_>) -> Plan {
        for (matches, respond) in &mut self.rules {
            if matches(query.sql) {
                return respond(query);
            }
        }
        default_plan(query.sql)
    }

    fn finished(&mut self, query: &Finished<'_>) {
        for observe in &mut self.observers {
            observe(query);
        }
    }
}
