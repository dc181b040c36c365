//! [`AthenaExecutor`]: start, observe, stop and resubmit statements.
//!
//! One statement's life: `StartQueryExecution` with a `ClientRequestToken`; when the
//! answer is lost (the SDK gave up on 5xx, timeouts, connection errors, throttling)
//! the same token is sent again until Athena answers, which returns the execution it
//! may already have created instead of a second one. Then `GetQueryExecution` until a
//! terminal state; failed polls are retried with backoff until the deadline, never
//! answered by stopping the query. A retryable failure that committed nothing is
//! resubmitted with a new (derived) token when the statement kind allows it.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_athena::config::interceptors::FinalizerInterceptorContextRef;
use aws_sdk_athena::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_athena::operation::start_query_execution::builders::StartQueryExecutionFluentBuilder;
use aws_sdk_athena::types::{
    EncryptionConfiguration, EncryptionOption, QueryExecution, QueryExecutionContext,
    QueryExecutionState, ResultConfiguration, ResultReuseByAgeConfiguration,
    ResultReuseConfiguration,
};
use aws_sdk_athena::Client;
use futures::future::{self, BoxFuture};
use iceberg_sql::{Statement, StatementKind};
use tokio::sync::Notify;
use tokio::time::Instant;
use tracing::{field, Instrument};

use crate::api_error::{api_error, Ctx};
use crate::config::{ExecutorConfig, Resubmit};
use crate::error::{
    ApiError, ApiErrorClass, CommitState, Error, ErrorCategory, FailureKind, QueryError,
    QueryState, Result,
};
use crate::outcome::{QueryOutcome, QueryStats, Run, RunEnd};
use crate::results::writes_rows;
use crate::submission::{Submission, UncheckedSql};
use crate::token::{attempt_token, new_client_request_token};

/// Runs [`Statement`]s on Amazon Athena.
///
/// Cheap to clone (the SDK client is reference counted). See the crate docs for an
/// example.
#[derive(Clone)]
pub struct AthenaExecutor {
    client: Client,
    config: Arc<ExecutorConfig>,
    before_resubmit: Option<Arc<dyn BeforeResubmit>>,
    answered: Arc<AnsweredTokens>,
}

/// The tokens this executor (and its clones) got an execution for, and which: a later
/// call answered through one of them knows the execution is an earlier call's, even
/// within the second that Athena's `Date` header cannot split. Bounded: the oldest
/// are forgotten first (then the `Date` check alone decides).
#[derive(Debug, Default)]
struct AnsweredTokens(Mutex<(HashMap<String, String>, VecDeque<String>)>);

impl AnsweredTokens {
    const CAPACITY: usize = 100_000;

    fn get(&self, token: &str) -> Option<String> {
        self.0.lock().ok()?.0.get(token).cloned()
    }

    fn insert(&self, token: &str, id: &str) {
        let Ok(mut guard) = self.0.lock() else { return };
        let (map, order) = &mut *guard;
        if map.insert(token.to_string(), id.to_string()).is_none() {
            order.push_back(token.to_string());
        }
        while order.len() > Self::CAPACITY {
            if let Some(old) = order.pop_front() {
                map.remove(&old);
            }
        }
    }
}

impl fmt::Debug for AthenaExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AthenaExecutor")
            .field("config", &self.config)
            .field("before_resubmit", &self.before_resubmit.is_some())
            .finish_non_exhaustive()
    }
}

/// Cleanup that must run before a failed `CREATE TABLE AS` or `UNLOAD` is resubmitted
/// (see [`Resubmit::AfterCleanup`]): drop the partial table and empty its location,
/// empty the UNLOAD prefix. The executor cannot see S3, so the caller provides it.
///
/// Returning an error stops the retry: [`Error::Cleanup`] carries both errors.
///
/// ```no_run
/// use std::sync::Arc;
/// use futures::future::BoxFuture;
/// use iceberg_sql::prelude::*;
/// use iceberg_sql_athena::{AthenaExecutor, BeforeResubmit, QueryError, Result};
///
/// /// Before a CTAS into `analytics.daily` is retried, drop what the failed one left.
/// struct DropPartialTable;
///
/// impl BeforeResubmit for DropPartialTable {
///     fn before_resubmit<'a>(
///         &'a self,
///         executor: &'a AthenaExecutor,
///         _statement: &'a Statement,
///         _failure: &'a QueryError,
///     ) -> BoxFuture<'a, Result<()>> {
///         Box::pin(async move {
///             let drop = TableName::new("analytics", "daily")
///                 .drop_table()
///                 .if_exists()
///                 .build()?;
///             executor.execute(&drop).await?;
///             // ... and delete the objects under the table's location with your S3 client.
///             Ok(())
///         })
///     }
/// }
/// # fn wire(executor: AthenaExecutor) -> AthenaExecutor {
/// executor.before_resubmit(Arc::new(DropPartialTable))
/// # }
/// ```
pub trait BeforeResubmit: Send + Sync {
    /// Cleans up after `failure` of `statement`; the statement is resubmitted only when
    /// this returns `Ok`.
    fn before_resubmit<'a>(
        &'a self,
        executor: &'a AthenaExecutor,
        statement: &'a Statement,
        failure: &'a QueryError,
    ) -> BoxFuture<'a, Result<()>>;
}

/// Stops a running [`AthenaExecutor::execute_with`] call from elsewhere.
///
/// `cancel()` sends `StopQueryExecution` for the query running under the call (or the
/// next one it starts) and the call keeps observing it to its final state: usually
/// [`Error::Cancelled`]; a query that finished before the stop took effect returns its
/// real outcome (`Ok` for a success).
#[derive(Debug, Clone, Default)]
pub struct CancelHandle(Arc<CancelInner>);

#[derive(Debug, Default)]
struct CancelInner {
    cancelled: AtomicBool,
    notify: Notify,
}

