//! # iceberg-sql-athena
//!
//! Runs [`iceberg_sql::Statement`]s on Amazon Athena: start with an idempotency token,
//! poll with adaptive backoff, stop on timeout or when the future is dropped, retry
//! what is safe to retry, and read results as a stream of rows decoded into your types.
//!
//! ```no_run
//! use iceberg_sql::prelude::*;
//! use iceberg_sql_athena::{AthenaExecutor, EnsureOptions, ExecutorConfig, FromRow, Row};
//! use futures::TryStreamExt;
//!
//! # async fn run(sdk_config: aws_types::SdkConfig) -> Result<(), Box<dyn std::error::Error>> {
//! let executor = AthenaExecutor::from_sdk_config(
//!     &sdk_config,
//!     ExecutorConfig::default()
//!         .work_group("analytics-v3")
//!         .output_location("s3://my-athena-results/iceberg-sql/"),
//! );
//!
//! let table = TableDef::builder("analytics", "mcp_events")
//!     .column(Column::new("event_id", IcebergType::String).required())
//!     .column(Column::new("payload", IcebergType::String))
//!     .location("s3://my-datalake/iceberg/mcp_events/")
//!     .build()?;
//! // Create the table, or read its live definition and add what is missing:
//! let report = executor.ensure_table(&table, EnsureOptions::new()).await?;
//! println!("{report}; cost ${:.6}", report.total_stats().cost_usd);
//!
//! // Results of a SELECT (built with a SELECT builder) decode into your own type:
//! #[derive(FromRow)]
//! struct Event { event_id: String, payload: Option<String> }
//! # let select = table.create_table().build()?;
//! let outcome = executor.execute(&select).await?;
//! let events: Vec<Event> = executor.decode::<Event>(&outcome).try_collect().await?;
//! # let _ = Row::untyped(["x"], vec![None]);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod api_error;
mod append;
mod config;
mod error;
mod executor;
mod lifecycle;
mod outcome;
mod token;

pub use append::{
    AppendError, AppendOptions, AppendProgress, AppendReport, BatchReport, BatchState,
};
pub use config::{Backoff, Encryption, ExecutorConfig, PollConfig, Resubmit, RetryPolicy};
pub use error::{
    ApiError, ApiErrorClass, CommitState, Error, ErrorCategory, FailureKind, QueryError,
    QueryState, Result, AFTER_WRITE_ERROR_TYPES,
};
pub use executor::{
    rows_from_result_set, AthenaExecutor, BeforeResubmit, CancelHandle, ExecuteOptions,
};
/// Result rows and decoding: the core crate's one row model, re-exported (`FromRow` is
/// both the trait and its derive).
pub use iceberg_sql::record::{ColumnMeta, Columns, Row};
pub use iceberg_sql::FromRow;
pub use lifecycle::{
    EnsureOptions, EnsureReport, LiveDefinition, MaintenanceOptions, MaintenanceReport,
};
pub use outcome::{estimate_cost_usd, QueryOutcome, QueryStats, Run, RunEnd, BYTES_PER_TB};

/// The SDK this crate is built on, re-exported so callers use the same version.
pub use aws_sdk_athena;
