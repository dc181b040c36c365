//! Target engines: every decision that depends on which engine a statement is for.
//!
//! Builders describe a statement (its table, columns, values, clauses) and check its
//! meaning; they never test which engine they render for. Whatever differs between
//! engines is asked of the target's rules (the crate-internal trait `DialectRules`):
//!
//! * whole-statement or whole-clause hooks where engines differ in structure: the
//!   table clauses of CREATE TABLE and CTAS, SET/UNSET table properties, OPTIMIZE and
//!   VACUUM, metadata table references, time travel, the clauses of CREATE DATABASE;
//! * small hooks where a detail differs: NOT NULL in DDL, `DROP TABLE … PURGE`, the
//!   column aliases of a MERGE source, reading nested values as JSON, the table-name
//!   filter of `SHOW TABLES`, the word for a database (`SCHEMA` on Trino);
//! * refusals, with the engine's reason, for what a target cannot express (`UNLOAD` and
//!   Hive CTAS on Spark, `DROP DATABASE … CASCADE` on Spark and S3 Tables, views on S3
//!   Tables, options of Athena's VACUUM).
//!
//! Athena (`athena.rs`) is the reference: the trait's default methods call its
//! functions, and each other target (`spark.rs`, `trino.rs`, `athena_s3_tables.rs`)
//! overrides only what differs. Text
//! details below the statement level (quoting, type names, literals) belong to the
//! [`Grammar`] a statement kind is written in, which the target chooses per kind.
//!
//! Adding a target: a file here implementing `DialectRules`, a [`Dialect`] variant with
//! its line in `Dialect::rules`, and its validator part in `validate/dialects/`.
//! `trino.rs` (another engine: its own grammar for every statement) and
//! `athena_s3_tables.rs` (the same engine with a different catalog) are the examples.

mod athena;
mod athena_s3_tables;
mod athena_types;
pub mod grammar;
mod spark;
mod spark_parity;
mod trino;
pub(crate) mod typing;

pub use grammar::Grammar;

use chrono::{DateTime, Utc};

use crate::engine::targets::OutputTarget;
use crate::error::{Error, Result};
use crate::expr::Expr;
use crate::maintenance::VacuumRetention;
use crate::model::{
    Column, DatabaseName, FileFormat, Location, PartitionChange, PartitionField, TableDef,
    TableName, TableProperties, TableProperty,
};
use crate::query::{MetadataTable, Snapshot};
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::validate::dialects::TargetSyntax;
use crate::value::Value;
use typing::{AssignIn, Assigned, Checked, TypeScope, Written};

/// The engine a statement is rendered for: pass it to a builder's `build_for`
/// (`build()` renders for [`Dialect::Athena`], the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// Amazon Athena engine v3: Hive-style DDL, Trino-style DML.
    #[default]
    Athena,
    /// Apache Spark 3.5 with Iceberg's SQL extensions (Glue, EMR, local tests).
    Spark,
    /// Trino's Iceberg connector (Trino, Amazon EMR's Trino, Starburst): Trino grammar
    /// for every statement, `WITH (…)` table properties, `ALTER TABLE … EXECUTE`.
    Trino,
    /// Amazon Athena engine v3 on Iceberg tables in an Amazon S3 table bucket: Athena's
    /// SQL, run in the catalog `s3tablescatalog/<table bucket>`
    /// ([`Dialect::check_execution_catalog`]); no LOCATION, OPTIMIZE, VACUUM or table
    /// rename.
    AthenaS3Tables,
}

