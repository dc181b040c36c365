//! # iceberg-sql
//!
//! Define Apache Iceberg tables as Rust values and get correct, validated Amazon Athena
//! (or Spark, or Trino) SQL for the whole life of a table.
//!
//! Every builder ends in `build()` (Athena) or `build_for(dialect)`, which checks the
//! statement's types with the target's rules, renders it for that target and then
//! validates the text (size limit, exactly one statement, a re-parse by our own parser
//! in the grammar the target reads it with, the shapes its kind allows). A
//! [`Statement`] that exists has passed all of it.
//!
//! ## What "validated" means
//!
//! * **Grammar**: the text parses under the target's grammar and has an allowed shape;
//!   every word any reading of Trino's grammar reserves is quoted, and words it does not
//!   reserve (`limit`, `interval`) are accepted as names.
//! * **Types**: every expression is typed as Athena's engine (Trino) types it, and every
//!   assignment (INSERT, UPDATE SET, MERGE SET/INSERT, CTAS and UNLOAD outputs) and
//!   comparison follows Trino's coercion rules: the builder writes the conversion where
//!   the intent is unambiguous (`CAST(current_timestamp AS timestamp(6))`, `CAST(ts AS
//!   timestamp(3))` for Hive CTAS and UNLOAD) and refuses the statement otherwise, with
//!   the engine's error text and the fix. Spark's rules are lenient.
//! * **Limits**: query size, parameters, decimal precision, interval amounts, timestamp
//!   ranges (no leap second, years 0001-9999), table property ranges, partition
//!   numbers, LIMIT counts, expression depth ([`expr::MAX_EXPR_DEPTH`]).
//! * **Names**: `[a-z0-9_]`, at most 255 bytes; OPTIMIZE and VACUUM refuse names they
//!   cannot quote.
//!
//! Not checked: what depends on data or the live catalog (missing tables, a failing
//! CAST or overflow on a row, partitions written by INSERT … SELECT), permissions, and
//! which Trino release Athena runs (the form valid on every release is written).
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
//! | table model (no SQL) | [`model`] (tables, columns, partition spec, properties, location), [`types`], [`value`], [`ident`] (name rules) |
//! | records and results | [`record`] (`SqlType`, `IcebergTable`, result rows and `FromRow`, Athena's cell text), `#[derive(IcebergTable)]`, `#[derive(FromRow)]`; with features: `serde` (`record::serde`, `TableDef` as JSON), `arrow` (`arrow`: Arrow record batches), `tz` (named zones in timestamptz cells) |
//! | typed expressions | [`expr`] (`Col<T, V>` handles, [`ExpressionMethods`](expr::ExpressionMethods), conditions, aggregates, MERGE scopes), [`dsl`] (SQL functions: `param`, `source`, `count_all`, `days`, …) |
//! | statement builders | [`ddl`] (CREATE/DROP/SHOW CREATE TABLE, DESCRIBE; CREATE/DROP DATABASE, SHOW TABLES; CREATE/DROP VIEW), [`dml`] (INSERT with batches, UPDATE, DELETE, MERGE), [`query`] (SELECT, time travel, metadata tables), [`alter`], [`evolve`] (schema-evolution plans, reading live definitions), [`maintenance`] (OPTIMIZE, VACUUM), [`ctas`] (CTAS, UNLOAD), [`recipes`], [`load`] (the statements of a staged load); entry points on a table: [`TableStatements`], [`TableName`], [`TableDef`], [`DatabaseName`] |
//! | targets | [`dialect`] ([`Dialect`]: Athena, Spark, Trino, Athena on S3 Tables; every engine-specific clause, name and refusal; [`Grammar`]: quoting, reserved words, type names, literals per parser) |
//! | rendering | [`render`] (`SqlWriter`: one statement's text, written for one target) |
//! | validation | [`validate`] (size limit, one statement, a re-parse by our own parser in the target's grammar, the shapes each [`StatementKind`] allows; [`validate::inspect`]: what the parser read, as plain values; with feature `sqlparser`: sqlparser reads every built statement too, `validate::read_with_sqlparser`) |
//! | result | [`Statement`] (SQL text, kind, dialect, `ExecutionParameters`), [`Error`] |
//!
//! The rules the derive also checks at compile time (names, DDL text, locations, table
//! properties, which transform takes which type) live in the `iceberg-sql-rules` crate,
//! which both depend on; this crate words their verdicts as [`Error`]s.
//!
//! ## Architecture
//!
//! ```text
//! iceberg-sql-rules/         rules shared with the derive (one copy of each)
//! iceberg-sql-derive/        #[derive(IcebergTable)], #[derive(FromRow)]
//! iceberg-sql/src/
//!   model/ types.rs value.rs ident.rs             what a table is; no SQL
//!   record/ arrow.rs                              rows in and out: SqlType, Row, FromRow
//!   engine/                                       Trino's type model: types, coercions, casts, literals
//!   expr/ dsl.rs                                  typed expressions and SQL functions
//!   statement/ kind.rs                            StatementKind (what targets and the validator ask)
//!              mod.rs entry.rs                    Statement, Filter; TableStatements (entry points)
//!   ddl/ dml/ query/ alter/ evolve/               builders: describe a statement, check its meaning
//!   maintenance/ ctas/ load/ recipes.rs
//!   dialect/  mod.rs                              Dialect, the DialectRules trait, Dialect::rules
//!             athena.rs spark.rs trino.rs         one file per target (Athena is the default)
//!             athena_s3_tables.rs
//!             typing.rs athena_types.rs           type rules: checked values; Athena's (Trino's) rules
//!             spark_parity.rs                     Spark text with Athena's meaning
//!             grammar/                            quoting, reserved words, types, literals
//!   render/                                       SqlWriter, comma lists
//!   validate/ lexer/ prepass.rs parser/           the validator: tokens, token checks, our parser
//!             check/ literals.rs values.rs        the tree's checks; INSERT rows' recognizer
//!             dialects/<target>.rs                each target's statement shapes
//!             sqlparser_reading.rs                (feature `sqlparser`) sqlparser's own reading
//! ```
//!
//! A statement's way from builder to text:
//!
//! 1. A builder (`Update`, `CreateTable`, …) collects the statement; `build_for(dialect)`
//!    (or `build()`, for Athena) checks what it means against the typed model.
//! 2. It writes the text into a [`render::SqlWriter`] for that [`Dialect`]. Where
//!    engines differ it asks the target's rules (a clause, a procedure call, a refusal);
//!    no builder tests which dialect it has. Names, types and literals are spelled by the
//!    [`Grammar`] the target parses that statement kind with.
//! 3. [`SqlWriter::finish`](render::SqlWriter::finish) hands the text to [`validate`]: size
//!    limit, one statement, a re-parse by our own parser in the grammar the target
//!    reads the kind with, and the shapes the kind allows.
//! 4. Only then is there a [`Statement`].
//!
//! Adding a target engine:
//!
//! 1. `src/dialect/<target>.rs`: a unit struct implementing the crate-internal
//!    `DialectRules` trait; `name` and `syntax` are required, every other method defaults to Athena's behaviour, so
//!    override only what differs.
//! 2. `src/dialect/mod.rs`: a [`Dialect`] variant and its line in `Dialect::rules`.
//! 3. `src/validate/dialects/<target>.rs`: its `TargetSyntax` (the CREATE TABLE,
//!    maintenance, UNLOAD and staging shapes it accepts), declared in
//!    `validate/dialects/mod.rs`.
//! 4. Its line in `tests/targets.rs` (every statement kind rendered or refused, one
//!    snapshot per target). No builder changes.
//! 5. Only if no existing [`Grammar`] spells its names, types and literals: a new
//!    `Grammar` variant, with its arms in `dialect/grammar/` and the validator.
//!
//! The two examples: `dialect/trino.rs` with `validate/dialects/trino.rs` (another
//! engine: Trino grammar for every statement, `WITH (…)` properties, `ALTER TABLE …
//! EXECUTE`) and `dialect/athena_s3_tables.rs` with `validate/dialects/athena_s3_tables.rs`
//! (Athena over S3 table buckets: no LOCATION, no OPTIMIZE/VACUUM, its catalog checked
//! through [`Dialect::check_execution_catalog`]).

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod alter;
#[cfg(feature = "arrow")]
#[cfg_attr(docsrs, doc(cfg(feature = "arrow")))]
pub mod arrow;
pub mod ctas;
pub mod ddl;
pub mod dialect;
pub mod dml;
pub mod dsl;
// Athena's engine (Trino) as a type system, used by the builders' type checks.
pub(crate) mod engine;
pub mod error;
pub mod evolve;
pub mod expr;
pub mod ident;
pub mod load;
pub mod maintenance;
pub mod model;
pub mod query;
pub mod recipes;
pub mod record;
pub mod render;
pub mod statement;
#[cfg(feature = "statement-log")]
#[doc(hidden)]
pub mod statement_log;
pub mod types;
pub mod validate;
pub mod value;

