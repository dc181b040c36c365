//! What a finished statement reports: id, state, statement type, statistics, runs.

use std::time::Duration;

use aws_sdk_athena::types::QueryExecutionStatistics;

use crate::error::{QueryError, QueryState};

/// Bytes in one TB for pricing (2^40, as Athena bills per MB = 2^20 bytes).
pub const BYTES_PER_TB: f64 = 1_099_511_627_776.0;
const MB: i64 = 1 << 20;
const MIN_BILLED: i64 = 10 * MB;

/// `QueryExecution.Statistics`, plus a cost estimate.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct QueryStats {
    /// `DataScannedInBytes` (the billing basis).
    pub data_scanned_bytes: i64,
    /// `EngineExecutionTimeInMillis`.
    pub engine_time: Duration,
    /// `QueryQueueTimeInMillis`.
    pub queue_time: Duration,
    /// `QueryPlanningTimeInMillis`.
    pub planning_time: Duration,
    /// `ServiceProcessingTimeInMillis`.
    pub service_processing_time: Duration,
    /// `TotalExecutionTimeInMillis`.
    pub total_time: Duration,
    /// `ResultReuseInformation.ReusedPreviousResult`.
    pub reused_previous_result: bool,
    /// Estimated cost in USD: data scanned, rounded up to the MB with Athena's 10 MB
    /// minimum when anything was scanned, times the configured price per TB.
    pub cost_usd: f64,
}

fn ms(v: Option<i64>) -> Duration {
    Duration::from_millis(v.unwrap_or(0).max(0) as u64)
}

/// The estimated cost of scanning `bytes` at `price_per_tb` USD.
///
/// ```
/// use iceberg_sql_athena::estimate_cost_usd;
/// assert_eq!(estimate_cost_usd(0, 5.0), 0.0);
/// // 10 MB minimum
/// assert_eq!(estimate_cost_usd(1, 5.0), estimate_cost_usd(10 << 20, 5.0));
/// assert!((estimate_cost_usd(1 << 40, 5.0) - 5.0).abs() < 1e-9);
/// ```
pub fn estimate_cost_usd(bytes: i64, price_per_tb: f64) -> f64 {
    if bytes <= 0 {
        return 0.0;
    }
    let mbs = bytes / MB + i64::from(bytes % MB != 0);
    let billed = mbs.saturating_mul(MB).max(MIN_BILLED);
    billed as f64 / BYTES_PER_TB * price_per_tb
}

impl QueryStats {
    pub(crate) fn from_sdk(s: Option<&QueryExecutionStatistics>, price_per_tb: f64) -> Self {
        let Some(s) = s else {
            return QueryStats::default();
        };
        let bytes = s.data_scanned_in_bytes.unwrap_or(0);
        QueryStats {
            data_scanned_bytes: bytes,
            engine_time: ms(s.engine_execution_time_in_millis),
            queue_time: ms(s.query_queue_time_in_millis),
            planning_time: ms(s.query_planning_time_in_millis),
            service_processing_time: ms(s.service_processing_time_in_millis),
            total_time: ms(s.total_execution_time_in_millis),
            reused_previous_result: s
                .result_reuse_information
                .as_ref()
                .is_some_and(|r| r.reused_previous_result),
            cost_usd: estimate_cost_usd(bytes, price_per_tb),
        }
    }

    /// Adds another run's statistics (for statements that took several runs).
    pub fn add(&mut self, other: &QueryStats) {
        self.data_scanned_bytes = self
            .data_scanned_bytes
            .saturating_add(other.data_scanned_bytes);
        self.engine_time += other.engine_time;
        self.queue_time += other.queue_time;
        self.planning_time += other.planning_time;
        self.service_processing_time += other.service_processing_time;
        self.total_time += other.total_time;
        self.reused_previous_result |= other.reused_previous_result;
        self.cost_usd += other.cost_usd;
    }
}

/// Why one run of a statement did not end the statement.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnd {
    /// This run is the one the outcome reports.
    Final,
    /// It failed with a retryable error and was resubmitted with a fresh token.
    Resubmitted(QueryError),
    /// `OPTIMIZE`/`VACUUM` said it needs more runs; the statement was run again.
    MoreRunsNeeded(QueryError),
}

/// One `StartQueryExecution` made for a statement.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The execution id.
    pub query_id: String,
    /// The `ClientRequestToken` it was started with.
    pub client_request_token: String,
    /// The states polling saw, in order, without repeats (e.g. QUEUED, RUNNING,
    /// SUCCEEDED).
    pub states: Vec<QueryState>,
    /// Its statistics.
    pub stats: QueryStats,
    /// How it ended.
    pub end: RunEnd,
}

/// A statement that finished successfully.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct QueryOutcome {
    /// The execution id of the final (successful) run.
    pub query_id: String,
    /// [`QueryState::Succeeded`], or the state of a write that failed after its commit
    /// (see [`evidence`](Self::evidence)).
    pub state: QueryState,
    /// `StatementType`: `DDL`, `DML` or `UTILITY`.
    pub statement_type: Option<String>,
    /// `SubstatementType` (`SELECT`, `INSERT`, `MERGE`, ...), when Athena reports it.
    pub substatement_type: Option<String>,
    /// The final run's statistics.
    pub stats: QueryStats,
    /// Statistics summed over all runs (retries and maintenance re-runs included).
    pub total_stats: QueryStats,
    /// Every run made, in order; the last is the final one.
    pub runs: Vec<Run>,
    /// Whether the first result row is a header of column labels (Athena sends one for
    /// `SELECT`). Set from the statement kind and Athena's `SubstatementType`; override
    /// it when reading a result whose shape you know better.
    pub has_header: bool,
    /// The SQL.
    pub sql: String,
    /// How many rows an `INSERT`, `UPDATE`, `DELETE`, `MERGE` or CTAS wrote: Athena's
    /// `UpdateCount` (`GetQueryResults`,
    /// <https://docs.aws.amazon.com/athena/latest/APIReference/API_GetQueryResults.html>),
    /// read once after the statement succeeded. `None` for statements that write no
    /// rows, when Athena gives no count, or when reading it failed (logged; the
    /// statement committed all the same).
    pub rows_affected: Option<u64>,
    /// Where Athena wrote the result file (`ResultConfiguration.OutputLocation`, e.g.
    /// `s3://…/<query id>.csv`), when it reports one.
    pub output_location: Option<String>,
    /// The manifest of the files an `INSERT`, CTAS or `UNLOAD` wrote
    /// (`Statistics.DataManifestLocation`), when Athena reports one.
    pub data_manifest_location: Option<String>,
    /// Set when Athena reported the last run `FAILED` or `CANCELLED` but the written
    /// table's snapshots show that it committed ([`Evidence`](crate::Evidence)); `state`
    /// is then the run's own state.
    pub evidence: Option<Box<crate::Evidence>>,
}

impl QueryOutcome {
    /// How many `StartQueryExecution` calls the statement took.
    pub fn attempts(&self) -> usize {
        self.runs.len()
    }
}