impl Dialect {
    /// The rules of this target: the one place a [`Dialect`] is mapped to behaviour.
    pub(crate) fn rules(self) -> &'static dyn DialectRules {
        match self {
            Dialect::Athena => &athena::Athena,
            Dialect::Spark => &spark::Spark,
            Dialect::Trino => &trino::Trino,
            Dialect::AthenaS3Tables => &athena_s3_tables::AthenaS3Tables,
        }
    }

    /// The engine's name, for messages (`Athena`, `Spark`, `Trino`, `Athena on S3 Tables`).
    pub fn name(self) -> &'static str {
        self.rules().name()
    }

    /// Checks that a statement for this target may run on Athena with
    /// `QueryExecutionContext.Catalog` = `catalog` (`None`: Athena's default catalog).
    /// [`Dialect::AthenaS3Tables`] statements name `namespace.table` and run only in
    /// their table bucket's catalog `s3tablescatalog/<table bucket>`; a statement for
    /// another target does not run there. Executors call this before they submit.
    ///
    /// ```
    /// use iceberg_sql::Dialect;
    /// assert!(Dialect::AthenaS3Tables.check_execution_catalog(Some("s3tablescatalog/analytics-bucket")).is_ok());
    /// assert!(Dialect::AthenaS3Tables.check_execution_catalog(None).is_err());
    /// assert!(Dialect::Athena.check_execution_catalog(Some("s3tablescatalog/analytics-bucket")).is_err());
    /// assert!(Dialect::Athena.check_execution_catalog(Some("AwsDataCatalog")).is_ok());
    /// ```
    pub fn check_execution_catalog(self, catalog: Option<&str>) -> Result<()> {
        self.rules().check_execution_catalog(catalog)
    }

    /// How many distinct partitions one `INSERT` may write on this target, if it has a
    /// limit: Athena fails an INSERT that writes more than
    /// [`ATHENA_MAX_PARTITIONS`] (`ICEBERG_TOO_MANY_OPEN_PARTITIONS`); Spark has no
    /// such limit. [`Insert::batches`](crate::dml::Insert::batches) keeps to it unless
    /// told otherwise.
    ///
    /// ```
    /// use iceberg_sql::Dialect;
    /// assert_eq!(Dialect::Athena.max_partitions_per_insert(), Some(100));
    /// assert_eq!(Dialect::Spark.max_partitions_per_insert(), None);
    /// ```
    pub fn max_partitions_per_insert(self) -> Option<usize> {
        self.rules().max_partitions_per_insert()
    }

    /// The grammar statements of `kind` are written in for this target.
    ///
    /// ```
    /// use iceberg_sql::{Dialect, Grammar, StatementKind};
    /// assert_eq!(Dialect::Athena.grammar(StatementKind::CreateTable), Grammar::HiveDdl);
    /// assert_eq!(Dialect::Athena.grammar(StatementKind::Select), Grammar::TrinoDml);
    /// assert_eq!(Dialect::Spark.grammar(StatementKind::CreateTable), Grammar::Spark);
    /// assert_eq!(Dialect::Trino.grammar(StatementKind::CreateTable), Grammar::TrinoDml);
    /// ```
    pub fn grammar(self, kind: StatementKind) -> Grammar {
        self.rules().grammar(kind)
    }
}

/// Athena writes at most this many partitions per INSERT
/// (<https://docs.aws.amazon.com/athena/latest/ug/ctas-insert-into.html>).
pub const ATHENA_MAX_PARTITIONS: usize = 100;

/// What an `OPTIMIZE` (compaction) asks for, checked by its builder.
pub(crate) struct OptimizeSpec<'a> {
    /// The table.
    pub table: &'a TableName,
    /// The condition on identity partition columns, if any (checked by the target's
    /// type rules).
    pub filter: Option<&'a Checked<'a>>,
    /// Engine options (Spark's `rewrite_data_files` options), in order.
    pub options: &'a [(String, String)],
    /// The catalog the engine's maintenance procedures live in.
    pub catalog: &'a str,
}

/// What a `VACUUM` (snapshot expiry) asks for.
pub(crate) struct VacuumSpec<'a> {
    /// The table.
    pub table: &'a TableName,
    /// Retention through the table's properties.
    pub retention: Option<&'a VacuumRetention>,
    /// Expire snapshots older than this.
    pub older_than: Option<DateTime<Utc>>,
    /// Keep at least this many snapshots.
    pub retain_last: Option<u32>,
    /// The catalog the engine's maintenance procedures live in.
    pub catalog: &'a str,
}