pub use dialect::{Dialect, Grammar};
pub use error::{Error, ErrorKind, Result};
pub use expr::Col;
pub use model::{
    Column, DatabaseName, Location, PartitionField, PartitionTransform, TableDef, TableName,
};
pub use model::{Compression, FileFormat, TableProperties, TableProperty};
pub use record::{FromRow, IcebergTable, Row, SqlType};
pub use statement::{Filter, Statement, StatementKind, TableStatements, MAX_QUERY_BYTES};
pub use types::{IcebergType, StructField};
pub use value::{Decimal, Value};

/// `#[derive(IcebergTable)]` and `#[derive(FromRow)]`: see [`iceberg_sql_derive`].
#[cfg(feature = "derive")]
pub use iceberg_sql_derive::{FromRow, IcebergTable};

/// The types and traits a typical user needs, in one import; the SQL functions are in
/// [`dsl`].
pub mod prelude {
    pub use crate::ddl::{CreateTable, DropTable};
    pub use crate::dialect::Dialect;
    pub use crate::dml::MergeSource;
    pub use crate::error::{Error, ErrorKind};
    pub use crate::evolve::{evolve, EvolveOptions};
    pub use crate::expr::{Col, Cond, ExpressionMethods, SqlExpr, TimeUnit};
    pub use crate::maintenance::VacuumRetention;
    pub use crate::model::{
        Column, Compression, DatabaseName, FileFormat, Location, PartitionField,
        PartitionTransform, TableDef, TableName, TableProperties, TableProperty,
    };
    pub use crate::query::{Select, Snapshot};
    pub use crate::record::{FromRow, IcebergTable, Row, SqlType};
    pub use crate::statement::{Filter, Statement, StatementKind, TableStatements};
    pub use crate::types::IcebergType;
    pub use crate::value::Value;
    #[cfg(feature = "derive")]
    pub use iceberg_sql_derive::{FromRow, IcebergTable};
}
