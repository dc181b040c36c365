//! Executor settings: where queries run, how they are polled, retried and priced.

use std::time::Duration;

use iceberg_sql::StatementKind;

/// How query results are encrypted in S3 (`ResultConfiguration.EncryptionConfiguration`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Encryption {
    /// Server-side encryption with S3-managed keys.
    SseS3,
    /// Server-side encryption with a KMS key (ARN or id).
    SseKms {
        /// The KMS key.
        kms_key: String,
    },
    /// Client-side encryption with a KMS key (ARN or id).
    CseKms {
        /// The KMS key.
        kms_key: String,
    },
}

/// How often `GetQueryExecution` is called while a query runs.
///
/// Delays grow geometrically from `initial` by `multiplier` and are capped at `max`:
/// short queries (most DDL) are noticed quickly, long ones cost few calls.
/// [`PollConfig::fixed`] gives the constant interval the Python clients use.
///
/// ```
/// use std::time::Duration;
/// use iceberg_sql_athena::PollConfig;
///
/// let poll = PollConfig::default();
/// let first: Vec<Duration> = poll.delays().take(3).collect();
/// assert_eq!(first[0], Duration::from_millis(100));
/// assert!(first[1] > first[0]);
/// assert!(poll.delays().take(100).all(|d| d <= Duration::from_secs(2)));
/// assert!(PollConfig::fixed(Duration::from_secs(1)).delays().take(5).all(|d| d == Duration::from_secs(1)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PollConfig {
    /// Delay before the first `GetQueryExecution` after the query was started.
    pub initial: Duration,
    /// Growth factor per poll (values below 1.0 are treated as 1.0).
    pub multiplier: f64,
    /// Upper bound for one delay.
    pub max: Duration,
}

impl Default for PollConfig {
    /// 100 ms, growing by 1.5x per poll, capped at 2 s.
    fn default() -> Self {
        PollConfig {
            initial: Duration::from_millis(100),
            multiplier: 1.5,
            max: Duration::from_secs(2),
        }
    }
}

impl PollConfig {
    /// Adaptive backoff from `initial` to `max`, growing by `multiplier` per poll.
    pub fn adaptive(initial: Duration, multiplier: f64, max: Duration) -> Self {
        PollConfig {
            initial,
            multiplier,
            max,
        }
    }

    /// A constant interval (what pyathena and awswrangler do with 1 s).
    pub fn fixed(interval: Duration) -> Self {
        PollConfig {
            initial: interval,
            multiplier: 1.0,
            max: interval,
        }
    }

    /// The endless sequence of delays between polls.
    pub fn delays(&self) -> impl Iterator<Item = Duration> {
        let max = self.max.max(Duration::from_millis(1));
        let mult = if self.multiplier.is_finite() && self.multiplier > 1.0 {
            self.multiplier
        } else {
            1.0
        };
        let mut next = self.initial.min(max);
        std::iter::from_fn(move || {
            let current = next;
            next = Duration::try_from_secs_f64(current.as_secs_f64() * mult)
                .unwrap_or(max)
                .min(max);
            Some(current)
        })
    }
}

/// Query-level retries: a query that reached `FAILED` with a retryable error
/// (`AthenaError.Retryable`, `ICEBERG_COMMIT_ERROR`, throttling error types 1400-1406)
/// that committed nothing is submitted again with a **new** `ClientRequestToken` after
/// a jittered backoff, when its statement kind allows it ([`Resubmit::for_kind`]).
///
/// API-level retries (throttling, 5xx, dispatch errors, timeouts on one call) are the
/// SDK's retry policy first, then the executor's own ([`Backoff`], until the deadline);
/// they keep the **same** token, so Athena never starts one submission twice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// How many times a failed query may be resubmitted (0 = never).
    pub max_resubmits: u32,
    /// Backoff before the first resubmission; doubles each time.
    pub base_delay: Duration,
    /// Upper bound for one backoff.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    /// 3 resubmissions, 1 s base, 20 s cap ("full jitter").
    fn default() -> Self {
        RetryPolicy {
            max_resubmits: 3,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// No query-level retries.
    pub fn none() -> Self {
        RetryPolicy {
            max_resubmits: 0,
            ..RetryPolicy::default()
        }
    }

    /// The cap of the backoff before resubmission number `n` (1-based), before jitter.
    pub fn backoff_cap(&self, n: u32) -> Duration {
        let factor = 2u32.saturating_pow(n.saturating_sub(1));
        self.base_delay
            .checked_mul(factor)
            .unwrap_or(self.max_delay)
            .min(self.max_delay)
    }
}

/// What happens to a statement whose query `FAILED` with a retryable error that
/// committed nothing (see [`QueryError::commit_state`](crate::QueryError::commit_state)).
///
/// A resubmission always uses a **new** `ClientRequestToken`: the old one would only
/// return the failed execution again. The token of a resubmission is derived from the
/// first one and the attempt number, so a re-run of the same call sends the same
/// tokens again (Athena answers the executions it already has).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Resubmit {
    /// Returned as it failed.
    Never,
    /// Resubmitted with a new token.
    NewToken,
    /// Resubmitted with a new token only after the executor's
    /// [`BeforeResubmit`](crate::BeforeResubmit) hook has cleaned up (and never when no
    /// hook is set).
    AfterCleanup,
}