/// The table clauses of an Iceberg `CREATE TABLE … AS SELECT`.
pub(crate) struct CtasSpec<'a> {
    /// The S3 folder, if given.
    pub location: Option<&'a Location>,
    /// The partition spec.
    pub partitioning: &'a [PartitionField],
    /// Table properties.
    pub properties: &'a TableProperties,
}

/// The staging table of a staged load: Parquet files under `location` with `columns`
/// (already of their staging types).
pub(crate) struct StagingSpec<'a> {
    /// The staging table's name.
    pub table: &'a TableName,
    /// Its columns, of their staging types.
    pub columns: &'a [Column],
    /// The S3 folder holding the Parquet files.
    pub location: &'a Location,
}

/// Writes part of a statement through the writer (used where a hook wraps text the
/// builder writes, e.g. a JSON conversion around an expression).
pub(crate) type WriteFn<'a> = &'a mut dyn FnMut(&mut SqlWriter) -> Result<()>;

/// The rules of one target engine. Default methods are Athena's behaviour (the
/// reference, in `athena.rs`); a target overrides what differs.
///
/// Hooks that write text get the statement's [`SqlWriter`], whose grammar already
/// decides quoting, type names and literals.
pub(crate) trait DialectRules: Sync {
    /// The engine's name, for messages.
    fn name(&self) -> &'static str;

    /// The validator's part of this target: the statement shapes in which targets
    /// differ (`validate/dialects/`).
    fn syntax(&self) -> &'static dyn TargetSyntax;

    // ---- grammar and parameters ------------------------------------------------------

    /// The grammar statements of `kind` are written in.
    fn grammar(&self, kind: StatementKind) -> Grammar {
        athena::grammar(kind)
    }

    /// Whether `kind` may carry `?` execution parameters.
    fn accepts_parameters(&self, kind: StatementKind) -> bool {
        athena::accepts_parameters(kind)
    }

    /// Writes a table reference (`db.t`).
    fn write_table_name(&self, w: &mut SqlWriter, name: &TableName) {
        athena::write_table_name(w, name);
    }

    /// The character the engine's `LIKE` reads as an escape when the statement writes
    /// no `ESCAPE` clause. Athena's (Trino's) LIKE has none: `\` is an ordinary
    /// character (<https://trino.io/docs/current/functions/comparison.html#like>). The
    /// crate's LIKE means Athena's on every target, so a target that returns a
    /// character here gets each occurrence of it in a pattern doubled.
    fn like_default_escape(&self) -> Option<char> {
        None
    }

    // ---- types ----------------------------------------------------------------------
    //
    // Every value a builder writes goes through these (see `typing`): Athena's rules are
    // Trino's (`athena_types.rs`); a target with other rules overrides all of them.