impl CancelHandle {
    /// A handle not cancelled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the call to stop its query.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        self.0.notify.notify_waiters();
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    async fn cancelled(&self) {
        loop {
            let notified = self.0.notify.notified();
            let mut notified = pin!(notified);
            notified.as_mut().enable();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// Options of one [`AthenaExecutor::execute_with`] call.
///
/// ```
/// use iceberg_sql_athena::{CancelHandle, ExecuteOptions};
///
/// let cancel = CancelHandle::new();
/// let options = ExecuteOptions::new()
///     .client_request_token("nightly-load-2024-05-01-step-03-0000000000")
///     .cancel_handle(&cancel);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct ExecuteOptions {
    client_request_token: Option<String>,
    cancel: Option<CancelHandle>,
}

impl ExecuteOptions {
    /// A random token, no cancel handle.
    pub fn new() -> Self {
        Self::default()
    }

    /// The `ClientRequestToken` of the first attempt (32-128 characters). Athena
    /// answers a token it has seen with the execution it created for it, so calling
    /// again with the token of an [`Error::outcome_unknown`] error resolves it: the
    /// existing query is observed to its end (and resubmissions use tokens derived
    /// from this one, so they are found again too).
    pub fn client_request_token(mut self, token: impl Into<String>) -> Self {
        self.client_request_token = Some(token.into());
        self
    }

    /// Lets `handle.cancel()` stop the call's query.
    pub fn cancel_handle(mut self, handle: &CancelHandle) -> Self {
        self.cancel = Some(handle.clone());
        self
    }
}

/// What the call has in flight, shared between the call and its drop guard.
#[derive(Clone, Default)]
struct InFlight(Arc<Mutex<Flight>>);

#[derive(Default)]
enum Flight {
    /// Nothing to stop.
    #[default]
    Idle,
    /// `StartQueryExecution` is being sent (it may create the query while its answer is
    /// still on the way): the request, to find the execution by its token.
    Starting(Box<StartQueryExecutionFluentBuilder>),
    /// The execution being observed.
    Running(String),
}

impl InFlight {
    fn set(&self, flight: Flight) {
        if let Ok(mut g) = self.0.lock() {
            *g = flight;
        }
    }
    fn take(&self) -> Flight {
        self.0
            .lock()
            .map(|mut g| std::mem::take(&mut *g))
            .unwrap_or_default()
    }
}

/// Stops the call's query when the future running it is dropped before the query
/// reached a terminal state (the caller gave up on it). Armed before
/// `StartQueryExecution` is sent: a start whose answer had not come yet is sent again
/// with the same token, which finds the execution if the first one created it (or
/// creates it, to be stopped at once), and that execution is stopped. The stop runs as
/// a task on the current tokio runtime, with a few retries; outside a runtime it cannot
/// be sent and is logged.
struct StopOnDrop {
    client: Client,
    in_flight: InFlight,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        let flight = self.in_flight.take();
        if matches!(flight, Flight::Idle) {
            return;
        }
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            tracing::warn!("query abandoned outside a tokio runtime; it was not stopped");
            return;
        };
        let client = self.client.clone();
        handle.spawn(async move {
            let id = match flight {
                Flight::Running(id) => id,
                Flight::Starting(start) => {
                    tracing::warn!("call abandoned while StartQueryExecution was in flight; finding its query by the token to stop it");
                    match resend_start(&start).await {
                        Some(id) => id,
                        None => return,
                    }
                }
                Flight::Idle => return,
            };
            tracing::warn!(query_id = %id, "query abandoned before it finished; sending StopQueryExecution");
            for attempt in 1..=3u32 {
                match client
                    .stop_query_execution()
                    .query_execution_id(&id)
                    .send()
                    .await
                {
                    Ok(_) => return,
                    Err(e) => {
                        let e = api_error(
                            "StopQueryExecution",
                            e,
                            Ctx::query(&id, CommitState::Unknown),
                        );
                        tracing::warn!(query_id = %id, attempt, error = %e, "StopQueryExecution failed");
                        if !e.is_retryable() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt))).await;
                    }
                }
            }
        });
    }
}

/// Sends an abandoned start again (same token: the execution it may have created), a
/// few times; its execution id.
async fn resend_start(start: &StartQueryExecutionFluentBuilder) -> Option<String> {
    for attempt in 1..=3u32 {
        match start.clone().send().await {
            Ok(out) => return out.query_execution_id,
            Err(e) => {
                let e = api_error("StartQueryExecution", e, Ctx::default());
                tracing::warn!(attempt, error = %e, "finding the abandoned query by its token failed");
                if !e.is_retryable() {
                    return None;
                }
                tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt))).await;
            }
        }
    }
    None
}

/// What the HTTP attempts of one `StartQueryExecution` saw: the SDK retries inside one
/// call, and an attempt it retried may have created the query.
#[derive(Debug, Default)]
struct Attempts {
    /// Per attempt: the HTTP status, or `None` when no answer came.
    statuses: Vec<Option<u16>>,
    /// The `Date` header of the last answer: Athena's clock.
    date: Option<aws_sdk_athena::primitives::DateTime>,
}

/// Records [`Attempts`] (an SDK interceptor on one call).
#[derive(Debug, Clone, Default)]
struct AttemptLog(Arc<Mutex<Attempts>>);

impl Intercept for AttemptLog {
    fn name(&self) -> &'static str {
        "iceberg_sql_athena::AttemptLog"
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> std::result::Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let response = context.response();
        let date = response
            .and_then(|r| r.headers().get("date"))
            .and_then(|d| {
                aws_sdk_athena::primitives::DateTime::from_str(
                    d,
                    aws_sdk_athena::primitives::DateTimeFormat::HttpDate,
                )
                .ok()
            });
        if let Ok(mut a) = self.0.lock() {
            a.statuses.push(response.map(|r| r.status().as_u16()));
            if date.is_some() {
                a.date = date;
            }
        }
        Ok(())
    }
}

impl AttemptLog {
    /// Whether an attempt may have created the query: one without an answer, or
    /// answered with a 5xx (a throttling 4xx had no effect).
    fn maybe_created(&self) -> bool {
        self.0
            .lock()
            .is_ok_and(|a| a.statuses.iter().any(|s| s.is_none_or(|code| code >= 500)))
    }

    fn date(&self) -> Option<aws_sdk_athena::primitives::DateTime> {
        self.0.lock().ok().and_then(|a| a.date)
    }
}

/// Seconds by which two of Athena's own hosts (the one stamping `SubmissionDateTime`,
/// the one answering with `Date`) may disagree.
const ATHENA_CLOCK_SPREAD: f64 = 0.1;

