//! Appends that write every row exactly once, whatever fails: INSERT batches started
//! with tokens derived from a load id, and a report of each batch's commit.
//!
//! Why tokens and not a key-based MERGE: Athena answers a `ClientRequestToken` it has
//! seen with the execution it created for it, and refuses it with another text ("If
//! another StartQueryExecution request is received, the same response is returned and
//! another query is not created. An error is returned if a parameter, such as
//! QueryString, has changed.",
//! <https://docs.aws.amazon.com/athena/latest/APIReference/API_StartQueryExecution.html>).
//! Batch `i` of load `L` starts with a token derived from `L` and `i`, and its
//! resubmissions with tokens derived from that, so:
//!
//! - a re-run with the same rows finds the batches that already ran (the earlier
//!   execution answers) instead of running them again;
//! - a re-run with other rows under the same load id is refused by Athena at the
//!   first batch whose text changed, and nothing of it is written
//!   ([`AppendError`] says so, with the way out);
//! - rows corrected after a failure are resumed with the earlier report
//!   ([`AppendOptions::skip_committed`]): the batches it shows committed must be
//!   unchanged and are skipped; a batch it shows did not commit may have other rows
//!   and then runs under a token derived from its new text.
//!
//! That keeps appends plain `INSERT ... VALUES`: no key needed, no scan of the target
//! (a MERGE scans it on every batch). The limit: AWS does not document how long Athena
//! remembers a token; a re-run long after the first (hours? days?) may run a batch
//! again. [`AppendOptions::skip_committed`] with the earlier report does not depend on
//! Athena's memory.

use iceberg_sql::{IcebergTable, Statement, TableStatements};
use sha2::{Digest, Sha256};

use crate::error::{CommitState, Error};
use crate::executor::{AthenaExecutor, ExecuteOptions};
use crate::outcome::{QueryOutcome, QueryStats};
use crate::token::{attempt_token, batch_token};

/// How to run an append.
///
/// ```
/// use iceberg_sql_athena::AppendOptions;
///
/// // The load id names this load: a re-run with the same id and the same rows
/// // sends the same tokens, so Athena answers the batches that already ran.
/// let options = AppendOptions::new("events-2024-05-01").max_batch_bytes(64 * 1024);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[must_use]
pub struct AppendOptions {
    load_id: String,
    max_batch_bytes: Option<usize>,
    skip: Option<AppendReport>,
}

impl AppendOptions {
    /// An append named `load_id`: pick something that names this load (a file name, a
    /// job run id, a date) and pass it again when running the load again.
    pub fn new(load_id: impl Into<String>) -> Self {
        AppendOptions {
            load_id: load_id.into(),
            max_batch_bytes: None,
            skip: None,
        }
    }

    /// Caps each INSERT's text below Athena's 262,144 bytes (smaller batches redo less
    /// work when one fails). [`append_rows`](AthenaExecutor::append_rows) only.
    pub fn max_batch_bytes(mut self, bytes: usize) -> Self {
        self.max_batch_bytes = Some(bytes);
        self
    }

    /// Resumes from an earlier report of the same load: batches it says committed are
    /// not sent again; the others run as usual, with their tokens, so one that
    /// committed after the report was written is still found.
    ///
    /// The rows may have been corrected since: a batch the report shows did not
    /// commit ([`BatchState::NotCommitted`] or [`BatchState::NotSent`]) may hold other
    /// rows now, and then runs with a token derived from its new text. A batch the
    /// report shows committed, or whose outcome it leaves unknown, must hold the same
    /// rows, or the append is refused before anything runs
    /// ([`Error::InvalidArgument`], naming the batch).
    pub fn skip_committed(mut self, report: &AppendReport) -> Self {
        self.skip = Some(report.clone());
        self
    }

    /// The load id.
    pub fn load_id(&self) -> &str {
        &self.load_id
    }
}

/// What is known about one batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BatchState {
    /// Its rows are in the table.
    Committed,
    /// It ran and committed nothing (or it never started).
    NotCommitted,
    /// It may or may not have committed (see [`Error::outcome_unknown`]); running the
    /// same load again resolves it through its token.
    Unknown,
    /// Not sent: an earlier batch failed.
    NotSent,
}

