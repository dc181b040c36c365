//! # iceberg-sql-athena
//!
//! Runs [`iceberg_sql::Statement`]s on Amazon Athena: start with an idempotency token,
//! poll with adaptive backoff, stop on timeout or when the future is dropped, retry
//! what is safe to retry, and read results as a stream of rows decoded into your types.
//!
//! ```no_run
//! use iceberg_sql::prelude::*;
//! use iceberg_sql_athena::{AthenaExecutor, ExecutorConfig, FromRow, Row, DecodeError};
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
//! let created = executor.ensure_table(&table.create_table().if_not_exists().build()?).await?;
//! println!("{} took {:?}, cost ${:.6}", created.query_id, created.stats.engine_time, created.stats.cost_usd);
//!
//! // Results of a SELECT (built with a SELECT builder) decode into your own type:
//! struct Event { event_id: String, payload: Option<String> }
//! impl FromRow for Event {
//!     fn from_row(row: &Row) -> Result<Self, DecodeError> {
//!         Ok(Event { event_id: row.try_get("event_id")?, payload: row.try_get("payload")? })
//!     }
//! }
//! # let select = table.create_table().build()?;
//! let outcome = executor.execute(&select).await?;
//! let events: Vec<Event> = executor.decode::<Event>(&outcome).try_collect().await?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod config;
mod error;
mod executor;
mod outcome;
mod row;
mod token;

pub use config::{Encryption, ExecutorConfig, PollConfig, RetryPolicy};
pub use error::{
    AppendError, DecodeError, Error, ErrorCategory, FailureKind, QueryError, QueryState, Result,
};
pub use executor::{rows_from_result_set, AppendProgress, AthenaExecutor, MaintenanceReport};
pub use outcome::{estimate_cost_usd, QueryOutcome, QueryStats, Run, RunEnd, BYTES_PER_TB};
pub use row::{ColumnMeta, Columns, FromCell, FromRow, Row};

/// The SDK this crate is built on, re-exported so callers use the same version.
pub use aws_sdk_athena;
