//! # iceberg-sql-test-server
//!
//! An in-process server that speaks Amazon Athena's JSON 1.1 protocol on 127.0.0.1, so
//! the real `aws-sdk-athena` client (HTTP, signing, retries, timeouts) can be tested
//! against queries that fail the way production queries fail. moto runs queries but
//! cannot fail them; this server can, on purpose and reproducibly.
//!
//! Four parts:
//!
//! * **front** ([`TestServer`]): `StartQueryExecution` (with `ClientRequestToken`
//!   idempotency: the same token answers the same execution, a changed `QueryString`
//!   is an `InvalidRequestException`), `GetQueryExecution` (state, reason,
//!   `AthenaError`, statistics, submission time), `GetQueryResults` (pages, header row,
//!   NULL vs `""`, `UpdateCount`), `StopQueryExecution`;
//! * **engine** ([`Engine`], [`ScriptedEngine`]): what each new execution does, a
//!   [`Plan`]: QUEUED/RUNNING phases counted in polls or time, then success (rows,
//!   update count, committing an `INSERT ... VALUES`), failure ([`Failure`]: category,
//!   type, retryable, reason) or cancellation;
//! * **faults** ([`FaultPlan`]): per API call ([`Fault`]: throttling, 5xx, connection
//!   resets, slow answers, a call that takes effect but loses its answer, e.g. a
//!   `StartQueryExecution` that creates the query) and per query ([`QueryFault`]:
//!   FAILED with any category and type, FAILED after committing, CANCELLED), scripted
//!   in order or drawn from a seed;
//! * **ledger** ([`Ledger`]): every execution, its token, state, the rows it committed
//!   and whether a stop hit it while it was healthy.
//!
//! Deterministic: scripted faults apply in order; random ones come from one seeded
//! generator, drawn per request in arrival order, so a client that sends one request
//! at a time sees the same faults on every run with the same seed. Query progress can
//! be counted in polls, which does not depend on timing.
//!
//! ```
//! use iceberg_sql_test_server::{Fault, FaultPlan, Op, ServerConfig, TestServer};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! // The first StartQueryExecution creates the query but its answer is lost; the SDK
//! // retries with the same ClientRequestToken and gets the same execution back.
//! let server = TestServer::start(
//!     ServerConfig::new()
//!         .faults(FaultPlan::seeded(7).script(Op::StartQueryExecution, [Fault::LostResponse]))
//!         .row_key("event_id"),
//! )
//! .await?;
//! let client = server.client();
//! let id = client
//!     .start_query_execution()
//!     .query_string("INSERT INTO analytics.ev (event_id, n) VALUES ('e1', 1), ('e2', 2)")
//!     .client_request_token("0123456789abcdef0123456789abcdef")
//!     .send()
//!     .await
//!     .expect("the SDK retries the lost answer")
//!     .query_execution_id
//!     .unwrap();
//! server.settle(); // run everything to its end, as Athena would
//! let ledger = server.ledger();
//! assert_eq!(ledger.executions.len(), 1, "one query for one token");
//! assert_eq!(ledger.executions[0].id, id);
//! assert_eq!(ledger.rows_committed(), 2);
//! assert!(ledger.duplicates().is_empty());
//! assert_eq!(server.stats().token_replays, 1);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod engine;
mod faults;
mod http;
mod ledger;
mod rng;
mod server;
mod snapshots;

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_athena::config::retry::RetryConfig;
use aws_sdk_athena::config::timeout::TimeoutConfig;
use aws_sdk_athena::config::{BehaviorVersion, Credentials, Region};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use engine::{
    default_plan, End, Engine, Failure, Finished, Lasts, NewQuery, Phase, Plan, ResultSet,
    ScriptedEngine, State,
};
pub use faults::{Fault, FaultPlan, Op, QueryFault, RandomFaults, RandomQueryFaults, Stats};
pub use ledger::{inserted_rows, ExecutionRecord, Ledger, RowKey, Stop};
pub use rng::SeededRng;
pub use server::Request;
pub use snapshots::{written_table, SnapshotRecord, Snapshots};

use server::{Inner, Realism};

/// How the server behaves.
pub struct ServerConfig {
    engine: Box<dyn Engine>,
    faults: FaultPlan,
    key_column: Option<String>,
    realism: Realism,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            engine: Box::new(ScriptedEngine::new()),
            faults: FaultPlan::default(),
            key_column: None,
            realism: Realism::default(),
        }
    }
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("faults", &self.faults)
            .field("key_column", &self.key_column)
            .field("clock_skew_ms", &self.realism.clock_skew_ms)
            .field("token_ttl", &self.realism.token_ttl)
            .finish_non_exhaustive()
    }
}