/// One batch of an append.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct BatchReport {
    /// 0-based batch number.
    pub index: usize,
    /// The 0-based indices of the input rows it holds
    /// ([`append_rows`](AthenaExecutor::append_rows)), in the order it holds them (rows
    /// are grouped by partition, so they need not be contiguous); `None` for statements
    /// passed to [`append`](AthenaExecutor::append).
    pub rows: Option<Vec<usize>>,
    /// The token of its first attempt (resubmissions use tokens derived from it).
    pub client_request_token: String,
    /// The token of its last attempt, when it ran.
    pub last_token: Option<String>,
    /// SHA-256 of its SQL, to check that a resumed load has the same batches.
    pub sql_sha256: String,
    /// The execution that decided its state, when known.
    pub query_id: Option<String>,
    /// Its state.
    pub state: BatchState,
    /// Its outcome, when it committed in this call.
    pub outcome: Option<QueryOutcome>,
}

/// Every batch of an append, in order.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AppendReport {
    /// The load id the tokens were derived from.
    pub load_id: String,
    /// One entry per batch.
    pub batches: Vec<BatchReport>,
}

impl AppendReport {
    /// Whether every batch committed.
    pub fn is_complete(&self) -> bool {
        self.batches
            .iter()
            .all(|b| b.state == BatchState::Committed)
    }

    /// The batches in `state`.
    pub fn in_state(&self, state: BatchState) -> impl Iterator<Item = &BatchReport> {
        self.batches.iter().filter(move |b| b.state == state)
    }

    /// The input rows of each committed batch (`append_rows` only), in batch order.
    pub fn committed_rows(&self) -> Vec<Vec<usize>> {
        self.in_state(BatchState::Committed)
            .filter_map(|b| b.rows.clone())
            .collect()
    }

    /// The outcomes of the batches committed in this call, in order.
    pub fn outcomes(&self) -> Vec<&QueryOutcome> {
        self.batches
            .iter()
            .filter_map(|b| b.outcome.as_ref())
            .collect()
    }
}

/// An append that did not commit every batch. `report` says what each batch did; run
/// the same load again (same load id, same rows) to finish it without duplicates.
///
/// When Athena refused a batch's token because the load id ran before with other
/// rows in that batch, the message says so and gives the way out
/// ([`rows_changed`](Self::rows_changed)).
#[derive(Debug, thiserror::Error)]
#[error("append {} stopped at batch {} of {} ({} committed): {error}{}", report.load_id, failed_batch + 1, report.batches.len(), report.in_state(BatchState::Committed).count(), if self.rows_changed() { ROWS_CHANGED } else { "" })]
#[non_exhaustive]
pub struct AppendError {
    /// Every batch's state.
    pub report: AppendReport,
    /// 0-based index of the batch that stopped the append.
    pub failed_batch: usize,
    /// Why it stopped.
    #[source]
    pub error: Error,
}

const ROWS_CHANGED: &str = "\n  this load id ran before with other rows in that batch, so Athena refused its token (nothing of it was written). A load id names one input: give new data a new load id; to finish this load after correcting rows of batches that did not commit, pass its latest report to AppendOptions::skip_committed (a correction resumed from an older report is refused like this when the batch ran with its earlier rows since: those rows are in the table; take the correction back)";

impl AppendError {
    /// Whether Athena refused the failed batch's token because it was used before with
    /// another text (an `InvalidRequestException` that names the token or its
    /// parameters): the load id ran before with other rows in that batch.
    pub fn rows_changed(&self) -> bool {
        self.error.api_error().is_some_and(|a| {
            a.operation == "StartQueryExecution"
                && a.code.as_deref() == Some("InvalidRequestException")
                && ["idempotent", "token", "parameter"]
                    .iter()
                    .any(|w| a.message.to_ascii_lowercase().contains(w))
        })
    }
}

/// Progress of an append, reported after each batch that committed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AppendProgress {
    /// Batches committed so far, including those skipped as committed earlier.
    pub done: usize,
    /// Batches in total.
    pub total: usize,
    /// 0-based number of the batch that just committed.
    pub batch: usize,
    /// Its input rows (`append_rows` only).
    pub rows: Option<Vec<usize>>,
    /// Its execution.
    pub query_id: String,
    /// Its statistics.
    pub stats: QueryStats,
}