impl Resubmit {
    /// The policy for each statement kind:
    ///
    /// | kind | policy | why |
    /// |---|---|---|
    /// | `SELECT`, `SHOW CREATE TABLE`, `SHOW TABLES`, `DESCRIBE` | new token | reads |
    /// | `CREATE TABLE`, `DROP TABLE`, `ALTER TABLE`, `CREATE DATABASE`, `CREATE VIEW`, `DROP VIEW` | new token | a failed DDL statement changed nothing; the builders write `IF [NOT] EXISTS` / `OR REPLACE` where asked |
    /// | `DROP DATABASE` | new token | a `CASCADE` stopped part-way is finished by running it again |
    /// | `INSERT`, `UPDATE`, `DELETE`, `MERGE` | new token | an Iceberg commit is atomic; only failures that committed nothing are resubmitted |
    /// | `OPTIMIZE`, `VACUUM` | new token | re-running maintenance is harmless |
    /// | `CREATE TABLE AS` | after cleanup | not atomic on Athena: a failed CTAS can leave the table in the catalog and files at its location, and a retry then fails with "Cannot create a table on a non-empty location"; the hook must drop the table and empty the location |
    /// | `UNLOAD` | after cleanup | a failed UNLOAD can leave files under its target prefix, and UNLOAD refuses a non-empty prefix; the hook must empty it |
    /// | kinds added later, and [`UncheckedSql`](crate::UncheckedSql) | never | unknown until reviewed |
    pub fn for_kind(kind: StatementKind) -> Resubmit {
        match kind {
            StatementKind::Select
            | StatementKind::ShowCreateTable
            | StatementKind::CreateTable
            | StatementKind::DropTable
            | StatementKind::AlterTable
            | StatementKind::Insert
            | StatementKind::Update
            | StatementKind::Delete
            | StatementKind::Merge
            | StatementKind::Optimize
            | StatementKind::Vacuum
            | StatementKind::CreateDatabase
            | StatementKind::DropDatabase
            | StatementKind::ShowTables
            | StatementKind::Describe
            | StatementKind::CreateView
            | StatementKind::DropView
            | StatementKind::CreateStagingTable
            | StatementKind::DropStagingTable => Resubmit::NewToken,
            StatementKind::CreateTableAs | StatementKind::Unload => Resubmit::AfterCleanup,
            _ => Resubmit::Never,
        }
    }
}

/// Exponential backoff with equal jitter for the executor's own API retries
/// (re-sending `StartQueryExecution` with the same token, polling again after a
/// throttled or failed `GetQueryExecution`).
///
/// ```
/// use std::time::Duration;
/// use iceberg_sql_athena::Backoff;
///
/// let b = Backoff::default();
/// assert_eq!(b.cap(1), Duration::from_millis(200));
/// assert_eq!(b.cap(2), Duration::from_millis(400));
/// assert_eq!(b.cap(30), Duration::from_secs(5));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The cap of the first delay.
    pub initial: Duration,
    /// Upper bound for one delay.
    pub max: Duration,
}

impl Default for Backoff {
    /// 200 ms, doubling, capped at 5 s.
    fn default() -> Self {
        Backoff {
            initial: Duration::from_millis(200),
            max: Duration::from_secs(5),
        }
    }
}

impl Backoff {
    /// The cap of retry number `n` (1-based), before jitter.
    pub fn cap(&self, n: u32) -> Duration {
        let factor = 2u32.saturating_pow(n.saturating_sub(1).min(31));
        self.initial
            .checked_mul(factor)
            .unwrap_or(self.max)
            .min(self.max)
    }

    /// The delay before retry number `n`: half the cap plus a random half ("equal
    /// jitter"), so retries neither fire at once nor in lockstep.
    pub fn delay(&self, n: u32) -> Duration {
        jittered(self.cap(n))
    }
}

