//! # iceberg-sql-athena
//!
//! Runs [`iceberg_sql::Statement`]s on Amazon Athena: start with an idempotency token,
//! poll with adaptive backoff, stop on timeout or when the future is dropped, retry
//! what is safe to retry, and read results in one call: typed rows
//! ([`fetch_all`](AthenaExecutor::fetch_all), [`fetch`](AthenaExecutor::fetch)),
//! `serde` types (feature `serde`), Arrow record batches (feature `arrow`), metadata
//! rows ([`snapshots`](AthenaExecutor::snapshots)). SQL no builder covers runs only
//! through [`execute_unchecked`](AthenaExecutor::execute_unchecked).
//!
//! Build an executor with `AthenaExecutor::from_env` (feature `aws-config`: the
//! default credential chain and region), [`AthenaExecutor::from_sdk_config`] or
//! [`AthenaExecutor::new`]. An application also needs `tokio` 1 (the runtime) and
//! `futures` 0.3 (the stream traits); `tracing-subscriber` 0.3 shows the executor's
//! spans. The example below runs against the in-process Athena test server (its setup
//! lines are hidden here; [`test_server`], feature `test-server`, shows the whole of it
//! for your own tests); on Athena only the constructor differs.
//!
//! ```
//! use iceberg_sql::prelude::*;
//! use iceberg_sql_athena::{AthenaExecutor, EnsureOptions, ExecutorConfig};
//! # use iceberg_sql_test_server::{Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let server = TestServer::start(ServerConfig::new().engine(ScriptedEngine::new()
//! #     .on_contains("SHOW CREATE TABLE", |_| Plan::fail(Failure::new(2, 1000, false,
//! #         "FAILED: SemanticException [Error 10072]: Database does not exist: analytics")))
//! #     .on_contains("SELECT", |_| Plan::rows(ResultSet::select(
//! #         &[("event_id", "varchar"), ("payload", "varchar")],
//! #         vec![vec![Some("e1".into()), None]]))))).await?;
//! # let client = server.client();
//! let config = ExecutorConfig::default()
//!     .work_group("analytics-v3")
//!     .output_location("s3://my-athena-results/iceberg-sql/");
//! // On AWS: AthenaExecutor::from_env(config).await (feature `aws-config`).
//! let executor = AthenaExecutor::new(client, config);
//! # let executor = AthenaExecutor::new(server.client(), executor.config().clone()
//! #     .poll(iceberg_sql_athena::PollConfig::fixed(std::time::Duration::from_millis(5))));
//!
//! #[derive(IcebergTable, Debug, Clone)]
//! #[iceberg(database = "analytics", name = "mcp_events",
//!           location = "s3://my-datalake/iceberg/mcp_events/")]
//! struct McpEvent { event_id: String, payload: Option<String> }
//!
//! // Create the database and the table, or read the live definition and add what is
//! // missing:
//! let report = executor
//!     .ensure_table_for::<McpEvent>(EnsureOptions::new().create_database())
//!     .await?;
//! println!("{report}; cost ${:.6}", report.total_stats().cost_usd);
//!
//! // A SELECT's rows decode into your type (a record, a `#[derive(FromRow)]`
//! // projection, a tuple), in one call:
//! let events: Vec<McpEvent> = executor.fetch_all(&McpEvent::select().build()?).await?;
//! assert_eq!(events[0].payload, None);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod api_error;
mod append;
mod catalog;
mod config;
mod daily;
mod error;
mod evidence;
mod executor;
mod lifecycle;
mod outcome;
mod results;
#[cfg(feature = "staged-load")]
#[cfg_attr(docsrs, doc(cfg(feature = "staged-load")))]
pub mod staged;
mod submission;
mod token;