/// Applies `earlier`, a report of the same load, to `report` (see
/// [`AppendOptions::skip_committed`]); why not, when it cannot be resumed.
fn resume(report: &mut AppendReport, earlier: &AppendReport) -> Result<(), String> {
    if earlier.load_id != report.load_id {
        return Err(format!(
            "skip_committed: the report is of load {:?}, not of load {:?}; resume a load with its own report",
            earlier.load_id, report.load_id
        ));
    }
    let kept = |e: &BatchReport| matches!(e.state, BatchState::Committed | BatchState::Unknown);
    for e in earlier.batches.iter().skip(report.batches.len()) {
        if kept(e) {
            return Err(format!(
                "skip_committed: batch {} of load {:?} {} in the earlier run, but the rows now make only {} batches; the rows of a batch that committed cannot change (they are in the table): resume with the same rows for that batch",
                e.index + 1,
                report.load_id,
                state_words(e.state),
                report.batches.len()
            ));
        }
    }
    for (b, e) in report.batches.iter_mut().zip(&earlier.batches) {
        if e.sql_sha256 == b.sql_sha256 {
            // The same rows run under the token they ran under before (a corrected
            // batch's own token, once its rows were corrected).
            b.client_request_token = e.client_request_token.clone();
            if e.state == BatchState::Committed {
                b.state = BatchState::Committed;
                b.query_id = e.query_id.clone();
            }
        } else if kept(e) {
            return Err(format!(
                "skip_committed: batch {} of load {:?} {} in the earlier run with other rows; the rows of a batch that committed (or may have) cannot change: keep its rows as they were, and correct only rows of batches that did not commit",
                b.index + 1,
                report.load_id,
                state_words(e.state)
            ));
        } else if b.rows != e.rows {
            // Its rows regrouped (a corrected value changed a batch's size): rows of
            // this batch may have committed under another batch's tokens since.
            return Err(format!(
                "skip_committed: batch {} of load {:?} now holds rows {:?}, in the earlier run rows {:?}: the corrected rows fall into batches differently, so rows that committed under another batch could be written again; correct the value with one of the same length, or leave the row out of this load and load it on its own",
                b.index + 1,
                report.load_id,
                b.rows.as_deref().unwrap_or_default(),
                e.rows.as_deref().unwrap_or_default(),
            ));
        } else {
            // It did not commit: its corrected rows take the next token of its chain,
            // the one a later run of its earlier rows would have taken. Had such a run
            // happened (this report is not the latest), Athena refuses the token (its
            // text differs) instead of running the batch a second time.
            b.client_request_token = next_token(e);
        }
    }
    Ok(())
}

/// The first token of `e`'s chain that no run of its earlier rows has used: its first
/// token if it never ran, else the one after its last attempt's.
fn next_token(e: &BatchReport) -> String {
    let Some(last) = e.last_token.as_deref() else {
        return e.client_request_token.clone();
    };
    chain_position(&e.client_request_token, last).map_or_else(
        || attempt_token(last, 1),
        |k| attempt_token(&e.client_request_token, k + 1),
    )
}

/// Which attempt of the chain that starts at `base` used `token`.
fn chain_position(base: &str, token: &str) -> Option<u32> {
    // Resubmissions are bounded (`RetryPolicy`, replays): the chain is short.
    (0..=1_000u32).find(|&k| attempt_token(base, k) == token)
}

fn state_words(state: BatchState) -> &'static str {
    match state {
        BatchState::Committed => "committed",
        BatchState::Unknown => "may have committed",
        BatchState::NotCommitted => "did not commit",
        BatchState::NotSent => "was not sent",
    }
}