/// Half of `cap` plus a random fraction of the other half.
pub(crate) fn jittered(cap: Duration) -> Duration {
    let jitter =
        Duration::try_from_secs_f64(cap.as_secs_f64() * crate::token::random_fraction() / 2.0)
            .unwrap_or_default();
    (cap / 2).saturating_add(jitter)
}

/// Everything an [`AthenaExecutor`](crate::AthenaExecutor) needs besides the client.
///
/// ```
/// use std::time::Duration;
/// use iceberg_sql_athena::{Encryption, ExecutorConfig};
///
/// let config = ExecutorConfig::default()
///     .work_group("analytics-v3")
///     .database("analytics")
///     .output_location("s3://my-athena-results/iceberg-sql/")
///     .encryption(Encryption::SseS3)
///     .timeout(Duration::from_secs(600))
///     .price_per_tb_usd(5.0);
/// assert_eq!(config.work_group.as_deref(), Some("analytics-v3"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExecutorConfig {
    /// `WorkGroup` (Athena's default is `primary`). Must use engine version 3.
    pub work_group: Option<String>,
    /// `QueryExecutionContext.Database` for unqualified names.
    pub database: Option<String>,
    /// `QueryExecutionContext.Catalog` (Athena's default is `AwsDataCatalog`).
    pub catalog: Option<String>,
    /// `ResultConfiguration.OutputLocation` (required unless the work group sets one).
    pub output_location: Option<String>,
    /// Result encryption.
    pub encryption: Option<Encryption>,
    /// `ResultConfiguration.ExpectedBucketOwner`.
    pub expected_bucket_owner: Option<String>,
    /// Result reuse for `SELECT` statements only: reuse results up to this many minutes
    /// old (0-10080). Never applied to writes or DDL.
    pub result_reuse_max_age_minutes: Option<i32>,
    /// Polling schedule.
    pub poll: PollConfig,
    /// Limit for one [`execute`](crate::AthenaExecutor::execute) call, resubmissions
    /// included; for `OPTIMIZE`/`VACUUM`, the limit of **each run** (see
    /// `maintenance_deadline` for the whole loop). When it passes, the running query is
    /// stopped with `StopQueryExecution`, its final state is awaited for up to
    /// `stop_grace`, and [`Error::Timeout`](crate::Error::Timeout) is returned.
    pub timeout: Option<Duration>,
    /// Limit for all runs of one `OPTIMIZE`/`VACUUM` (while Athena answers
    /// `ICEBERG_*_MORE_RUNS_NEEDED`). A failure returns the runs that completed.
    pub maintenance_deadline: Option<Duration>,
    /// How long to wait for a stopped query to reach its final state, so the error can
    /// say whether it committed.
    pub stop_grace: Duration,
    /// The executor's own retries of API calls the SDK gave up on.
    pub api_backoff: Backoff,
    /// Query-level retries with a fresh token.
    pub retry: RetryPolicy,
    /// How many runs an `OPTIMIZE`/`VACUUM` gets while Athena answers
    /// `ICEBERG_*_MORE_RUNS_NEEDED` (the first run included).
    pub max_maintenance_runs: u32,
    /// Price per TB (2^40 bytes) scanned, for [`QueryStats::cost_usd`](crate::QueryStats).
    pub price_per_tb_usd: f64,
    /// `MaxResults` per `GetQueryResults` page (1-1000).
    pub page_size: i32,
    /// How far a snapshot's `committed_at` (stamped by Athena's engine) may lie after
    /// the execution's `CompletionDateTime` (stamped by Athena's API) and still count
    /// as the execution's commit, when a write that may have committed is settled by
    /// the table's snapshots ([`Evidence`](crate::Evidence)). Both are AWS clocks; this
    /// machine's clock is never compared with either.
    pub snapshot_clock_tolerance: Duration,
}

impl Default for ExecutorConfig {
    fn default() -> Self {
        ExecutorConfig {
            work_group: None,
            database: None,
            catalog: None,
            output_location: None,
            encryption: None,
            expected_bucket_owner: None,
            result_reuse_max_age_minutes: None,
            poll: PollConfig::default(),
            timeout: Some(Duration::from_secs(30 * 60)),
            maintenance_deadline: Some(Duration::from_secs(6 * 60 * 60)),
            stop_grace: Duration::from_secs(60),
            api_backoff: Backoff::default(),
            retry: RetryPolicy::default(),
            max_maintenance_runs: 20,
            price_per_tb_usd: 5.0,
            page_size: 1000,
            snapshot_clock_tolerance: crate::evidence::DEFAULT_CLOCK_TOLERANCE,
        }
    }
}