#[cfg(feature = "test-server")]
#[cfg_attr(docsrs, doc(cfg(feature = "test-server")))]
pub mod test_server {
    //! Offline tests: an in-process server that speaks Athena's API on 127.0.0.1, so the
    //! code under test runs the real SDK client (signing, retries, timeouts) and this
    //! crate's executor without AWS or a network. It has no query engine: a
    //! [`ScriptedEngine`] says what each statement returns (rows, a failure, a
    //! cancellation), [`FaultPlan`] injects API faults (throttling, 5xx, lost answers),
    //! and the [`Ledger`] records every execution and the rows each `INSERT` committed.
    //! This module re-exports the `iceberg-sql-test-server` crate.
    //!
    //! In `Cargo.toml`:
    //!
    //! ```toml
    //! [dev-dependencies]
    //! iceberg-sql-athena = { version = "0.1", features = ["test-server"] }
    //! tokio = { version = "1", features = ["macros", "rt"] }
    //! ```
    //!
    //! A test (with `#[tokio::test]` instead of `main` in your crate):
    //!
    //! ```
    //! use std::time::Duration;
    //!
    //! use iceberg_sql::prelude::*;
    //! use iceberg_sql_athena::test_server::{
    //!     Failure, Plan, ResultSet, ScriptedEngine, ServerConfig, TestServer,
    //! };
    //! use iceberg_sql_athena::{AppendOptions, AthenaExecutor, EnsureOptions, ExecutorConfig, PollConfig};
    //!
    //! #[derive(IcebergTable, Debug, Clone, PartialEq)]
    //! #[iceberg(database = "analytics", name = "mcp_events",
    //!           location = "s3://my-datalake/iceberg/mcp_events/")]
    //! struct McpEvent {
    //!     event_id: String,
    //!     latency_ms: i64,
    //!     error: Option<String>,
    //! }
    //!
    //! #[tokio::main(flavor = "current_thread")]
    //! async fn main() -> Result<(), Box<dyn std::error::Error>> {
    //!     // A new account: the database does not exist yet; a SELECT returns one row
    //!     // (the cells as Athena returns them; `None` is NULL). Every other statement
    //!     // succeeds, and an INSERT commits its rows into the ledger.
    //!     let engine = ScriptedEngine::new()
    //!         .on_contains("SHOW CREATE TABLE", |_| {
    //!             Plan::fail(Failure::new(2, 1000, false,
    //!                 "FAILED: SemanticException [Error 10072]: Database does not exist: analytics"))
    //!         })
    //!         .on_contains("SELECT", |_| {
    //!             Plan::rows(ResultSet::select(
    //!                 &[("event_id", "varchar"), ("latency_ms", "bigint"), ("error", "varchar")],
    //!                 vec![vec![Some("e1".into()), Some("120".into()), None]],
    //!             ))
    //!         });
    //!     let server = TestServer::start(ServerConfig::new().engine(engine).row_key("event_id")).await?;
    //!
    //!     // The code under test takes an executor; give it one on the server's client.
    //!     let executor = AthenaExecutor::new(
    //!         server.client(),
    //!         ExecutorConfig::default()
    //!             .output_location("s3://my-athena-results/")
    //!             .poll(PollConfig::fixed(Duration::from_millis(5))),
    //!     );
    //!     let report = executor
    //!         .ensure_table_for::<McpEvent>(EnsureOptions::new().create_database())
    //!         .await?;
    //!     assert_eq!(report.changes(), 2); // CREATE DATABASE, CREATE TABLE
    //!     let rows = vec![McpEvent { event_id: "e1".into(), latency_ms: 120, error: None }];
    //!     executor.append_rows(&rows, AppendOptions::new("load-1"), |_| {}).await?;
    //!     let read: Vec<McpEvent> = executor.fetch_all(&McpEvent::select().build()?).await?;
    //!     assert_eq!(read, rows);
    //!
    //!     // What reached "Athena": each statement, and the rows it committed.
    //!     let ledger = server.ledger();
    //!     assert_eq!(ledger.executions_of("INSERT INTO").len(), 1);
    //!     assert_eq!(ledger.rows_committed(), 1);
    //!     assert!(ledger.duplicates().is_empty());
    //!     Ok(())
    //! }
    //! ```
    pub use iceberg_sql_test_server::*;
}

pub use append::{
    AppendError, AppendOptions, AppendProgress, AppendReport, BatchReport, BatchState,
};
pub use config::{Backoff, Encryption, ExecutorConfig, PollConfig, Resubmit, RetryPolicy};
pub use daily::{FilledDay, Materialized};
pub use error::{
    ApiError, ApiErrorClass, CommitState, Error, ErrorCategory, FailureKind, QueryError,
    QueryState, Result, AFTER_WRITE_ERROR_TYPES,
};
pub use evidence::Evidence;
pub use executor::{AthenaExecutor, BeforeResubmit, CancelHandle, ExecuteOptions};
/// Result rows and decoding: the core crate's one row model, re-exported (`FromRow` is
/// both the trait and its derive).
pub use iceberg_sql::record::{ColumnMeta, Columns, Row};
pub use iceberg_sql::FromRow;
pub use lifecycle::{
    EnsureOptions, EnsureReport, LiveDefinition, MaintenanceOptions, MaintenanceReport,
};
pub use outcome::{estimate_cost_usd, QueryOutcome, QueryStats, Run, RunEnd, BYTES_PER_TB};
pub use results::rows_from_result_set;
pub use submission::UncheckedSql;

/// The Arrow crate whose `RecordBatch` the `arrow` feature's methods return.
#[cfg(feature = "arrow")]
#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
pub use arrow_array;

/// The SDK this crate is built on, re-exported so callers use the same version.
pub use aws_sdk_athena;