fn sql_sha256(sql: &str) -> String {
    Sha256::digest(sql.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl AthenaExecutor {
    /// Runs `batches` (e.g. `INSERT` statements) in order, each exactly once, as load
    /// `options.load_id()`: batch `i` starts with a token derived from the load id and
    /// `i`, so running the same load again (after any failure, in any process) finds
    /// the batches Athena already ran instead of running them twice. Each batch is
    /// executed like [`execute_with`](Self::execute_with): lost answers resolved with
    /// the same token, observation failures waited out, retryable failures that
    /// committed nothing resubmitted with derived tokens.
    ///
    /// A re-run moves past an earlier run's attempt of a batch that finished without
    /// committing (whatever the error: the re-run is the retry) to the next derived
    /// token.
    ///
    /// Stops at the first batch that does not commit and returns the report of every
    /// batch in an [`AppendError`]. `progress` is called after each committed batch.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Fault, Op, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().row_key("event_id")).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let rows: Vec<McpEvent> = (0..500)
    ///     .map(|i| McpEvent { event_id: format!("e-{i:04}"), tool_name: "query_data".into() })
    ///     .collect();
    /// let batches = McpEvent::insert(&rows).max_bytes(8_000).batches()?;
    /// // The answer to the second batch's start is lost after Athena created the
    /// // query: sent again with the same token, it finds that execution.
    /// server.script(Op::StartQueryExecution, [Fault::Pass, Fault::LostResponse]);
    /// let options = AppendOptions::new("events-2024-05-01");
    /// let report = loop {
    ///     match executor.append(&batches, options.clone(), |p| println!("{}/{}", p.done, p.total)).await {
    ///         Ok(report) => break report,
    ///         // Same load id, same batches: nothing is written twice.
    ///         Err(e) => eprintln!("{e}; running the load again"),
    ///     }
    /// };
    /// assert!(report.is_complete());
    /// assert_eq!(server.ledger().rows_committed(), 500); // each row once
    /// # Ok(()) }
    /// ```
    pub async fn append(
        &self,
        batches: &[Statement],
        options: AppendOptions,
        progress: impl FnMut(&AppendProgress),
    ) -> Result<AppendReport, AppendError> {
        let batches: Vec<(Option<Vec<usize>>, &Statement)> =
            batches.iter().map(|b| (None, b)).collect();
        self.append_batches(&batches, options, progress).await
    }

    /// Appends `rows` to `T`'s table: `INSERT ... VALUES` batches that each fit
    /// Athena's query size limit (or `max_batch_bytes`) and its 100-partitions-per-
    /// INSERT limit, run as [`append`](Self::append) runs them. The report gives each
    /// batch's input rows.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Fault, Op, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().row_key("event_id")).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, tool_name: String }
    ///
    /// let rows: Vec<McpEvent> = (0..500)
    ///     .map(|i| McpEvent { event_id: format!("e-{i:04}"), tool_name: "query_data".into() })
    ///     .collect();
    /// let options = AppendOptions::new("events-2024-05-01").max_batch_bytes(8_000);
    /// match executor.append_rows(&rows, options, |_| {}).await {
    ///     Ok(report) => println!("{} batches committed", report.batches.len()),
    ///     Err(e) => {
    ///         for b in &e.report.batches {
    ///             println!("batch {} rows {:?}: {:?}", b.index, b.rows, b.state);
    ///         }
    ///     }
    /// }
    /// assert_eq!(server.ledger().rows_committed(), 500);
    /// # Ok(()) }
    /// ```
    pub async fn append_rows<T: IcebergTable>(
        &self,
        rows: &[T],
        options: AppendOptions,
        progress: impl FnMut(&AppendProgress),
    ) -> Result<AppendReport, AppendError> {
        // The default partition budget is the target's: Athena's 100 per INSERT.
        let mut insert = T::insert(rows);
        if let Some(bytes) = options.max_batch_bytes {
            insert = insert.max_bytes(bytes);
        }
        let batches = insert.batches_with_rows().map_err(|e| AppendError {
            report: AppendReport {
                load_id: options.load_id.clone(),
                batches: Vec::new(),
            },
            failed_batch: 0,
            error: e.into(),
        })?;
        let batches: Vec<(Option<Vec<usize>>, &Statement)> =
            batches.iter().map(|(r, s)| (Some(r.clone()), s)).collect();
        self.append_batches(&batches, options, progress).await
    }

    /// Appends Arrow record batches to `table` (a definition known at run time, e.g.
    /// from [`iceberg_sql::arrow::table_builder`]): their rows, matched to the table's
    /// columns by name ([`iceberg_sql::arrow::table_rows`]), become `INSERT ... VALUES`
    /// batches run as [`append`](Self::append) runs them, with the same tokens and
    /// digests, so a second run with the same load id and batches writes nothing twice.
    /// The report's row numbers count across `batches`, in order.
    #[cfg(feature = "arrow")]
    #[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
    pub async fn append_record_batches(
        &self,
        table: &iceberg_sql::TableDef,
        batches: &[arrow_array::RecordBatch],
        options: AppendOptions,
        progress: impl FnMut(&AppendProgress),
    ) -> Result<AppendReport, AppendError> {
        let not_started = |e: iceberg_sql::Error| AppendError {
            report: AppendReport {
                load_id: options.load_id.clone(),
                batches: Vec::new(),
            },
            failed_batch: 0,
            error: e.into(),
        };
        let mut rows = Vec::new();
        for b in batches {
            rows.extend(iceberg_sql::arrow::table_rows(b, table).map_err(&not_started)?);
        }
        let mut insert = iceberg_sql::dml::ValuesInsert::new(table, &rows);
        if let Some(bytes) = options.max_batch_bytes {
            insert = insert.max_bytes(bytes);
        }
        let statements = insert
            .batches_with_rows_for(iceberg_sql::Dialect::default())
            .map_err(&not_started)?;
        let statements: Vec<(Option<Vec<usize>>, &Statement)> = statements
            .iter()
            .map(|(r, s)| (Some(r.clone()), s))
            .collect();
        self.append_batches(&statements, options, progress).await
    }

    async fn append_batches(
        &self,
        batches: &[(Option<Vec<usize>>, &Statement)],
        options: AppendOptions,
        mut progress: impl FnMut(&AppendProgress),
    ) -> Result<AppendReport, AppendError> {
        let total = batches.len();
        let mut report = AppendReport {
            load_id: options.load_id.clone(),
            batches: batches
                .iter()
                .enumerate()
                .map(|(i, (rows, s))| BatchReport {
                    index: i,
                    rows: rows.clone(),
                    client_request_token: batch_token(&options.load_id, i),
                    last_token: None,
                    sql_sha256: sql_sha256(s.sql()),
                    query_id: None,
                    state: BatchState::NotSent,
                    outcome: None,
                })
                .collect(),
        };
        if let Some(earlier) = &options.skip {
            if let Err(message) = resume(&mut report, earlier) {
                return Err(AppendError {
                    report,
                    failed_batch: 0,
                    error: Error::InvalidArgument(message),
                });
            }
        }
        let mut done = report.in_state(BatchState::Committed).count();
        for (i, (rows, batch)) in batches.iter().enumerate() {
            if report.batches[i].state == BatchState::Committed {
                continue;
            }
            let token = report.batches[i].client_request_token.clone();
            let result = self
                .execute_with(batch, ExecuteOptions::new().client_request_token(token))
                .await;
            let entry = &mut report.batches[i];
            match result {
                Ok(outcome) => {
                    done += 1;
                    entry.state = BatchState::Committed;
                    entry.last_token = outcome.runs.last().map(|r| r.client_request_token.clone());
                    entry.query_id = Some(outcome.query_id.clone());
                    progress(&AppendProgress {
                        done,
                        total,
                        batch: i,
                        rows: rows.clone(),
                        query_id: outcome.query_id.clone(),
                        stats: outcome.stats,
                    });
                    entry.outcome = Some(outcome);
                }
                // Committed although the call failed (e.g. it succeeded just as the
                // deadline passed): the batch is done.
                Err(error) if error.commit_state() == CommitState::Committed => {
                    done += 1;
                    entry.state = BatchState::Committed;
                    entry.query_id = error.query_id().map(str::to_string);
                    tracing::warn!(batch = i, %error, "batch committed, but its call failed");
                }
                Err(error) => {
                    entry.state = match error.commit_state() {
                        CommitState::Unknown => BatchState::Unknown,
                        _ => BatchState::NotCommitted,
                    };
                    let token = error.client_request_token().map(str::to_string);
                    entry.last_token = if matches!(error, Error::Api(_))
                        && entry.state == BatchState::NotCommitted
                    {
                        // A start Athena refused never ran: the attempt before it is the
                        // chain's last.
                        token.and_then(|t| {
                            let k = chain_position(&entry.client_request_token, &t)?;
                            k.checked_sub(1)
                                .map(|j| attempt_token(&entry.client_request_token, j))
                        })
                    } else {
                        token
                    };
                    entry.query_id = error.query_id().map(str::to_string);
                    return Err(AppendError {
                        report,
                        failed_batch: i,
                        error,
                    });
                }
            }
        }
        Ok(report)
    }
}
