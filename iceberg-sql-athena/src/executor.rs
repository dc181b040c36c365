//! [`AthenaExecutor`]: start, poll, cancel, retry, and read results.

use std::collections::VecDeque;
use std::fmt;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_athena::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};
use aws_sdk_athena::types::{
    EncryptionConfiguration, EncryptionOption, QueryExecution, QueryExecutionContext,
    QueryExecutionState, ResultConfiguration, ResultReuseByAgeConfiguration,
    ResultReuseConfiguration,
};
use aws_sdk_athena::Client;
use futures::stream::{self, Stream, StreamExt, TryStreamExt};
use iceberg_sql::record::{ColumnMeta, Columns, FromRow, Row};
use iceberg_sql::{Statement, StatementKind};
use tracing::{field, Instrument};

use crate::config::ExecutorConfig;
use crate::error::{Error, ErrorCategory, FailureKind, QueryError, QueryState, Result};
use crate::outcome::{QueryOutcome, QueryStats, Run, RunEnd};
use crate::token::{new_client_request_token, random_fraction};

/// Runs [`Statement`]s on Amazon Athena.
///
/// Cheap to clone (the SDK client is reference counted). See the crate docs for an
/// example.
#[derive(Clone)]
pub struct AthenaExecutor {
    client: Client,
    config: Arc<ExecutorConfig>,
}

impl fmt::Debug for AthenaExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AthenaExecutor")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The execution id of the query currently running, shared between the running future,
/// its drop guard and the timeout handler.
#[derive(Clone, Default)]
struct InFlight(Arc<Mutex<Option<String>>>);

impl InFlight {
    fn set(&self, id: &str) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(id.to_string());
        }
    }
    fn take(&self) -> Option<String> {
        self.0.lock().ok().and_then(|mut g| g.take())
    }
}

/// Stops the in-flight query when the future running it is dropped before the query
/// reached a terminal state (cancellation, a lost poll, a panic elsewhere).
struct StopOnDrop {
    client: Client,
    in_flight: InFlight,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let Some(id) = self.in_flight.take() else {
            return;
        };
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => {
                tracing::warn!(query_id = %id, "query abandoned before it finished; sending StopQueryExecution");
                let client = self.client.clone();
                handle.spawn(async move {
                    if let Err(e) = client
                        .stop_query_execution()
                        .query_execution_id(&id)
                        .send()
                        .await
                    {
                        tracing::warn!(query_id = %id, error = %DisplayErrorContext(&e), "StopQueryExecution failed");
                    }
                });
            }
            Err(_) => {
                tracing::warn!(query_id = %id, "query abandoned outside a tokio runtime; it was not stopped");
            }
        }
    }
}

fn api_error<E, R>(
    operation: &'static str,
    err: SdkError<E, R>,
    query_id: Option<&str>,
    sql: Option<&str>,
) -> Error
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
    R: fmt::Debug,
{
    Error::Api {
        operation,
        code: err.code().map(str::to_string),
        message: DisplayErrorContext(&err).to_string(),
        query_id: query_id.map(str::to_string),
        sql: sql.map(str::to_string),
    }
}

fn map_state(state: Option<&QueryExecutionState>) -> QueryState {
    match state {
        Some(QueryExecutionState::Succeeded) => QueryState::Succeeded,
        Some(QueryExecutionState::Failed) => QueryState::Failed,
        Some(QueryExecutionState::Cancelled) => QueryState::Cancelled,
        Some(QueryExecutionState::Queued) => QueryState::Queued,
        // RUNNING, and any state this SDK version does not know: keep polling.
        _ => QueryState::Running,
    }
}

fn query_error(id: &str, sql: &str, state: QueryState, exec: &QueryExecution) -> QueryError {
    let status = exec.status.as_ref();
    let athena = status.and_then(|s| s.athena_error.as_ref());
    QueryError {
        query_id: id.to_string(),
        sql: sql.to_string(),
        state,
        reason: status.and_then(|s| s.state_change_reason.clone()),
        category: athena
            .and_then(|a| a.error_category)
            .map(ErrorCategory::from_code),
        error_type: athena.and_then(|a| a.error_type),
        retryable: athena.is_some_and(|a| a.retryable),
        message: athena.and_then(|a| a.error_message.clone()),
    }
}