impl ServerConfig {
    /// Every statement gets [`default_plan`]; no faults; rows keyed by their whole text.
    pub fn new() -> Self {
        Self::default()
    }

    /// The engine deciding what queries do.
    pub fn engine(mut self, engine: impl Engine) -> Self {
        self.engine = Box::new(engine);
        self
    }

    /// The faults to inject.
    pub fn faults(mut self, faults: FaultPlan) -> Self {
        self.faults = faults;
        self
    }

    /// The column whose value identifies a row in the ledger.
    pub fn row_key(mut self, column: &str) -> Self {
        self.key_column = Some(column.to_string());
        self
    }

    /// The server's clock runs `ms` milliseconds ahead of this machine's (negative:
    /// behind): `SubmissionDateTime`, `CompletionDateTime`, snapshots' `committed_at`
    /// and the `Date` header all read it, as Athena's own clock is not the client's.
    pub fn clock_skew_ms(mut self, ms: i64) -> Self {
        self.realism.clock_skew_ms = ms;
        self
    }

    /// A `ClientRequestToken` is forgotten `ttl` after its first use: the same token
    /// then creates a new execution. AWS does not document how long Athena remembers
    /// one; the default here is for ever.
    pub fn token_ttl(mut self, ttl: Duration) -> Self {
        self.realism.token_ttl = Some(ttl);
        self
    }
}

/// A running server on `127.0.0.1:<free port>`. Stops when dropped.
pub struct TestServer {
    inner: Arc<Inner>,
    endpoint: String,
    task: JoinHandle<()>,
}

impl std::fmt::Debug for TestServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestServer")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl TestServer {
    /// Binds a free loopback port and serves on the current tokio runtime.
    pub async fn start(config: ServerConfig) -> std::io::Result<TestServer> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let endpoint = format!("http://{}", listener.local_addr()?);
        let inner = Arc::new(Inner::new(
            config.engine,
            config.faults,
            config.key_column,
            config.realism,
        ));
        let task = tokio::spawn(http::accept_loop(listener, inner.clone()));
        Ok(TestServer {
            inner,
            endpoint,
            task,
        })
    }

    /// `http://127.0.0.1:<port>`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// An SDK configuration for this server: static test credentials, `us-east-1`,
    /// the SDK's standard retries (3 attempts, 1-20 ms backoff) and a 2 s attempt
    /// timeout. Adjust it, then `Client::from_conf(builder.build())`.
    pub fn client_config(&self) -> aws_sdk_athena::config::Builder {
        aws_sdk_athena::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .endpoint_url(&self.endpoint)
            .region(Region::new("us-east-1"))
            .credentials_provider(Credentials::new("testing", "testing", None, None, "static"))
            .retry_config(
                RetryConfig::standard()
                    .with_max_attempts(3)
                    .with_initial_backoff(Duration::from_millis(1))
                    .with_max_backoff(Duration::from_millis(20)),
            )
            .timeout_config(
                TimeoutConfig::builder()
                    .operation_attempt_timeout(Duration::from_secs(2))
                    .build(),
            )
    }

    /// A client built from [`client_config`](Self::client_config).
    pub fn client(&self) -> aws_sdk_athena::Client {
        aws_sdk_athena::Client::from_conf(self.client_config().build())
    }

    /// A copy of the ledger.
    pub fn ledger(&self) -> Ledger {
        self.inner.lock().ledger()
    }

    /// A copy of the catalog's snapshots: one per committed `INSERT`, `UPDATE`,
    /// `DELETE` or `MERGE`, which `SELECT … FROM "db"."t$snapshots"` returns.
    pub fn snapshots(&self) -> Snapshots {
        self.inner.lock().snapshots()
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.inner.lock().requests()
    }

    /// The bodies of the requests of `op`, in order.
    pub fn bodies(&self, op: Op) -> Vec<serde_json::Value> {
        self.requests()
            .into_iter()
            .filter(|r| r.op == op)
            .map(|r| r.body)
            .collect()
    }

    /// How many requests of `op` arrived (faulted ones included).
    pub fn count(&self, op: Op) -> usize {
        self.bodies(op).len()
    }

    /// Request and fault counters.
    pub fn stats(&self) -> Stats {
        self.inner.lock().stats()
    }

    /// Adds scripted faults for the next calls of `op` while the server runs.
    pub fn script(&self, op: Op, faults: impl IntoIterator<Item = Fault>) {
        let mut s = self.inner.lock();
        let plan = std::mem::take(s.faults_mut());
        *s.faults_mut() = plan.script(op, faults);
    }

    /// Runs every unfinished execution to the end its plan says (commits included),
    /// as Athena does with queries nobody polls any more. Call it before asserting on
    /// the ledger when a client may have walked away from a running query.
    pub fn settle(&self) {
        self.inner.lock().settle();
    }
}
