//! # iceberg-sql
//!
//! Define Apache Iceberg tables as Rust values and get correct, validated Amazon Athena
//! (or Spark) SQL for the whole life of a table.
//!
//! Every builder ends in `build()` (Athena) or `build_for(dialect)`, which renders the
//! statement for that target and then validates the text (size limit, exactly one statement, a re-parse through our own
//! sqlparser dialect, an allow-list of AST shapes). A [`Statement`] that exists has
//! passed all of it.
//!
//! ```
//! use iceberg_sql::prelude::*;
//!
//! let table = TableDef::builder("analytics", "mcp_events")
//!     .column(Column::new("event_id", IcebergType::String).required())
//!     .column(Column::new("event_ts", IcebergType::Timestamp).required())
//!     .column(Column::new("payload", IcebergType::String))
//!     .partition(PartitionField::new("event_ts", PartitionTransform::Day))
//!     .location("s3://my-datalake/iceberg/mcp_events/")
//!     .build()?;
//!
//! let create = table.create_table().if_not_exists().build()?;
//! assert!(create.sql().starts_with("CREATE TABLE IF NOT EXISTS analytics.mcp_events ("));
//! # Ok::<(), iceberg_sql::Error>(())
//! ```
//!
//! ## Map of the crate
//!
//! | layer | modules |
//! |---|---|
//! | table model (no SQL) | [`model`] (tables, columns, partition spec, properties, location), [`types`], [`value`], [`ident`] (name rules, reserved words) |
//! | records | [`record`] (`SqlType`, `IcebergTable`, result rows), `#[derive(IcebergTable)]` |
//! | typed expressions | [`expr`] (`Col<T, V>` handles, conditions, aggregates, MERGE scopes) |
//! | statement builders | [`ddl`] (CREATE/DROP/SHOW CREATE TABLE), [`dml`] (INSERT with batches, UPDATE, DELETE, MERGE), [`query`] (SELECT, time travel, metadata tables), [`alter`], [`evolve`] (schema-evolution plans, reading live definitions), [`maintenance`] (OPTIMIZE, VACUUM), [`ctas`] (CTAS, UNLOAD), [`recipes`] |
//! | targets | [`dialect`] ([`Dialect`]: Athena, Spark; every engine-specific clause, name and refusal; [`Grammar`]: quoting, type names, literals per parser) |
//! | rendering | [`render`] (`SqlWriter`: one statement's text, written for one target) |
//! | validation | [`validate`] (size limit, one statement, sqlparser re-parse through our own dialects, allow-list per [`StatementKind`]) |
//! | result | [`Statement`] (SQL text, kind, dialect, `ExecutionParameters`), [`Error`] |

#![warn(missing_docs)]

pub mod alter;
pub mod ctas;
pub mod ddl;
pub mod dialect;
pub mod dml;
pub mod error;
pub mod evolve;
pub mod expr;
pub mod ident;
pub mod maintenance;
pub mod model;
pub mod query;
pub mod recipes;
pub mod record;
pub mod render;
pub mod statement;
pub mod types;
pub mod validate;
pub mod value;

pub use dialect::{Dialect, Grammar};
pub use error::{Error, ErrorKind, Result};
pub use expr::Col;
pub use model::{Column, Location, PartitionField, PartitionTransform, TableDef, TableName};
pub use model::{Compression, FileFormat, TableProperties, TableProperty};
pub use record::{IcebergTable, Row, SqlType};
pub use statement::{Statement, StatementKind, TableStatements, MAX_QUERY_BYTES};
pub use types::{IcebergType, StructField};
pub use value::{Decimal, Value};

/// `#[derive(IcebergTable)]`: see [`iceberg_sql_derive`].
#[cfg(feature = "derive")]
pub use iceberg_sql_derive::IcebergTable;

/// Everything a typical user needs, in one import.
pub mod prelude {
    pub use crate::ddl::{CreateTable, DropTable};
    pub use crate::dialect::Dialect;
    pub use crate::dml::MergeSource;
    pub use crate::error::{Error, ErrorKind};
    pub use crate::evolve::{evolve, EvolveOptions};
    pub use crate::expr::Col;
    pub use crate::expr::{
        case_when, count_all, current_date, current_timestamp, days, hours, minutes, months, param,
        seconds, source, target, years, Cond, SqlExpr, TimeUnit,
    };
    pub use crate::maintenance::VacuumRetention;
    pub use crate::model::{
        Column, Compression, FileFormat, Location, PartitionField, PartitionTransform, TableDef,
        TableName, TableProperties, TableProperty,
    };
    pub use crate::query::{Select, Snapshot};
    pub use crate::record::{IcebergTable, Row, SqlType};
    pub use crate::statement::{Statement, StatementKind, TableStatements};
    pub use crate::types::IcebergType;
    pub use crate::value::Value;
    #[cfg(feature = "derive")]
    pub use iceberg_sql_derive::IcebergTable;
}