impl AthenaExecutor {
    /// An executor over an existing client.
    pub fn new(client: Client, config: ExecutorConfig) -> Self {
        AthenaExecutor {
            client,
            config: Arc::new(config),
        }
    }

    /// An executor with a client built from shared AWS settings.
    pub fn from_sdk_config(sdk_config: &aws_types::SdkConfig, config: ExecutorConfig) -> Self {
        Self::new(Client::new(sdk_config), config)
    }

    /// An executor configured from the environment (credential chain, region,
    /// `AWS_ENDPOINT_URL_ATHENA`, ...) through `aws-config`.
    #[cfg(feature = "aws-config")]
    pub async fn from_env(config: ExecutorConfig) -> Self {
        let sdk = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
        Self::from_sdk_config(&sdk, config)
    }

    /// The SDK client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The settings.
    pub fn config(&self) -> &ExecutorConfig {
        &self.config
    }

    /// Runs `statement` to completion.
    ///
    /// - Starts it with a `ClientRequestToken` made once per submission: the SDK's
    ///   transport retries (throttling, 5xx) resend the same token, so Athena never runs
    ///   one submission twice.
    /// - Sends `ExecutionParameters` when the statement has `?` parameters.
    /// - Polls `GetQueryExecution` on the [`PollConfig`](crate::PollConfig) schedule.
    /// - On a retryable `FAILED` (e.g. `ICEBERG_COMMIT_ERROR`) resubmits with a **fresh**
    ///   token after a jittered backoff, up to [`RetryPolicy`](crate::RetryPolicy).
    /// - Re-runs `ICEBERG_*_MORE_RUNS_NEEDED` maintenance up to
    ///   `max_maintenance_runs`.
    /// - After the overall timeout, sends `StopQueryExecution` and returns
    ///   [`Error::Timeout`]. Dropping the returned future also stops the running query,
    ///   and so does giving up on it because `GetQueryExecution` kept failing after the
    ///   SDK's retries (its outcome could no longer be observed).
    pub async fn execute(&self, statement: &Statement) -> Result<QueryOutcome> {
        let span = tracing::info_span!(
            "athena_query",
            kind = statement.kind().name(),
            query_id = field::Empty,
            attempts = field::Empty,
            state = field::Empty,
            bytes_scanned = field::Empty,
        );
        let in_flight = InFlight::default();
        let run = self
            .execute_inner(statement, in_flight.clone())
            .instrument(span.clone());
        let Some(limit) = self.config.timeout else {
            return run.await;
        };
        let mut run = pin!(run);
        match tokio::time::timeout(limit, &mut run).await {
            Ok(result) => result,
            Err(_) => {
                // Take the id first so the drop guard inside `run` does not stop it again.
                let query_id = in_flight.take();
                let mut stop_sent = false;
                if let Some(id) = &query_id {
                    stop_sent = self.stop(id).await.is_ok();
                }
                span.in_scope(|| {
                    tracing::warn!(?query_id, stop_sent, ?limit, "query timed out");
                });
                Err(Error::Timeout {
                    query_id,
                    sql: statement.sql().to_string(),
                    elapsed: limit,
                    stop_sent,
                })
            }
        }
    }