impl ExecutorConfig {
    /// Sets the work group.
    pub fn work_group(mut self, name: impl Into<String>) -> Self {
        self.work_group = Some(name.into());
        self
    }
    /// Sets the default database.
    pub fn database(mut self, name: impl Into<String>) -> Self {
        self.database = Some(name.into());
        self
    }
    /// Sets the catalog.
    pub fn catalog(mut self, name: impl Into<String>) -> Self {
        self.catalog = Some(name.into());
        self
    }
    /// Runs statements built for [`Dialect::AthenaS3Tables`] on the tables of the Amazon
    /// S3 table bucket `table_bucket`: `QueryExecutionContext.Catalog` becomes
    /// `s3tablescatalog/<table_bucket>` (set [`database`](Self::database) to a namespace
    /// for unqualified names), and result reuse is off (AWS: "Query result reuse is not
    /// supported",
    /// <https://docs.aws.amazon.com/athena/latest/ug/gdc-register-s3-table-bucket-cat.html>).
    /// The executor refuses an S3 Tables statement in any other catalog, and any other
    /// statement in this one ([`Dialect::check_execution_catalog`]).
    ///
    /// ```
    /// use iceberg_sql_athena::ExecutorConfig;
    /// let config = ExecutorConfig::default().s3_tables("analytics-bucket");
    /// assert_eq!(config.catalog.as_deref(), Some("s3tablescatalog/analytics-bucket"));
    /// ```
    ///
    /// [`Dialect::AthenaS3Tables`]: iceberg_sql::Dialect::AthenaS3Tables
    /// [`Dialect::check_execution_catalog`]: iceberg_sql::Dialect::check_execution_catalog
    pub fn s3_tables(mut self, table_bucket: impl AsRef<str>) -> Self {
        self.catalog = Some(format!("s3tablescatalog/{}", table_bucket.as_ref()));
        self.result_reuse_max_age_minutes = None;
        self
    }
    /// Sets the S3 folder for query results.
    pub fn output_location(mut self, s3_uri: impl Into<String>) -> Self {
        self.output_location = Some(s3_uri.into());
        self
    }
    /// Sets result encryption.
    pub fn encryption(mut self, encryption: Encryption) -> Self {
        self.encryption = Some(encryption);
        self
    }
    /// Sets the expected owner of the result bucket.
    pub fn expected_bucket_owner(mut self, account_id: impl Into<String>) -> Self {
        self.expected_bucket_owner = Some(account_id.into());
        self
    }
    /// Enables result reuse for `SELECT` statements, up to `minutes` old.
    pub fn result_reuse(mut self, minutes: i32) -> Self {
        self.result_reuse_max_age_minutes = Some(minutes);
        self
    }
    /// Sets the polling schedule.
    pub fn poll(mut self, poll: PollConfig) -> Self {
        self.poll = poll;
        self
    }
    /// Sets the timeout per `execute` call (per run for `OPTIMIZE`/`VACUUM`).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
    /// Removes the timeout.
    pub fn no_timeout(mut self) -> Self {
        self.timeout = None;
        self
    }
    /// Sets the limit for all runs of one `OPTIMIZE`/`VACUUM`.
    pub fn maintenance_deadline(mut self, deadline: Duration) -> Self {
        self.maintenance_deadline = Some(deadline);
        self
    }
    /// Sets how long a stopped query's final state is awaited.
    pub fn stop_grace(mut self, grace: Duration) -> Self {
        self.stop_grace = grace;
        self
    }
    /// Sets [`snapshot_clock_tolerance`](Self::snapshot_clock_tolerance).
    pub fn snapshot_clock_tolerance(mut self, tolerance: Duration) -> Self {
        self.snapshot_clock_tolerance = tolerance;
        self
    }
    /// Sets the backoff of the executor's own API retries.
    pub fn api_backoff(mut self, backoff: Backoff) -> Self {
        self.api_backoff = backoff;
        self
    }
    /// Sets the query-level retry policy.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }
    /// Sets how many runs `OPTIMIZE`/`VACUUM` may take.
    pub fn max_maintenance_runs(mut self, runs: u32) -> Self {
        self.max_maintenance_runs = runs;
        self
    }
    /// Sets the price per TB scanned used for cost estimates.
    pub fn price_per_tb_usd(mut self, price: f64) -> Self {
        self.price_per_tb_usd = price;
        self
    }
    /// Sets `MaxResults` per results page (clamped to 1-1000).
    pub fn page_size(mut self, rows: i32) -> Self {
        self.page_size = rows.clamp(1, 1000);
        self
    }
}