    /// Types a row-level value (a projection, a join key).
    fn check_value<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        athena_types::check_value(scope, expr)
    }

    /// Types a condition of `clause` (`WHERE`, a `WHEN … AND` condition), which must be
    /// boolean.
    fn check_condition<'e>(
        &self,
        scope: &TypeScope<'_>,
        expr: &'e Expr,
        clause: &str,
    ) -> Result<Checked<'e>> {
        athena_types::check_condition(scope, expr, clause)
    }

    /// Types an `ORDER BY` key.
    fn check_sort_key<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        athena_types::check_sort_key(scope, expr)
    }

    /// Types a `GROUP BY` key.
    fn check_group_key<'e>(&self, scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
        athena_types::check_group_key(scope, expr)
    }

    /// Checks that two join keys (name, type) compare as one type.
    fn check_join_keys(
        &self,
        left: (&str, &IcebergType),
        right: (&str, &IcebergType),
    ) -> Result<()> {
        athena_types::check_join_keys(left, right)
    }

    /// Checks the values one statement (or MERGE clause) stores in columns, together,
    /// and leaves in each the value to write (with any conversion the target writes).
    fn check_assignments(
        &self,
        scope: &TypeScope<'_>,
        into: AssignIn,
        pairs: &mut [Assigned<'_, '_>],
    ) -> Result<()> {
        athena_types::check_assignments(scope, into, pairs)
    }

    /// Checks one output column `name` of a CTAS or UNLOAD against what `target` can
    /// store, and returns it to write (converted where that is unambiguous).
    fn check_output<'e>(
        &self,
        scope: &TypeScope<'_>,
        target: OutputTarget,
        name: &str,
        value: Written<'e>,
    ) -> Result<Checked<'e>> {
        athena_types::check_output(scope, target, name, value)
    }

    /// Checks one value of an `INSERT … VALUES` row against its column.
    fn check_row_value(&self, value: &Value, column: &Column) -> Result<()> {
        athena_types::check_row_value(value, column)
    }

    /// Checks that the nested column `column` of type `ty` can be read back as JSON
    /// text (see [`DialectRules::nested_columns_as_json`]).
    fn check_json_read(&self, column: &str, ty: &IcebergType) -> Result<()> {
        athena_types::check_json_read(column, ty)
    }

    // ---- CREATE / DROP TABLE ---------------------------------------------------------

    /// Whether column definitions declare `NOT NULL` (otherwise nullability is a
    /// contract of the typed API only).
    fn declares_not_null(&self) -> bool {
        false
    }

    /// Adds the target's own problems with creating `table` (types it cannot declare,
    /// a missing location) to `errors`, skipping any already listed.
    fn check_create_table(&self, table: &TableDef, errors: &mut Vec<Error>) {
        athena::check_create_table(table, errors);
    }

    /// Checks columns added by `ALTER TABLE … ADD COLUMNS`: Athena's DDL declares no
    /// `timestamptz` column (it would write `timestamp`, another type, silently); targets
    /// that declare `NOT NULL` refuse a required column.
    fn check_added_columns(&self, columns: &[Column]) -> Result<()> {
        athena::check_added_columns(columns)
    }

    /// Writes everything after a CREATE TABLE's column list: partition spec, location,
    /// comment, properties.
    fn write_table_clauses(&self, w: &mut SqlWriter, table: &TableDef) -> Result<()> {
        athena::write_table_clauses(w, table)
    }

    /// Whether `DROP TABLE` needs `PURGE` to delete the table's data as well.
    fn drop_table_purges(&self) -> bool {
        false
    }

    // ---- databases and views ---------------------------------------------------------

    /// The word for a database in `CREATE … ` and `DROP … ` (`DATABASE`; Trino says
    /// `SCHEMA`).
    fn database_keyword(&self) -> &'static str {
        "DATABASE"
    }

    /// Checks `database`'s name for CREATE DATABASE and writes the clauses after it:
    /// the comment (the Glue description) and the default location of its tables.
    fn write_create_database_clauses(
        &self,
        w: &mut SqlWriter,
        database: &DatabaseName,
        comment: Option<&str>,
        location: Option<&Location>,
    ) -> Result<()> {
        let _ = database;
        athena::write_create_database_clauses(w, comment, location)
    }

    /// Refuses `CREATE VIEW` or `DROP VIEW` (`kind`) where the target has no views.
    fn check_view_statement(&self, kind: StatementKind) -> Result<()> {
        let _ = kind;
        Ok(())
    }

    /// Refuses `DESCRIBE FORMATTED` where the engine has only plain `DESCRIBE`.
    fn check_describe_formatted(&self) -> Result<()> {
        Ok(())
    }

    /// Refuses `DROP DATABASE … CASCADE` where it does not do what Athena's does: drop
    /// every table of the database together with its data.
    fn check_drop_database_cascade(&self, database: &DatabaseName) -> Result<()> {
        let _ = database;
        Ok(())
    }

    /// Writes the table-name filter of `SHOW TABLES IN db` (with its leading space);
    /// `pattern` is checked plain text: names, `*` and `|`.
    fn write_show_tables_pattern(&self, w: &mut SqlWriter, pattern: &str) -> Result<()> {
        athena::write_show_tables_pattern(w, pattern)
    }

    // ---- ALTER TABLE -----------------------------------------------------------------

    /// How many columns one `ALTER TABLE … ADD` statement may add (`None`: any number).
    /// A plan that adds more writes one statement per group.
    fn columns_per_add(&self) -> Option<usize> {
        None
    }

    /// Writes the operation adding `columns` (at most [`columns_per_add`] of them,
    /// nullable, at the end).
    ///
    /// [`columns_per_add`]: DialectRules::columns_per_add
    fn write_add_columns(&self, w: &mut SqlWriter, columns: &[Column]) -> Result<()> {
        athena::write_add_columns(w, columns)
    }

    /// Writes the operation renaming column `from` (of type `ty`) to `to`.
    fn write_rename_column(&self, w: &mut SqlWriter, from: &str, to: &str, ty: &IcebergType) {
        athena::write_rename_column(w, from, to, ty);
    }

    /// Writes the operation changing `column`'s type to the wider `to`.
    fn write_widen_column(&self, w: &mut SqlWriter, column: &str, to: &IcebergType) {
        athena::write_widen_column(w, column, to);
    }

    /// Writes the operation setting `properties` (`format` is the table's file format
    /// after the change, which some property names depend on).
    fn write_set_properties(
        &self,
        w: &mut SqlWriter,
        properties: &TableProperties,
        format: FileFormat,
    ) -> Result<()> {
        athena::write_set_properties(w, properties, format, athena::property)
    }

    /// Writes the operation removing the properties `keys` (Athena's key names).
    fn write_unset_properties(
        &self,
        w: &mut SqlWriter,
        keys: &[&'static str],
        format: FileFormat,
    ) -> Result<()> {
        athena::write_unset_properties(w, keys, format, athena::property_key)
    }

    /// Writes `change` of a table's partition spec (`spec`: the whole spec after it)
    /// after `ALTER TABLE t `, where the target has partition evolution; `false`
    /// (nothing written) where it has none.
    fn write_partition_spec_change(
        &self,
        _w: &mut SqlWriter,
        _change: &PartitionChange,
        _spec: &[PartitionField],
    ) -> Result<bool> {
        Ok(false)
    }

    /// Why `ALTER TABLE table {verb} PARTITION FIELD field` is refused.
    fn partition_evolution_refusal(
        &self,
        table: &TableName,
        verb: &str,
        field: &PartitionField,
    ) -> String {
        athena::partition_evolution_refusal(table, verb, field)
    }

    // ---- INSERT ----------------------------------------------------------------------

    /// The most distinct partitions one INSERT may write, if the engine has a limit.
    fn max_partitions_per_insert(&self) -> Option<usize> {
        Some(ATHENA_MAX_PARTITIONS)
    }

    // ---- MERGE -----------------------------------------------------------------------

    /// Whether a MERGE source `(VALUES …) AS source (c1, …)` may carry column aliases;
    /// when it may not, the rows are wrapped in a SELECT that carries them.
    fn merge_source_column_aliases(&self) -> bool {
        true
    }

    // ---- SELECT ----------------------------------------------------------------------

    /// Checks a `LIMIT` row count against what the target's parser reads.
    fn check_limit(&self, rows: u64) -> Result<()> {
        athena::check_limit(self.name(), rows)
    }

    /// The type of the union of two columns at 1-based `position` of a `UNION ALL`
    /// (each side's type where known), or why the engine refuses it: Trino's common
    /// super type.
    fn union_column_type(
        &self,
        position: usize,
        a: Option<&crate::engine::types::EngineType>,
        b: Option<&crate::engine::types::EngineType>,
    ) -> Result<Option<crate::engine::types::EngineType>> {
        athena_types::union_column_type(position, a, b)
    }

    /// Whether `OFFSET n` follows `LIMIT m` (Spark's grammar) rather than coming before
    /// it (Trino's: <https://trino.io/docs/current/sql/select.html#offset-clause>).
    fn offset_after_limit(&self) -> bool {
        false
    }

    /// The most entries `sequence(…)` may make, if the engine limits it: Trino's
    /// 10,000 ("result of sequence function must not have more than 10000 entries":
    /// `SequenceFunction` in trinodb/trino).
    fn max_sequence_entries(&self) -> Option<i64> {
        Some(10_000)
    }

    /// Whether the engine sorts NULLs first when an `ORDER BY` key names no NULL order
    /// (`descending`: the key is `DESC`). Athena (Trino) sorts them last in both
    /// directions (<https://trino.io/docs/current/sql/select.html#order-by-clause>);
    /// the crate's orders mean Athena's, so a target that answers otherwise gets the
    /// NULL order written.
    fn sorts_nulls_first(&self, descending: bool) -> bool {
        let _ = descending;
        false
    }

    /// Writes a time-travel clause after a table name (with its leading space).
    fn write_time_travel(&self, w: &mut SqlWriter, snapshot: &Snapshot) {
        athena::write_time_travel(w, snapshot);
    }

    /// Writes the reference to metadata table `m` of `table`.
    fn write_metadata_table(&self, w: &mut SqlWriter, table: &TableName, m: MetadataTable) {
        athena::write_metadata_table(w, table, m);
    }

    /// The target's expression for column `column` of metadata table `m` when it names
    /// or lacks it differently (rendered `<expr> AS column`); `None` for the same name.
    fn metadata_column(&self, m: MetadataTable, column: &str) -> Option<&'static str> {
        let _ = (m, column);
        None
    }

    /// Whether nested values (list, map, struct) in rows that come back to us are read
    /// as JSON text, because the engine's own text form for them cannot be parsed back.
    fn nested_columns_as_json(&self) -> bool {
        true
    }

    /// Writes the JSON text of the nested value `value` writes.
    fn write_to_json(&self, w: &mut SqlWriter, value: WriteFn<'_>) -> Result<()> {
        athena::write_to_json(w, value)
    }

    /// Writes an aggregate collecting `value` into an array of `element`s: an empty
    /// array, not NULL, when there are no rows.
    fn write_array_agg(
        &self,
        w: &mut SqlWriter,
        element: &IcebergType,
        value: WriteFn<'_>,
    ) -> Result<()> {
        athena::write_array_agg(w, element, value)
    }

    // ---- OPTIMIZE / VACUUM -----------------------------------------------------------

    /// Refuses what the target's compaction cannot express, before the builder checks
    /// the filters.
    fn check_optimize(&self, o: &OptimizeSpec<'_>) -> Result<()> {
        athena::check_optimize(o)
    }

    /// Writes the compaction statement.
    fn write_optimize(&self, w: &mut SqlWriter, o: &OptimizeSpec<'_>) -> Result<()> {
        athena::write_optimize(w, o)
    }

    /// Checks and writes the snapshot-expiry statement. `retention_in_steps` is true when
    /// an `ALTER TABLE … SET TBLPROPERTIES` step before it sets the retention.
    fn write_vacuum(
        &self,
        w: &mut SqlWriter,
        v: &VacuumSpec<'_>,
        retention_in_steps: bool,
    ) -> Result<()> {
        athena::write_vacuum(w, v, retention_in_steps)
    }

    /// The table properties the retention step of `Vacuum::build_steps` sets before the
    /// snapshot expiry: all of the retention's, by default (Athena's `vacuum_*`).
    fn vacuum_step_properties(&self, retention: &VacuumRetention) -> TableProperties {
        retention.properties()
    }

    /// Writes the step after the snapshot expiry that removes orphan files, as Athena's
    /// VACUUM does in the same statement
    /// (<https://docs.aws.amazon.com/athena/latest/ug/vacuum-statement.html>); `false`
    /// when the target has no such step of its own (the default).
    fn write_orphan_removal(&self, _w: &mut SqlWriter, _v: &VacuumSpec<'_>) -> Result<bool> {
        Ok(false)
    }

    // ---- CTAS / UNLOAD ---------------------------------------------------------------

    /// Whether an Iceberg CTAS must name its location.
    fn ctas_requires_location(&self) -> bool {
        true
    }

    /// Refuses a CTAS partition field the target cannot write.
    fn check_ctas_partition(&self, field: &PartitionField) -> Result<()> {
        athena::trino_partitioning(field).map(drop)
    }

    /// Writes an Iceberg CTAS's table clauses, between the table name and the query.
    fn write_ctas_clauses(&self, w: &mut SqlWriter, c: &CtasSpec<'_>) -> Result<()> {
        athena::write_ctas_clauses(w, c)
    }

    /// Refuses a Hive-format CTAS if the target has none.
    fn check_hive_ctas(&self) -> Result<()> {
        Ok(())
    }

    /// Refuses `UNLOAD` if the target has none.
    fn check_unload(&self) -> Result<()> {
        Ok(())
    }

    // ---- running -------------------------------------------------------------------

    /// Checks the Athena catalog (`QueryExecutionContext.Catalog`) a statement is about to
    /// run in; `None` is Athena's default catalog.
    fn check_execution_catalog(&self, catalog: Option<&str>) -> Result<()> {
        athena_s3_tables::refuse_s3_tables_catalog(self.name(), catalog)
    }

    // ---- staged loads ----------------------------------------------------------------

    /// Writes the statement that exposes a staged load's Parquet files as a table.
    fn write_create_staging(&self, w: &mut SqlWriter, s: &StagingSpec<'_>) -> Result<()> {
        athena::write_create_staging(w, s)
    }

    /// Writes the statement that drops a staged load's table (if it exists).
    fn write_drop_staging(&self, w: &mut SqlWriter, table: &TableName) {
        athena::write_drop_staging(w, table);
    }

    /// Writes a reference to the staging table in a DML statement.
    fn write_staging_name(&self, w: &mut SqlWriter, table: &TableName) {
        w.table_name(table);
    }

    /// Writes the value of Iceberg type `ty` from its staged form, which `value`
    /// writes (see `engine::staging` for what each type is staged as).
    fn write_unstaged(
        &self,
        w: &mut SqlWriter,
        ty: &IcebergType,
        value: WriteFn<'_>,
    ) -> Result<()> {
        athena::write_unstaged(w, ty, value, 0)
    }

    /// Writes a `date` from a count of days since 1970-01-01, which `days` writes.
    fn write_date_from_days(&self, w: &mut SqlWriter, days: WriteFn<'_>) -> Result<()> {
        athena::write_date_from_days(w, days)
    }

    /// Writes a value of struct type `ty` from one expression per field, in order
    /// (`field(w, i)` writes field `i`).
    fn write_struct_value(
        &self,
        w: &mut SqlWriter,
        ty: &IcebergType,
        field: &mut dyn FnMut(&mut SqlWriter, usize) -> Result<()>,
    ) -> Result<()> {
        athena::write_struct_value(w, ty, field)
    }

    // ---- reading live definitions ----------------------------------------------------

    /// The Iceberg type of a type name as the engine prints it where that differs from
    /// the common spellings (`None`: the common reading).
    fn live_type(&self, name: &str) -> Option<IcebergType> {
        let _ = name;
        None
    }

    /// The typed property for a property as the engine prints it; `None` for keys that
    /// do not matter to us.
    fn live_property(&self, key: &str, value: &str) -> Result<Option<TableProperty>> {
        athena::live_property(key, value)
    }
}