    async fn execute_inner(
        &self,
        statement: &Statement,
        in_flight: InFlight,
    ) -> Result<QueryOutcome> {
        let _guard = StopOnDrop {
            client: self.client.clone(),
            in_flight: in_flight.clone(),
        };
        let sql = statement.sql();
        let span = tracing::Span::current();
        let mut runs: Vec<Run> = Vec::new();
        let mut total_stats = QueryStats::default();
        let mut resubmits = 0u32;
        let mut maintenance_runs = 0u32;
        loop {
            let token = new_client_request_token();
            let id = self.start(statement, &token).await?;
            in_flight.set(&id);
            span.record("query_id", id.as_str());
            span.record("attempts", runs.len() + 1);
            tracing::info!(query_id = %id, "query started");
            let (state, exec, states) = self.wait(&id, sql).await?;
            in_flight.take();
            span.record("state", field::display(state));
            let stats =
                QueryStats::from_sdk(exec.statistics.as_ref(), self.config.price_per_tb_usd);
            total_stats.add(&stats);
            match state {
                QueryState::Succeeded => {
                    span.record("bytes_scanned", stats.data_scanned_bytes);
                    tracing::info!(
                        query_id = %id,
                        bytes_scanned = stats.data_scanned_bytes,
                        engine_ms = stats.engine_time.as_millis() as u64,
                        queue_ms = stats.queue_time.as_millis() as u64,
                        cost_usd = stats.cost_usd,
                        "query succeeded"
                    );
                    runs.push(Run {
                        query_id: id.clone(),
                        client_request_token: token,
                        states,
                        stats,
                        end: RunEnd::Final,
                    });
                    let substatement_type = exec.substatement_type.clone();
                    let has_header = statement.kind() == StatementKind::Select
                        || substatement_type.as_deref() == Some("SELECT");
                    return Ok(QueryOutcome {
                        query_id: id,
                        state,
                        statement_type: exec
                            .statement_type
                            .as_ref()
                            .map(|t| t.as_str().to_string()),
                        substatement_type,
                        stats,
                        total_stats,
                        runs,
                        has_header,
                        sql: sql.to_string(),
                    });
                }
                QueryState::Cancelled => {
                    let qe = query_error(&id, sql, state, &exec);
                    tracing::warn!(query_id = %id, reason = ?qe.reason, "query cancelled");
                    return Err(Error::Cancelled(Box::new(qe)));
                }
                _ => {
                    let qe = query_error(&id, sql, QueryState::Failed, &exec);
                    if qe.needs_more_runs() {
                        maintenance_runs += 1;
                        if maintenance_runs >= self.config.max_maintenance_runs {
                            return Err(Error::MoreRunsExhausted {
                                kind: qe.kind(),
                                runs: maintenance_runs,
                                query_id: id,
                                sql: sql.to_string(),
                            });
                        }
                        tracing::info!(query_id = %id, run = maintenance_runs, "more runs needed; running again");
                        runs.push(Run {
                            query_id: id,
                            client_request_token: token,
                            states,
                            stats,
                            end: RunEnd::MoreRunsNeeded(qe),
                        });
                        continue;
                    }
                    if qe.is_retryable() && resubmits < self.config.retry.max_resubmits {
                        resubmits += 1;
                        let cap = self.config.retry.backoff_cap(resubmits);
                        // "Equal jitter": half fixed, half random, so a retry never fires at once.
                        let jitter = Duration::try_from_secs_f64(
                            cap.as_secs_f64() * random_fraction() / 2.0,
                        )
                        .unwrap_or_default();
                        let delay = (cap / 2).saturating_add(jitter);
                        tracing::warn!(
                            query_id = %id,
                            kind = ?qe.kind(),
                            reason = ?qe.reason,
                            resubmit = resubmits,
                            delay_ms = delay.as_millis() as u64,
                            "query failed with a retryable error; resubmitting with a fresh token"
                        );
                        runs.push(Run {
                            query_id: id,
                            client_request_token: token,
                            states,
                            stats,
                            end: RunEnd::Resubmitted(qe),
                        });
                        tokio::time::sleep(delay).await;
                        continue;
                    }
                    tracing::warn!(query_id = %id, kind = ?qe.kind(), reason = ?qe.reason, "query failed");
                    return Err(Error::Failed(Box::new(qe)));
                }
            }
        }
    }