/// A started (or found) execution, with what tells whether it is this call's.
struct Started {
    id: String,
    /// The `Date` of the answer that named it (Athena's clock).
    athena_date: Option<aws_sdk_athena::primitives::DateTime>,
    /// Time from this call's first `StartQueryExecution` with the token to that answer.
    elapsed: Duration,
    /// The execution an earlier call of this executor got for the token, if any.
    answered_before: Option<String>,
}

impl Started {
    /// Whether `exec` existed before this call first sent its token: its
    /// `SubmissionDateTime` is earlier than the answer's `Date` less the time the call
    /// took (and [`ATHENA_CLOCK_SPREAD`]). Both are Athena's clock; the local clock only
    /// measures the elapsed time. `Date` has whole seconds and is rounded down, so an
    /// execution created by this call is never taken for an earlier one; an earlier
    /// one is recognised once it is about a second older than the call. Unknown (no
    /// date) counts as this call's. An execution an earlier call of this executor got
    /// for the token is an earlier one, whatever the clocks say.
    fn created_before_call(&self, exec: &QueryExecution) -> bool {
        if self.answered_before.as_deref() == Some(self.id.as_str()) {
            return true;
        }
        let submitted = exec
            .status
            .as_ref()
            .and_then(|s| s.submission_date_time.as_ref());
        match (submitted, self.athena_date) {
            (Some(submitted), Some(date)) => {
                submitted.as_secs_f64() + self.elapsed.as_secs_f64() + ATHENA_CLOCK_SPREAD
                    < date.as_secs_f64()
            }
            _ => false,
        }
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

fn query_error(
    id: &str,
    sub: &Submission<'_>,
    token: &str,
    state: QueryState,
    exec: &QueryExecution,
) -> QueryError {
    let status = exec.status.as_ref();
    let athena = status.and_then(|s| s.athena_error.as_ref());
    QueryError {
        query_id: id.to_string(),
        sql: sub.sql.to_string(),
        state,
        reason: status.and_then(|s| s.state_change_reason.clone()),
        category: athena
            .and_then(|a| a.error_category)
            .map(ErrorCategory::from_code),
        error_type: athena.and_then(|a| a.error_type),
        retryable: athena.is_some_and(|a| a.retryable),
        message: athena.and_then(|a| a.error_message.clone()),
        statement_kind: sub.kind,
        client_request_token: Some(token.to_string()),
        evidence: None,
    }
}

/// Why the observed query is being stopped.
#[derive(Clone, Copy, PartialEq)]
enum Stopping {
    /// The deadline passed; the final state is awaited until `grace_end`.
    Timeout { grace_end: Instant, stop_sent: bool },
    /// `CancelHandle::cancel`.
    Cancel,
}

/// A query observed to its terminal state.
struct Observed {
    id: String,
    exec: QueryExecution,
    state: QueryState,
    states: Vec<QueryState>,
    /// Whether the execution was created before this call sent its token (an earlier
    /// call's attempt answered for the token): see [`Started::created_before_call`].
    earlier_call: bool,
}

/// The outcome of a statement whose last run is `runs`' last, ended in `state`.
fn outcome_of(
    exec: &QueryExecution,
    state: QueryState,
    kind: Option<StatementKind>,
    sql: &str,
    runs: Vec<Run>,
    total_stats: QueryStats,
) -> QueryOutcome {
    let last = runs.last();
    let substatement_type = exec.substatement_type.clone();
    QueryOutcome {
        query_id: last.map(|r| r.query_id.clone()).unwrap_or_default(),
        state,
        statement_type: exec.statement_type.as_ref().map(|t| t.as_str().to_string()),
        has_header: kind == Some(StatementKind::Select)
            || substatement_type.as_deref() == Some("SELECT"),
        substatement_type,
        stats: last.map(|r| r.stats).unwrap_or_default(),
        total_stats,
        runs,
        sql: sql.to_string(),
        rows_affected: None,
        output_location: exec
            .result_configuration
            .as_ref()
            .and_then(|r| r.output_location.clone()),
        data_manifest_location: exec
            .statistics
            .as_ref()
            .and_then(|s| s.data_manifest_location.clone()),
        evidence: None,
    }
}

/// How many earlier calls' finished executions one call may walk through (a re-run
/// answering earlier attempts' tokens) besides its resubmission budget.
const MAX_REPLAYED_ATTEMPTS: u32 = 64;

fn remaining(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

impl AthenaExecutor {
    /// An executor over an existing client: `aws_sdk_athena::Client::new(&sdk_config)`,
    /// or one with settings of your own (endpoint, retries, timeouts), here one for
    /// the in-process Athena test server.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// let server = TestServer::start(ServerConfig::new()).await?;
    /// let executor = AthenaExecutor::new(
    ///     server.client(),
    ///     ExecutorConfig::default()
    ///         .work_group("analytics-v3")
    ///         .output_location("s3://my-athena-results/iceberg-sql/")
    ///         .timeout(std::time::Duration::from_secs(600)),
    /// );
    /// assert_eq!(executor.config().work_group.as_deref(), Some("analytics-v3"));
    /// # Ok(()) }
    /// ```
    pub fn new(client: Client, config: ExecutorConfig) -> Self {
        AthenaExecutor {
            client,
            config: Arc::new(config),
            before_resubmit: None,
            answered: Arc::default(),
        }
    }

    /// An executor with a client built from shared AWS settings (an
    /// `aws_types::SdkConfig`, usually from `aws_config::load_defaults`: see
    /// `from_env`, feature `aws-config`). Here the settings are written out by hand to
    /// point at the in-process test server.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// use aws_sdk_athena::config::{BehaviorVersion, Credentials, Region, SharedCredentialsProvider};
    ///
    /// let sdk_config = aws_types::SdkConfig::builder()
    ///     .behavior_version(BehaviorVersion::latest())
    ///     .region(Region::new("eu-west-1"))
    ///     .credentials_provider(SharedCredentialsProvider::new(
    ///         Credentials::new("AKIDEXAMPLE", "example-secret", None, None, "example")))
    ///     .endpoint_url(server.endpoint())
    ///     .build();
    /// let executor = AthenaExecutor::from_sdk_config(&sdk_config, ExecutorConfig::default());
    /// let outcome = executor.execute_unchecked(&UncheckedSql::new("SELECT 1")?).await?;
    /// assert_eq!(outcome.state, QueryState::Succeeded);
    /// # Ok(()) }
    /// ```
    pub fn from_sdk_config(sdk_config: &aws_types::SdkConfig, config: ExecutorConfig) -> Self {
        Self::new(Client::new(sdk_config), config)
    }

    /// An executor configured from the environment through `aws-config` (feature
    /// `aws-config`): the default credential chain (environment, profile, SSO, web
    /// identity, instance role), `AWS_REGION` / the profile's region, and
    /// `AWS_ENDPOINT_URL_ATHENA` when set. The same as
    /// [`from_sdk_config`](Self::from_sdk_config) with
    /// `aws_config::load_defaults(BehaviorVersion::latest())`.
    ///
    /// `no_run`: it needs AWS credentials; the `from_sdk_config` example runs the same
    /// calls against the test server.
    ///
    /// ```no_run
    /// use iceberg_sql_athena::{AthenaExecutor, ExecutorConfig};
    ///
    /// # async fn run() {
    /// let executor = AthenaExecutor::from_env(
    ///     ExecutorConfig::default()
    ///         .work_group("analytics-v3")
    ///         .output_location("s3://my-athena-results/iceberg-sql/"),
    /// )
    /// .await;
    /// # let _ = executor;
    /// # }
    /// ```
    #[cfg(feature = "aws-config")]
    #[cfg_attr(docsrs, doc(cfg(feature = "aws-config")))]
    pub async fn from_env(config: ExecutorConfig) -> Self {
        let sdk = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
        Self::from_sdk_config(&sdk, config)
    }

    /// Sets the cleanup that runs before a failed CTAS or UNLOAD is resubmitted
    /// (without one they are never resubmitted).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// use std::sync::Arc;
    /// use futures::future::BoxFuture;
    ///
    /// /// Drops the half-made table and empties its location before a CTAS runs again.
    /// struct CleanUp;
    /// impl BeforeResubmit for CleanUp {
    ///     fn before_resubmit<'a>(
    ///         &'a self,
    ///         executor: &'a AthenaExecutor,
    ///         statement: &'a Statement,
    ///         failure: &'a QueryError,
    ///     ) -> BoxFuture<'a, iceberg_sql_athena::Result<()>> {
    ///         Box::pin(async move {
    ///             println!("cleaning up after {} ({})", failure.query_id, statement.kind().name());
    ///             // executor.execute(&drop_table).await?; then delete the S3 prefix
    ///             let _ = executor;
    ///             Ok(())
    ///         })
    ///     }
    /// }
    ///
    /// let executor = AthenaExecutor::new(server.client(), ExecutorConfig::default())
    ///     .before_resubmit(Arc::new(CleanUp));
    /// # let _ = executor;
    /// # Ok(()) }
    /// ```
    pub fn before_resubmit(mut self, hook: Arc<dyn BeforeResubmit>) -> Self {
        self.before_resubmit = Some(hook);
        self
    }

    /// The SDK client.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The settings.
    pub fn config(&self) -> &ExecutorConfig {
        &self.config
    }

    /// Runs `statement` to completion with a new random `ClientRequestToken`
    /// ([`execute_with`](Self::execute_with) with default options). The outcome says
    /// what ran: the query id, statistics and cost, every run, the rows a write
    /// changed (`rows_affected`, Athena's `UpdateCount`) and where the result is.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("DELETE", |_| Plan::succeed().substatement("DELETE").update_count(2)))).await?;
    /// # let executor = AthenaExecutor::new(server.client(), ExecutorConfig::default()
    /// #     .output_location("s3://my-athena-results/")
    /// #     .poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// #[derive(IcebergTable, Debug, Clone)]
    /// #[iceberg(database = "analytics", name = "mcp_events",
    ///           location = "s3://my-datalake/iceberg/mcp_events/")]
    /// struct McpEvent { event_id: String, user_id: String }
    ///
    /// let forget = McpEvent::delete().filter(McpEvent::USER_ID.eq("u-42")).build()?;
    /// let outcome = executor.execute(&forget).await?;
    /// assert_eq!(outcome.rows_affected, Some(2));
    /// assert_eq!(outcome.output_location,
    ///            Some(format!("s3://my-athena-results/{}.csv", outcome.query_id)));
    /// println!("{} ran {} time(s), ${:.6}", outcome.query_id, outcome.attempts(),
    ///          outcome.total_stats.cost_usd);
    /// # Ok(()) }
    /// ```
    pub async fn execute(&self, statement: &Statement) -> Result<QueryOutcome> {
        self.execute_with(statement, ExecuteOptions::new()).await
    }

    /// Runs `statement` to completion.
    ///
    /// - **Start**: `StartQueryExecution` with the options' token (or a random one),
    ///   `ExecutionParameters` when the statement has `?` parameters. When the SDK
    ///   gives up (throttling, 5xx, timeout, connection error), the same token is sent
    ///   again with [`Backoff`](crate::Backoff) until Athena answers or the deadline
    ///   passes: Athena returns the execution it may already have created, never a
    ///   second one.
    /// - **Observe**: `GetQueryExecution` on the [`PollConfig`](crate::PollConfig)
    ///   schedule. Throttled or failed polls are retried with backoff until the
    ///   deadline; a query is never stopped because it could not be observed (the
    ///   error then says its outcome is unknown).
    /// - **Stop** only: when the deadline passes (then its final state is awaited for
    ///   `stop_grace`, so [`Error::Timeout`] says whether it committed), on
    ///   [`CancelHandle::cancel`], or when this future is dropped while a query runs
    ///   (a task on the current tokio runtime sends the stop).
    /// - **Resubmit** a `FAILED` query that is retryable and committed nothing, when the
    ///   statement kind allows it ([`Resubmit::for_kind`]), with a new token derived
    ///   from the first, after a jittered backoff, up to
    ///   [`RetryPolicy::max_resubmits`](crate::RetryPolicy) times.
    /// - **Maintenance**: `ICEBERG_*_MORE_RUNS_NEEDED` runs the statement again, up to
    ///   `max_maintenance_runs`; for `OPTIMIZE`/`VACUUM` the timeout bounds each run
    ///   and `maintenance_deadline` all of them. A failure after completed runs is
    ///   [`Error::MaintenanceIncomplete`] with those runs.
    ///
    /// Every error says what is known about the commit ([`Error::commit_state`]).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// # let statement = TableName::new("analytics", "mcp_events").show_create_table().build()?;
    /// match executor.execute(&statement).await {
    ///     Ok(outcome) => println!("done: {}", outcome.query_id),
    ///     Err(e) if e.outcome_unknown() => {
    ///         // Resolve it: the same token finds the execution Athena has.
    ///         let token = e.client_request_token().expect("unknown outcomes carry it");
    ///         let options = ExecuteOptions::new().client_request_token(token);
    ///         executor.execute_with(&statement, options).await?;
    ///     }
    ///     Err(e) => return Err(e.into()),
    /// }
    /// // Cancel from elsewhere: the query is stopped and the call returns.
    /// let cancel = CancelHandle::new();
    /// let options = ExecuteOptions::new().cancel_handle(&cancel);
    /// let outcome = executor.execute_with(&statement, options).await?;
    /// # let _ = outcome;
    /// # Ok(()) }
    /// ```
    pub async fn execute_with(
        &self,
        statement: &Statement,
        options: ExecuteOptions,
    ) -> Result<QueryOutcome> {
        self.submit(Submission::statement(statement), options).await
    }

    /// Runs SQL that no builder made ([`UncheckedSql`]) to completion, like
    /// [`execute`](Self::execute): same start with an idempotency token, polling,
    /// timeout, cancel and stop on drop, but a `FAILED` query is never resubmitted (the
    /// executor cannot know whether running unknown text again is safe). Its rows are
    /// read with [`decode`](Self::decode) or [`rows`](Self::rows).
    ///
    /// The name says it: nothing checked the text. Prefer a builder wherever one
    /// exists.
    ///
    /// ```
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SHOW VIEWS", |_| Plan::rows(ResultSet {
    /// #         columns: vec![("views".into(), "varchar".into())],
    /// #         rows: vec![vec![Some("calls_per_tool".into())]],
    /// #         header: false,
    /// #     }).statement_type("DDL").substatement("SHOW_VIEWS")))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// use futures::TryStreamExt;
    ///
    /// // No builder writes SHOW VIEWS.
    /// let sql = UncheckedSql::new("SHOW VIEWS IN analytics")?;
    /// let outcome = executor.execute_unchecked(&sql).await?;
    /// let views: Vec<(String,)> = executor.decode(&outcome).try_collect().await?;
    /// assert_eq!(views, [("calls_per_tool".to_string(),)]);
    /// # Ok(()) }
    /// ```
    pub async fn execute_unchecked(&self, sql: &UncheckedSql) -> Result<QueryOutcome> {
        self.execute_unchecked_with(sql, ExecuteOptions::new())
            .await
    }

    /// [`execute_unchecked`](Self::execute_unchecked) with a token of your own or a
    /// cancel handle ([`ExecuteOptions`]).
    ///
    /// ```
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new()).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// let sql = UncheckedSql::new("MSCK REPAIR TABLE analytics.raw_logs")?;
    /// let token = "repair-raw-logs-2026-01-01-0000000000000";
    /// let first = executor
    ///     .execute_unchecked_with(&sql, ExecuteOptions::new().client_request_token(token))
    ///     .await?;
    /// // The same token finds the same execution: nothing runs twice.
    /// let again = executor
    ///     .execute_unchecked_with(&sql, ExecuteOptions::new().client_request_token(token))
    ///     .await?;
    /// assert_eq!(first.query_id, again.query_id);
    /// # Ok(()) }
    /// ```
    pub async fn execute_unchecked_with(
        &self,
        sql: &UncheckedSql,
        options: ExecuteOptions,
    ) -> Result<QueryOutcome> {
        self.submit(Submission::unchecked(sql), options).await
    }

    /// Runs one submission to completion, then reads its `UpdateCount` when it wrote
    /// rows.
    async fn submit(&self, sub: Submission<'_>, options: ExecuteOptions) -> Result<QueryOutcome> {
        let base = match options.client_request_token {
            Some(t) if (32..=128).contains(&t.len()) => t,
            Some(t) => {
                return Err(Error::InvalidArgument(format!(
                    "a ClientRequestToken must be 32 to 128 characters long; {t:?} has {}",
                    t.len()
                )))
            }
            None => new_client_request_token(),
        };
        // The statement's names resolve in the catalog it runs in (Amazon S3 Tables'
        // `namespace.table` only in `s3tablescatalog/<table bucket>`): refuse before
        // anything is sent. Unchecked SQL names no target, so there is nothing to check.
        if let Some(statement) = sub.statement {
            statement
                .dialect()
                .check_execution_catalog(self.config.catalog.as_deref())
                .map_err(|e| Error::Statement(Box::new(e)))?;
        }
        let span = tracing::info_span!(
            "athena_query",
            kind = sub.kind_name(),
            query_id = field::Empty,
            attempts = field::Empty,
            state = field::Empty,
            bytes_scanned = field::Empty,
        );
        // Boxed: the statement's future (start, polls, resubmissions, the snapshot
        // check that settles a write) is deep, and every caller's future would embed
        // its layout (a deep enough one exceeds the compiler's query depth limit).
        let mut outcome = Box::pin(self.run_statement(&sub, &base, options.cancel.as_ref()))
            .instrument(span.clone())
            .await?;
        if writes_rows(sub.kind, &outcome) {
            outcome.rows_affected = self
                .read_update_count(&outcome.query_id)
                .instrument(span)
                .await;
        }
        Ok(outcome)
    }

    async fn run_statement(
        &self,
        sub: &Submission<'_>,
        base: &str,
        cancel: Option<&CancelHandle>,
    ) -> Result<QueryOutcome> {
        let c = &self.config;
        let sql = sub.sql;
        let kind = sub.kind;
        let span = tracing::Span::current();
        let maintenance = matches!(kind, Some(StatementKind::Optimize | StatementKind::Vacuum));
        let overall_limit = if maintenance {
            c.maintenance_deadline
        } else {
            c.timeout
        };
        let overall = overall_limit.map(|d| Instant::now() + d);
        let mut runs: Vec<Run> = Vec::new();
        let mut total_stats = QueryStats::default();
        let mut resubmits = 0u32;
        let mut replayed = 0u32;
        let mut maintenance_runs = 0u32;
        let mut attempt = 0u32;
        // After cancel(): no resubmission, no next run, no next token.
        let cancelled = || cancel.is_some_and(CancelHandle::is_cancelled);
        let with_runs = |runs: &Vec<Run>, error: Error| -> Error {
            if runs
                .iter()
                .any(|r| matches!(r.end, RunEnd::MoreRunsNeeded(_)))
            {
                Error::MaintenanceIncomplete {
                    completed: runs.clone(),
                    error: Box::new(error),
                }
            } else {
                error
            }
        };
        loop {
            let token = attempt_token(base, attempt);
            let (deadline, limit) = match (maintenance, c.timeout) {
                (true, Some(per_run)) => {
                    let run_end = Instant::now() + per_run;
                    match overall {
                        Some(o) if o < run_end => (Some(o), overall_limit.unwrap_or(per_run)),
                        _ => (Some(run_end), per_run),
                    }
                }
                _ => (overall, overall_limit.unwrap_or_default()),
            };
            span.record("attempts", runs.len() + 1);
            let observed = match self.run_once(sub, &token, deadline, limit, cancel).await {
                Ok(o) => o,
                Err(e) => return Err(with_runs(&runs, e)),
            };
            let Observed {
                id,
                exec,
                state,
                states,
                earlier_call,
            } = &observed;
            span.record("query_id", id.as_str());
            span.record("state", field::display(state));
            let stats = QueryStats::from_sdk(exec.statistics.as_ref(), c.price_per_tb_usd);
            total_stats.add(&stats);
            let run = |end: RunEnd| Run {
                query_id: id.clone(),
                client_request_token: token.clone(),
                states: states.clone(),
                stats,
                end,
            };
            if *state == QueryState::Succeeded {
                span.record("bytes_scanned", stats.data_scanned_bytes);
                tracing::info!(
                    query_id = %id,
                    bytes_scanned = stats.data_scanned_bytes,
                    engine_ms = stats.engine_time.as_millis() as u64,
                    queue_ms = stats.queue_time.as_millis() as u64,
                    cost_usd = stats.cost_usd,
                    "query succeeded"
                );
                runs.push(run(RunEnd::Final));
                return Ok(outcome_of(exec, *state, kind, sql, runs, total_stats));
            }
            let mut qe = query_error(id, sub, &token, *state, exec);
            // A write that may have committed: its table's snapshots settle it.
            if qe.commit_state() == CommitState::Unknown {
                if let Some(statement) = sub.statement {
                    qe.evidence = self.settle(statement, exec, &qe).await.map(Box::new);
                }
            }
            if qe.commit_state() == CommitState::Committed {
                tracing::warn!(query_id = %id, state = %state, "the query failed after its commit; the table's snapshots show it committed");
                runs.push(run(RunEnd::Final));
                let mut outcome = outcome_of(exec, *state, kind, sql, runs, total_stats);
                outcome.evidence = qe.evidence;
                return Ok(outcome);
            }
            // Unchecked SQL does who knows what: never resubmitted.
            let policy = kind.map_or(Resubmit::Never, Resubmit::for_kind);
            let policy_allows = policy != Resubmit::Never
                && (policy != Resubmit::AfterCleanup || self.before_resubmit.is_some());
            if *earlier_call
                && policy_allows
                && qe.commit_state() == CommitState::NotCommitted
                && replayed < MAX_REPLAYED_ATTEMPTS
                && !cancelled()
            {
                // An earlier call's attempt under this token, finished without a commit:
                // this call is the retry, so it moves on to the next attempt's token.
                replayed += 1;
                tracing::info!(query_id = %id, attempt, state = %state, "earlier attempt found finished without a commit; moving to the next token");
                runs.push(run(RunEnd::Resubmitted(qe)));
                attempt += 1;
                continue;
            }
            if *state == QueryState::Cancelled {
                tracing::warn!(query_id = %id, reason = ?qe.reason, "query cancelled");
                return Err(with_runs(&runs, Error::Cancelled(Box::new(qe))));
            }
            if qe.needs_more_runs() {
                maintenance_runs += 1;
                runs.push(run(RunEnd::MoreRunsNeeded(qe.clone())));
                if cancelled() {
                    return Err(with_runs(&runs, Error::Failed(Box::new(qe))));
                }
                if maintenance_runs >= c.max_maintenance_runs {
                    return Err(Error::MoreRunsExhausted {
                        kind: qe.kind(),
                        runs: maintenance_runs,
                        query_id: id.clone(),
                        sql: sql.to_string(),
                        completed: runs,
                    });
                }
                tracing::info!(query_id = %id, run = maintenance_runs, "more runs needed; running again");
                attempt += 1;
                continue;
            }
            let may_resubmit = qe.is_retryable()
                && qe.commit_state() == CommitState::NotCommitted
                && resubmits < c.retry.max_resubmits
                && !cancelled()
                && policy_allows;
            if !may_resubmit {
                tracing::warn!(query_id = %id, kind = ?qe.kind(), reason = ?qe.reason, commit = ?qe.commit_state(), "query failed");
                return Err(with_runs(&runs, Error::Failed(Box::new(qe))));
            }
            resubmits += 1;
            let delay = crate::config::jittered(c.retry.backoff_cap(resubmits));
            if remaining(deadline).is_some_and(|left| left <= delay) {
                tracing::warn!(query_id = %id, "query failed with a retryable error; no time left to resubmit it");
                return Err(with_runs(&runs, Error::Failed(Box::new(qe))));
            }
            if policy == Resubmit::AfterCleanup {
                if let (Some(hook), Some(statement)) = (&self.before_resubmit, sub.statement) {
                    if let Err(e) = hook.before_resubmit(self, statement, &qe).await {
                        return Err(with_runs(
                            &runs,
                            Error::Cleanup {
                                failure: Box::new(qe),
                                cleanup: Box::new(e),
                            },
                        ));
                    }
                }
            }
            tracing::warn!(
                query_id = %id,
                kind = ?qe.kind(),
                reason = ?qe.reason,
                resubmit = resubmits,
                delay_ms = delay.as_millis() as u64,
                "query failed with a retryable error that committed nothing; resubmitting with a new token"
            );
            runs.push(run(RunEnd::Resubmitted(qe.clone())));
            self.sleep_or_cancel(delay, cancel).await;
            if cancelled() {
                return Err(with_runs(&runs, Error::Failed(Box::new(qe))));
            }
            attempt += 1;
        }
    }

    /// Starts (or finds) the execution for `token` and observes it to its end. The
    /// stop-on-drop guard is armed before the start is sent.
    async fn run_once(
        &self,
        sub: &Submission<'_>,
        token: &str,
        deadline: Option<Instant>,
        limit: Duration,
        cancel: Option<&CancelHandle>,
    ) -> Result<Observed> {
        let request = self.start_request(sub, token)?;
        let answered_before = self.answered.get(token);
        let in_flight = InFlight::default();
        in_flight.set(Flight::Starting(Box::new(request.clone())));
        let guard = StopOnDrop {
            client: self.client.clone(),
            in_flight: in_flight.clone(),
        };
        let started = match self
            .start_resolving(sub, &request, token, deadline, limit)
            .await
        {
            Ok(started) => {
                self.answered.insert(token, &started.id);
                Started {
                    answered_before,
                    ..started
                }
            }
            Err(e) => {
                // Nothing to stop: the start failed for good, or ran out of time (the
                // error says its outcome is unknown, with the token to resolve it).
                in_flight.take();
                return Err(e);
            }
        };
        tracing::info!(query_id = %started.id, "query started");
        in_flight.set(Flight::Running(started.id.clone()));
        let result = self
            .observe(sub, &started.id, token, deadline, limit, cancel)
            .await;
        // Returned (with a final state or an error): nothing to stop on drop.
        in_flight.take();
        drop(guard);
        let (exec, state, states) = result?;
        Ok(Observed {
            earlier_call: started.created_before_call(&exec),
            id: started.id,
            exec,
            state,
            states,
        })
    }

    /// `StartQueryExecution`, sending the same token again after failures that may
    /// have created the query, until Athena answers or the deadline passes. The SDK's
    /// own attempts are watched too: an attempt it retried may have created the query.
    async fn start_resolving(
        &self,
        sub: &Submission<'_>,
        request: &StartQueryExecutionFluentBuilder,
        token: &str,
        deadline: Option<Instant>,
        limit: Duration,
    ) -> Result<Started> {
        let mut failures = 0u32;
        // Whether an earlier attempt may have created the query.
        let mut maybe_created = false;
        let first_sent = Instant::now();
        loop {
            let log = AttemptLog::default();
            let attempt = request.clone().customize().interceptor(log.clone()).send();
            let result = match deadline {
                Some(d) => tokio::time::timeout_at(d, attempt).await.ok(),
                None => Some(attempt.await),
            };
            let err = match result {
                Some(Ok(out)) => {
                    let id = out.query_execution_id.ok_or(Error::Protocol {
                        operation: "StartQueryExecution",
                        message: "no QueryExecutionId in the response".into(),
                    })?;
                    return Ok(Started {
                        id,
                        athena_date: log.date(),
                        elapsed: first_sent.elapsed(),
                        answered_before: None,
                    });
                }
                Some(Err(e)) => api_error(
                    "StartQueryExecution",
                    e,
                    Ctx {
                        submission: Some(sub),
                        token: Some(token),
                        ..Ctx::default()
                    },
                ),
                None => {
                    return Err(Error::Timeout {
                        query_id: None,
                        client_request_token: Some(token.to_string()),
                        sql: sub.sql.to_string(),
                        elapsed: limit,
                        stop_sent: false,
                        // The call was cut off mid-flight: it may have created the query.
                        commit_state: CommitState::Unknown,
                    });
                }
            };
            let mut err = Box::new(err);
            maybe_created |= err.class == ApiErrorClass::Transient || log.maybe_created();
            err.commit_state = if maybe_created || err.is_retryable() {
                CommitState::Unknown
            } else {
                CommitState::NotCommitted
            };
            failures += 1;
            let delay = self.config.api_backoff.delay(failures);
            let out_of_time = remaining(deadline).is_some_and(|left| left <= delay);
            if !err.is_retryable() || out_of_time {
                tracing::warn!(error = %err, failures, "StartQueryExecution failed");
                return Err(Error::Api(err));
            }
            tracing::warn!(error = %err, failures, delay_ms = delay.as_millis() as u64, "StartQueryExecution failed; sending the same token again");
            tokio::time::sleep(delay).await;
        }
    }

    /// The `StartQueryExecution` request for `sub` under `token`.
    fn start_request(
        &self,
        sub: &Submission<'_>,
        token: &str,
    ) -> Result<StartQueryExecutionFluentBuilder> {
        let c = &self.config;
        let mut req = self
            .client
            .start_query_execution()
            .query_string(sub.sql)
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
        if !sub.params.is_empty() {
            req = req.set_execution_parameters(Some(sub.params.to_vec()));
        }
        if let (Some(StatementKind::Select), Some(minutes)) =
            (sub.kind, c.result_reuse_max_age_minutes)
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
        Ok(req)
    }

    async fn sleep_or_cancel(&self, d: Duration, cancel: Option<&CancelHandle>) {
        match cancel {
            Some(c) if !c.is_cancelled() => {
                let sleep = pin!(tokio::time::sleep(d));
                let woken = pin!(c.cancelled());
                let _ = future::select(sleep, woken).await;
            }
            _ => tokio::time::sleep(d).await,
        }
    }

    /// Polls until the query reaches a terminal state. Failed polls are retried; the
    /// query is stopped only when the deadline passes or on cancel.
    async fn observe(
        &self,
        sub: &Submission<'_>,
        id: &str,
        token: &str,
        deadline: Option<Instant>,
        limit: Duration,
        cancel: Option<&CancelHandle>,
    ) -> Result<(QueryExecution, QueryState, Vec<QueryState>)> {
        let c = &self.config;
        let mut delays = c.poll.delays();
        let mut last: Option<QueryState> = None;
        let mut states = Vec::new();
        let mut polls = 0u32;
        let mut failures = 0u32;
        let mut stopping: Option<Stopping> = None;
        let timed_out = |stop_sent: bool, commit_state: CommitState| Error::Timeout {
            query_id: Some(id.to_string()),
            client_request_token: Some(token.to_string()),
            sql: sub.sql.to_string(),
            elapsed: limit,
            stop_sent,
            commit_state,
        };
        let mut delay = delays.next().unwrap_or(c.poll.max);
        loop {
            // Sleep until the next poll, but not past the deadline, and wake on cancel.
            let wake_by = match stopping {
                Some(Stopping::Timeout { grace_end, .. }) => Some(grace_end),
                _ => deadline,
            };
            let nap = match remaining(wake_by) {
                Some(left) => delay.min(left),
                None => delay,
            };
            self.sleep_or_cancel(nap, cancel).await;

            if let Some(Stopping::Timeout {
                grace_end,
                stop_sent,
            }) = stopping
            {
                if Instant::now() >= grace_end {
                    tracing::warn!(query_id = %id, "stopped query's final state not seen in time");
                    return Err(timed_out(stop_sent, CommitState::Unknown));
                }
            } else if deadline.is_some_and(|d| Instant::now() >= d) {
                let grace_end = Instant::now() + c.stop_grace;
                let stop_sent = self.stop_with_retries(id, grace_end).await;
                tracing::warn!(query_id = %id, stop_sent, ?limit, "query timed out; stopped it, awaiting its final state");
                stopping = Some(Stopping::Timeout {
                    grace_end,
                    stop_sent,
                });
            } else if stopping.is_none() && cancel.is_some_and(CancelHandle::is_cancelled) {
                let until = deadline.unwrap_or_else(|| Instant::now() + c.stop_grace);
                let stop_sent = self.stop_with_retries(id, until).await;
                tracing::warn!(query_id = %id, stop_sent, "cancelled; stopped the query, awaiting its final state");
                stopping = Some(Stopping::Cancel);
            }

            polls += 1;
            let poll = self
                .client
                .get_query_execution()
                .query_execution_id(id)
                .send();
            let limit_at = match stopping {
                Some(Stopping::Timeout { grace_end, .. }) => Some(grace_end),
                _ => deadline,
            };
            let answer = match limit_at {
                Some(t) => match tokio::time::timeout_at(t, poll).await {
                    Ok(a) => a,
                    // Cut off by the deadline: the loop's head handles it.
                    Err(_) => {
                        delay = Duration::ZERO;
                        continue;
                    }
                },
                None => poll.await,
            };
            let out = match answer {
                Ok(out) => out,
                Err(e) => {
                    let err = api_error(
                        "GetQueryExecution",
                        e,
                        Ctx {
                            submission: Some(sub),
                            query_id: Some(id),
                            token: Some(token),
                            commit_state: Some(CommitState::Unknown),
                        },
                    );
                    if !err.is_retryable() {
                        tracing::warn!(query_id = %id, error = %err, "GetQueryExecution failed; the query was not stopped, its outcome is unknown");
                        return Err(Error::Api(Box::new(err)));
                    }
                    failures += 1;
                    let backoff = c.api_backoff.delay(failures);
                    tracing::debug!(query_id = %id, error = %err, failures, "GetQueryExecution failed; polling again");
                    delay = backoff.max(delays.next().unwrap_or(c.poll.max));
                    continue;
                }
            };
            failures = 0;
            delay = delays.next().unwrap_or(c.poll.max);
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
            if !state.is_terminal() {
                continue;
            }
            if let Some(Stopping::Timeout { stop_sent, .. }) = stopping {
                let commit_state = match state {
                    QueryState::Succeeded => CommitState::Committed,
                    _ => {
                        let mut qe = query_error(id, sub, token, state, &exec);
                        if let (CommitState::Unknown, Some(statement)) =
                            (qe.commit_state(), sub.statement)
                        {
                            qe.evidence = self.settle(statement, &exec, &qe).await.map(Box::new);
                        }
                        qe.commit_state()
                    }
                };
                return Err(timed_out(stop_sent, commit_state));
            }
            return Ok((exec, state, states));
        }
    }

    /// Sends `StopQueryExecution` for a query this process did not start (or lost
    /// track of); queries started by [`execute`](Self::execute) are stopped by it.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql_athena::*;
    /// # use iceberg_sql_test_server::{Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> std::result::Result<(), Box<dyn std::error::Error>> {
    /// # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
    /// #     .on_contains("SELECT", |_| Plan::rows(ResultSet::default()).running_forever()))).await?;
    /// # let executor = AthenaExecutor::new(server.client(),
    /// #     ExecutorConfig::default().poll(PollConfig::fixed(std::time::Duration::from_millis(5))));
    /// # let query_id = executor.client().start_query_execution().query_string("SELECT 1")
    /// #     .send().await?.query_execution_id.unwrap_or_default();
    /// executor.stop(&query_id).await?;
    /// # Ok(()) }
    /// ```
    pub async fn stop(&self, query_id: &str) -> Result<()> {
        self.client
            .stop_query_execution()
            .query_execution_id(query_id)
            .send()
            .await
            .map_err(|e| {
                Error::Api(Box::new(api_error(
                    "StopQueryExecution",
                    e,
                    Ctx::query(query_id, CommitState::Unknown),
                )))
            })?;
        Ok(())
    }

    /// `StopQueryExecution`, retried on throttling and transient failures until `until`.
    async fn stop_with_retries(&self, id: &str, until: Instant) -> bool {
        let mut failures = 0u32;
        loop {
            let err = match tokio::time::timeout_at(until, self.stop(id)).await {
                Ok(Ok(())) => return true,
                Ok(Err(e)) => e,
                Err(_) => return false,
            };
            failures += 1;
            let delay = self.config.api_backoff.delay(failures);
            let retry = err.api_error().is_some_and(ApiError::is_retryable);
            if !retry || Instant::now() + delay >= until {
                tracing::warn!(query_id = %id, error = %err, "StopQueryExecution failed");
                return false;
            }
            tokio::time::sleep(delay).await;
        }
    }
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