    async fn start(&self, statement: &Statement, token: &str) -> Result<String> {
        let c = &self.config;
        let mut req = self
            .client
            .start_query_execution()
            .query_string(statement.sql())
            .client_request_token(token)
            .set_work_group(c.work_group.clone());
        if c.database.is_some() || c.catalog.is_some() {
            req = req.query_execution_context(
                QueryExecutionContext::builder()
                    .set_database(c.database.clone())
                    .set_catalog(c.catalog.clone())
                    .build(),
            );
        }
        if c.output_location.is_some()
            || c.encryption.is_some()
            || c.expected_bucket_owner.is_some()
        {
            let encryption = match &c.encryption {
                None => None,
                Some(e) => {
                    let (option, key) = match e {
                        crate::Encryption::SseS3 => (EncryptionOption::SseS3, None),
                        crate::Encryption::SseKms { kms_key } => {
                            (EncryptionOption::SseKms, Some(kms_key.clone()))
                        }
                        crate::Encryption::CseKms { kms_key } => {
                            (EncryptionOption::CseKms, Some(kms_key.clone()))
                        }
                    };
                    Some(
                        EncryptionConfiguration::builder()
                            .encryption_option(option)
                            .set_kms_key(key)
                            .build()
                            .map_err(|e| Error::InvalidArgument(format!("encryption: {e}")))?,
                    )
                }
            };
            req = req.result_configuration(
                ResultConfiguration::builder()
                    .set_output_location(c.output_location.clone())
                    .set_encryption_configuration(encryption)
                    .set_expected_bucket_owner(c.expected_bucket_owner.clone())
                    .build(),
            );
        }
        if !statement.params().is_empty() {
            req = req.set_execution_parameters(Some(statement.params().to_vec()));
        }
        if let (StatementKind::Select, Some(minutes)) =
            (statement.kind(), c.result_reuse_max_age_minutes)
        {
            req = req.result_reuse_configuration(
                ResultReuseConfiguration::builder()
                    .result_reuse_by_age_configuration(
                        ResultReuseByAgeConfiguration::builder()
                            .enabled(true)
                            .max_age_in_minutes(minutes)
                            .build(),
                    )
                    .build(),
            );
        }
        let out = req
            .send()
            .await
            .map_err(|e| api_error("StartQueryExecution", e, None, Some(statement.sql())))?;
        out.query_execution_id.ok_or(Error::Protocol {
            operation: "StartQueryExecution",
            message: "no QueryExecutionId in the response".into(),
        })
    }

    /// Polls until the query reaches a terminal state.
    async fn wait(
        &self,
        id: &str,
        sql: &str,
    ) -> Result<(QueryState, QueryExecution, Vec<QueryState>)> {
        let mut delays = self.config.poll.delays();
        let mut last: Option<QueryState> = None;
        let mut states = Vec::new();
        let mut polls = 0u32;
        loop {
            let delay = delays.next().unwrap_or(self.config.poll.max);
            tokio::time::sleep(delay).await;
            polls += 1;
            let out = self
                .client
                .get_query_execution()
                .query_execution_id(id)
                .send()
                .await
                .map_err(|e| api_error("GetQueryExecution", e, Some(id), Some(sql)))?;
            let Some(exec) = out.query_execution else {
                return Err(Error::Protocol {
                    operation: "GetQueryExecution",
                    message: format!("no QueryExecution for {id}"),
                });
            };
            let state = map_state(exec.status.as_ref().and_then(|s| s.state.as_ref()));
            if last != Some(state) {
                tracing::debug!(query_id = %id, %state, polls, "state changed");
                last = Some(state);
                states.push(state);
            }
            if state.is_terminal() {
                return Ok((state, exec, states));
            }
        }
    }

    /// Sends `StopQueryExecution`.
    pub async fn stop(&self, query_id: &str) -> Result<()> {
        self.client
            .stop_query_execution()
            .query_execution_id(query_id)
            .send()
            .await
            .map_err(|e| api_error("StopQueryExecution", e, Some(query_id), None))?;
        Ok(())
    }

    /// The rows of a finished query, page by page (`GetQueryResults`, `page_size` rows
    /// per call), as a stream. The header row of a `SELECT` is skipped (first page
    /// only).
    pub fn rows(&self, outcome: &QueryOutcome) -> impl Stream<Item = Result<Row>> + Send + 'static {
        self.rows_by_id(&outcome.query_id, outcome.has_header)
    }

    /// Like [`rows`](Self::rows) for a query id; `has_header` says whether the first row
    /// of the first page holds column labels (true for `SELECT`, false for DDL/SHOW).
    pub fn rows_by_id(
        &self,
        query_id: &str,
        has_header: bool,
    ) -> impl Stream<Item = Result<Row>> + Send + 'static {
        struct Pager {
            client: Client,
            id: String,
            page_size: i32,
            next_token: Option<String>,
            first: bool,
            done: bool,
            has_header: bool,
            columns: Option<Arc<Columns>>,
        }
        let pager = Pager {
            client: self.client.clone(),
            id: query_id.to_string(),
            page_size: self.config.page_size.clamp(1, 1000),
            next_token: None,
            first: true,
            done: false,
            has_header,
            columns: None,
        };
        stream::try_unfold(pager, |mut p| async move {
            if p.done {
                return Ok::<_, Error>(None);
            }
            let out = p
                .client
                .get_query_results()
                .query_execution_id(&p.id)
                .max_results(p.page_size)
                .set_next_token(p.next_token.take())
                .send()
                .await
                .map_err(|e| api_error("GetQueryResults", e, Some(&p.id), None))?;
            p.next_token = out.next_token;
            p.done = p.next_token.is_none();
            let result_set = out
                .result_set
                .unwrap_or_else(|| aws_sdk_athena::types::ResultSet::builder().build());
            let skip_header = p.first && p.has_header;
            p.first = false;
            let page: VecDeque<Result<Row>> =
                rows_from_result_set(result_set, &mut p.columns, skip_header)
                    .into_iter()
                    .map(Ok)
                    .collect();
            Ok(Some((stream::iter(page), p)))
        })
        .try_flatten()
    }

    /// The rows of a finished query decoded into `T`: any [`FromRow`] type (a table
    /// record, a `#[derive(FromRow)]` projection, a tuple, [`Row`]).
    pub fn decode<T: FromRow + Send + 'static>(
        &self,
        outcome: &QueryOutcome,
    ) -> impl Stream<Item = Result<T>> + Send + 'static {
        let id = outcome.query_id.clone();
        self.rows(outcome).enumerate().map(move |(n, r)| {
            r.and_then(|row| {
                T::from_row_owned(row).map_err(|source| Error::Decode {
                    query_id: id.clone(),
                    row: n as u64,
                    source: Box::new(source),
                })
            })
        })
    }

    /// Runs `statement` and collects its rows decoded into `T`.
    pub async fn query<T: FromRow + Send + 'static>(
        &self,
        statement: &Statement,
    ) -> Result<Vec<T>> {
        let outcome = self.execute(statement).await?;
        self.decode::<T>(&outcome).try_collect().await
    }
}

/// Turns one `GetQueryResults` page into [`Row`]s (moving the cell strings, no copies).
///
/// `columns` holds the result's columns: taken from this page's metadata when it is
/// `None` (the first page), reused otherwise. With `skip_header`, the first row (the
/// column labels Athena puts at the top of a `SELECT`'s first page) is dropped. This is
/// what [`AthenaExecutor::rows`] does per page; it is public for callers that page
/// themselves.
pub fn rows_from_result_set(
    result_set: aws_sdk_athena::types::ResultSet,
    columns: &mut Option<Arc<Columns>>,
    skip_header: bool,
) -> Vec<Row> {
    let cols = match columns {
        Some(c) => c.clone(),
        None => {
            let meta = result_set
                .result_set_metadata
                .and_then(|m| m.column_info)
                .unwrap_or_default()
                .into_iter()
                .map(|c| {
                    let nullable = c.nullable.as_ref().and_then(|n| match n.as_str() {
                        "NULLABLE" => Some(true),
                        "NOT_NULL" => Some(false),
                        _ => None,
                    });
                    // 0 means "not given" in the SDK's ColumnInfo.
                    let size = |n: i32| u32::try_from(n).ok().filter(|n| *n > 0);
                    ColumnMeta::new(c.name, c.r#type)
                        .with_nullable(nullable)
                        .with_precision_scale(size(c.precision), size(c.scale))
                })
                .collect();
            let c = Arc::new(Columns::new(meta));
            *columns = Some(c.clone());
            c
        }
    };
    let rows = result_set.rows.unwrap_or_default();
    let skip = usize::from(skip_header && !rows.is_empty());
    rows.into_iter()
        .skip(skip)
        .map(|r| {
            let cells = r
                .data
                .unwrap_or_default()
                .into_iter()
                .map(|d| d.var_char_value)
                .collect();
            Row::new(cols.clone(), cells)
        })
        .collect()
}

impl FailureKind {
    /// Whether the failure is one of the maintenance "run again" answers.
    pub fn is_more_runs_needed(self) -> bool {
        matches!(
            self,
            FailureKind::OptimizeMoreRunsNeeded | FailureKind::VacuumMoreRunsNeeded
        )
    }
}
