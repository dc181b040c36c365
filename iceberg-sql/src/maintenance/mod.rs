//! Table upkeep: compaction (`OPTIMIZE`) and snapshot expiry (`VACUUM`)
//! (<https://docs.aws.amazon.com/athena/latest/ug/querying-iceberg-data-optimization.html>).
//!
//! | | Athena | Spark (Iceberg procedures) |
//! |---|---|---|
//! | compact | `OPTIMIZE db.t REWRITE DATA USING BIN_PACK [WHERE ...]` | `CALL local.system.rewrite_data_files(table => 'db.t'[, where => '...'][, options => map(...)])` |
//! | expire | `VACUUM db.t` | `CALL local.system.expire_snapshots(table => 'db.t')` |
//!
//! Rules carried by the builders:
//!
//! * `OPTIMIZE ... WHERE` may only name **identity** partition columns. A predicate on
//!   a non-partition column fails in Athena; one on the source of a hidden transform
//!   (`event_ts` under `day(event_ts)`) is reported to fail with `GENERIC_INTERNAL_ERROR`.
//! * `OPTIMIZE` takes no options in Athena: its rewrite thresholds are the
//!   `optimize_rewrite_*` table properties. Spark's `rewrite_data_files` options
//!   (`min-input-files`, ...) are set with [`Optimize::spark_option`], which Athena refuses.
//! * `VACUUM` takes no options in Athena (`RETAIN n DAYS` is Delta Lake syntax).
//!   Retention lives in the `vacuum_*` table properties: [`Vacuum::retain_days`] plus
//!   [`Vacuum::build_steps`] gives the `ALTER TABLE ... SET TBLPROPERTIES` + `VACUUM`
//!   pair (two API calls).
//! * Neither statement can quote names in Athena (nor a Spark procedure's table
//!   argument), so names that would need quotes are refused.
//!
//! Spark procedures are called through a catalog; the default is [`DEFAULT_SPARK_CATALOG`]
//! (`local`, the catalog of the end-to-end test engine; it is rendered `` `local` ``
//! because `local` is a reserved word in Athena's DDL list, which our Spark quoting
//! also honours). Glue/EMR users typically set `.spark_catalog("glue_catalog")`.

use chrono::{DateTime, Utc};

use crate::dialect::typing::TypeScope;
use crate::dialect::{Dialect, OptimizeSpec, VacuumSpec};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Expr, IntoOperand};
use crate::model::{PartitionTransform, TableDef, TableProperties, TableProperty};
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};
use crate::value::Value;

/// The Spark catalog `CALL <catalog>.system.<procedure>` uses unless told otherwise.
pub const DEFAULT_SPARK_CATALOG: &str = "local";

/// Builds `OPTIMIZE ... REWRITE DATA USING BIN_PACK` (Spark:
/// `CALL <catalog>.system.rewrite_data_files`).
///
/// Conditions are typed over the table's columns (a record type's column constants, or
/// [`Col`](crate::Col)s declared for the table) and may read only identity partition
/// columns.
///
/// ```
/// use iceberg_sql::prelude::*;
/// // The table's columns, for typed conditions (a derived record type has these).
/// struct Events;
/// const EVENT_DATE: Col<Events, chrono::NaiveDate> = Col::new("event_date");
/// const EVENT_TS: Col<Events, chrono::NaiveDateTime> = Col::new("event_ts");
/// let t = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("event_id", IcebergType::String))
///     .column(Column::new("event_ts", IcebergType::Timestamp))
///     .column(Column::new("event_date", IcebergType::Date))
///     .partition(PartitionField::identity("event_date"))
///     .partition(PartitionField::new("event_ts", PartitionTransform::Hour))
///     .location("s3://my-datalake/iceberg/mcp_events/")
///     .build()?;
/// assert_eq!(t.optimize().build()?.sql(),
///            "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK");
/// assert_eq!(t.optimize().build_for(Dialect::Spark)?.sql(),
///            "CALL `local`.system.rewrite_data_files(table => 'analytics.mcp_events')");
/// let day = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
/// assert_eq!(
///     t.optimize().filter(EVENT_DATE.ge(day)).build()?.sql(),
///     "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK WHERE event_date >= DATE '2026-10-01'"
/// );
/// // Spark only: rewrite options, e.g. compact even a partition with a single small file.
/// assert_eq!(
///     t.optimize().spark_option("min-input-files", "1").build_for(Dialect::Spark)?.sql(),
///     "CALL `local`.system.rewrite_data_files(table => 'analytics.mcp_events', \
///      options => map('min-input-files', '1'))"
/// );
/// let err = t.optimize().spark_option("min-input-files", "1").build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Unsupported); // Athena's OPTIMIZE takes no options
/// // A hidden-partition source column is refused, with what to do instead.
/// let err = t.optimize().filter(EVENT_TS.ge(day.and_hms_opt(0, 0, 0).unwrap()))
///     .build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Unsupported);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
///
/// A value of the wrong type does not compile:
///
/// ```compile_fail
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::*;
/// # struct Events;
/// # const EVENT_DATE: Col<Events, chrono::NaiveDate> = Col::new("event_date");
/// # fn f(t: &TableDef) {
/// let _ = t.optimize().filter(EVENT_DATE.eq("2026-10-01"));
/// # }
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Optimize<'a> {
    table: &'a TableDef,
    catalog: String,
    filter: Option<Expr>,
    spark_options: Vec<(String, String)>,
}

impl TableDef {
    /// Starts an `OPTIMIZE` (compaction) of this table.
    pub fn optimize(&self) -> Optimize<'_> {
        Optimize {
            table: self,
            catalog: DEFAULT_SPARK_CATALOG.to_string(),
            filter: None,
            spark_options: Vec::new(),
        }
    }

    /// Starts a `VACUUM` (snapshot expiry and orphan-file removal) of this table.
    pub fn vacuum(&self) -> Vacuum<'_> {
        Vacuum {
            table: self,
            catalog: DEFAULT_SPARK_CATALOG.to_string(),
            retention: None,
            older_than: None,
            retain_last: None,
        }
    }
}

impl<'a> Optimize<'a> {
    /// The Spark catalog for `CALL <catalog>.system...` (default [`DEFAULT_SPARK_CATALOG`]).
    pub fn spark_catalog(mut self, catalog: impl Into<String>) -> Self {
        self.catalog = catalog.into();
        self
    }

    /// Spark only: a `rewrite_data_files` option, rendered in
    /// `options => map('key', 'value', ...)` in the order given (e.g.
    /// `("min-input-files", "1")`, `("target-file-size-bytes", "134217728")`). Keys and
    /// values must be plain `[a-z0-9.-]` text; Iceberg checks the option itself when the
    /// procedure runs. On Athena, setting any option is an error: Athena's OPTIMIZE takes
    /// no options, its thresholds are the `optimize_rewrite_*` table properties.
    pub fn spark_option(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.spark_options.push((key.into(), value.into()));
        self
    }

    /// `None` when `name` is an identity partition column; otherwise why not.
    fn partition_column_error(&self, name: &str) -> Option<Error> {
        let t = self.table;
        if t.column(name).is_none() {
            return Some(Error::new(
                ErrorKind::UnknownColumn,
                format!(
                    "OPTIMIZE WHERE: table `{}` has no column `{name}`",
                    t.name()
                ),
            ));
        }
        let fields: Vec<_> = t
            .partition_spec()
            .iter()
            .filter(|p| p.source == name)
            .collect();
        if fields
            .iter()
            .any(|p| p.transform == PartitionTransform::Identity)
        {
            None
        } else if let Some(p) = fields.first() {
            Some(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "OPTIMIZE WHERE on `{name}`: `{name}` is the source of the hidden partition `{p}` of `{}`, \
                         not an identity partition column; Athena's OPTIMIZE accepts only identity partition \
                         columns (a predicate on a transform's source fails with GENERIC_INTERNAL_ERROR)",
                        t.name()
                    ),
                )
                .with_hint(
                    "optimize the whole table (no filter; the rewrite thresholds keep it cheap), or add an \
                     identity partition column (e.g. `event_date date`, PARTITIONED BY (event_date, ...)) \
                     and filter on that",
                ),
            )
        } else {
            Some(
                Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "OPTIMIZE WHERE on `{name}`: `{name}` is not a partition column of `{}`; \
                         Athena's OPTIMIZE accepts only identity partition columns in WHERE",
                        t.name()
                    ),
                )
                .with_hint(
                    "optimize the whole table (no filter), or filter on an identity partition column",
                ),
            )
        }
    }

    /// The filter's checks: only identity partition columns of the table, no
    /// parameters or aggregates, and strings the statement's grammar can hold (Athena
    /// parses OPTIMIZE with its Hive DDL parser, which cannot take quotes, backslashes or
    /// control characters).
    fn check_filter(&self, dialect: Dialect) -> Result<()> {
        let Some(cond) = &self.filter else {
            return Ok(());
        };
        let mut errors = Vec::new();
        for (scope, name) in cond.columns() {
            if scope != crate::expr::Scope::Table {
                errors.push(Error::new(
                    ErrorKind::InvalidTable,
                    "OPTIMIZE WHERE: MERGE source/target columns cannot appear here",
                ));
            } else if let Some(e) = self.partition_column_error(name) {
                if !errors.contains(&e) {
                    errors.push(e);
                }
            }
        }
        if cond.contains_param() {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                "OPTIMIZE takes no `?` parameters; use a literal value",
            ));
        }
        if cond.contains_aggregate() {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                "an aggregate cannot appear in OPTIMIZE WHERE",
            ));
        }
        if dialect
            .grammar(StatementKind::Optimize)
            .restricts_string_literals()
        {
            cond.walk(&mut |e| {
                if let Expr::Literal {
                    value: Value::String(text),
                    ..
                } = e
                {
                    if let Err(err) = crate::model::check_ddl_text("an OPTIMIZE WHERE string value", text) {
                        errors.push(err.with_hint(
                            "OPTIMIZE goes through Athena's Hive DDL parser: a value with a quote, \
                             backslash or control character cannot be written safely; optimize the whole table",
                        ));
                    }
                }
            });
        }
        Error::check_all(errors)
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let rules = dialect.rules();
        let mut spec = OptimizeSpec {
            table: self.table.name(),
            filter: None,
            options: &self.spark_options,
            catalog: &self.catalog,
        };
        rules.check_optimize(&spec)?;
        self.check_filter(dialect)?;
        let scope = TypeScope::table(self.table.columns());
        let filter = self
            .filter
            .as_ref()
            .map(|f| rules.check_condition(&scope, f, "OPTIMIZE WHERE clause"))
            .transpose()?;
        spec.filter = filter.as_ref();
        let mut w = SqlWriter::new(StatementKind::Optimize, dialect);
        rules.write_optimize(&mut w, &spec)?;
        w.finish()
    }
}

/// Restricts compaction to files with rows where the condition holds; it may read only
/// identity partition columns (`S` is any scope: a record type's columns, or
/// [`Col`](crate::Col)s declared for the table).
impl<S> Filter<S> for Optimize<'_> {
    fn filter<C: IntoOperand<S, bool>>(mut self, cond: C) -> Self {
        self.filter = Expr::and_then(self.filter.take(), cond.into_operand());
        self
    }
}

/// Snapshot retention for `VACUUM`, as Athena's `vacuum_*` table properties.
///
/// ```
/// use iceberg_sql::maintenance::VacuumRetention;
/// let r = VacuumRetention::days(7).min_snapshots_to_keep(1);
/// assert_eq!(r.max_snapshot_age_seconds, Some(604_800));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct VacuumRetention {
    /// `vacuum_max_snapshot_age_seconds`: snapshots (and orphan files) older than this go.
    pub max_snapshot_age_seconds: Option<u64>,
    /// `vacuum_min_snapshots_to_keep`: kept regardless of age (wins over the age).
    pub min_snapshots_to_keep: Option<u32>,
    /// `vacuum_max_metadata_files_to_keep`.
    pub max_metadata_files_to_keep: Option<u32>,
}

impl VacuumRetention {
    /// Keep snapshots for `days` days.
    pub fn days(days: u32) -> Self {
        VacuumRetention {
            max_snapshot_age_seconds: Some(u64::from(days) * 86_400),
            ..Self::default()
        }
    }

    /// Keep snapshots for `seconds` seconds.
    pub fn seconds(seconds: u64) -> Self {
        VacuumRetention {
            max_snapshot_age_seconds: Some(seconds),
            ..Self::default()
        }
    }

    /// Also keep at least `n` snapshots.
    pub fn min_snapshots_to_keep(mut self, n: u32) -> Self {
        self.min_snapshots_to_keep = Some(n);
        self
    }

    /// Also keep at most `n` old metadata files.
    pub fn max_metadata_files_to_keep(mut self, n: u32) -> Self {
        self.max_metadata_files_to_keep = Some(n);
        self
    }

    /// The table properties that carry this retention; set them with
    /// `table.alter().set_properties(retention.properties())`.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::maintenance::VacuumRetention;
    /// let t = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
    /// assert_eq!(
    ///     t.alter().set_properties(VacuumRetention::days(7).properties()).build()?.sql(),
    ///     "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')"
    /// );
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn properties(&self) -> TableProperties {
        let mut p = TableProperties::new();
        if let Some(s) = self.max_snapshot_age_seconds {
            p.set(TableProperty::VacuumMaxSnapshotAgeSeconds(s));
        }
        if let Some(n) = self.min_snapshots_to_keep {
            p.set(TableProperty::VacuumMinSnapshotsToKeep(n));
        }
        if let Some(n) = self.max_metadata_files_to_keep {
            p.set(TableProperty::VacuumMaxMetadataFilesToKeep(n));
        }
        p
    }
}

/// Builds `VACUUM db.t` (Spark: `CALL <catalog>.system.expire_snapshots`).
///
/// Athena's `VACUUM` has no options. Asking for retention is answered with two
/// statements from [`Vacuum::build_steps`]; `build()` refuses it and says so.
///
/// ```
/// use iceberg_sql::prelude::*;
/// let t = TableDef::builder("analytics", "mcp_events")
///     .column(Column::new("event_id", IcebergType::String))
///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
/// assert_eq!(t.vacuum().build()?.sql(), "VACUUM analytics.mcp_events");
/// assert_eq!(t.vacuum().build_for(Dialect::Spark)?.sql(),
///            "CALL `local`.system.expire_snapshots(table => 'analytics.mcp_events')");
/// // The common `VACUUM ... RETAIN 7 DAYS` (Delta Lake syntax), as Athena takes it:
/// let steps = t.vacuum().retain_days(7).build_steps()?;
/// assert_eq!(steps[0].sql(),
///     "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')");
/// assert_eq!(steps[1].sql(), "VACUUM analytics.mcp_events");
/// assert_eq!(t.vacuum().retain_days(7).build().unwrap_err().kind(), ErrorKind::Unsupported);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Vacuum<'a> {
    table: &'a TableDef,
    catalog: String,
    retention: Option<VacuumRetention>,
    older_than: Option<DateTime<Utc>>,
    retain_last: Option<u32>,
}

impl<'a> Vacuum<'a> {
    /// The Spark catalog for `CALL <catalog>.system...` (default [`DEFAULT_SPARK_CATALOG`]).
    pub fn spark_catalog(mut self, catalog: impl Into<String>) -> Self {
        self.catalog = catalog.into();
        self
    }

    /// Retain snapshots for `days` days: set through the table's
    /// `vacuum_max_snapshot_age_seconds` (use [`Vacuum::build_steps`]).
    pub fn retain_days(self, days: u32) -> Self {
        let r = self.retention.unwrap_or_default();
        self.retention(VacuumRetention {
            max_snapshot_age_seconds: Some(u64::from(days) * 86_400),
            ..r
        })
    }

    /// Retention through the `vacuum_*` table properties (use [`Vacuum::build_steps`]).
    pub fn retention(mut self, retention: VacuumRetention) -> Self {
        self.retention = Some(retention);
        self
    }

    /// Spark only: `older_than => TIMESTAMP '...'`. Athena's VACUUM takes no options.
    ///
    /// The cutoff is cut to microseconds (a SQL timestamp literal holds no more): snapshot
    /// times are whole milliseconds, so no snapshot moves across it, and
    /// `older_than(Utc::now())` works as written.
    pub fn older_than(mut self, ts: DateTime<Utc>) -> Self {
        use chrono::SubsecRound;
        self.older_than = Some(ts.trunc_subsecs(6));
        self
    }

    /// Spark and Trino: `retain_last => n` (Spark's `expire_snapshots` CALL; Trino's
    /// `ALTER TABLE … EXECUTE expire_snapshots`, an argument Trino added in November
    /// 2025, <https://github.com/trinodb/trino/pull/27362>: an older Trino refuses it).
    /// Athena's VACUUM takes no options.
    pub fn retain_last(mut self, n: u32) -> Self {
        self.retain_last = Some(n);
        self
    }

    fn spec(&self) -> VacuumSpec<'_> {
        VacuumSpec {
            table: self.table.name(),
            retention: self.retention.as_ref(),
            older_than: self.older_than,
            retain_last: self.retain_last,
            catalog: &self.catalog,
        }
    }

    fn render(&self, dialect: Dialect, retention_in_steps: bool) -> Result<Statement> {
        let mut w = SqlWriter::new(StatementKind::Vacuum, dialect);
        dialect
            .rules()
            .write_vacuum(&mut w, &self.spec(), retention_in_steps)?;
        w.finish()
    }

    /// Checks, renders and validates the one statement for Athena. With a retention
    /// set, Athena refuses (VACUUM has no RETAIN) and points at [`Vacuum::build_steps`].
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// As [`Vacuum::build`], for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        self.render(dialect, false)
    }

    /// The statements to run in order for Athena, one API call each: with a retention,
    /// `ALTER TABLE ... SET TBLPROPERTIES (...)` then the vacuum; otherwise the vacuum.
    pub fn build_steps(&self) -> Result<Vec<Statement>> {
        self.build_steps_for(Dialect::default())
    }

    /// As [`Vacuum::build_steps`], for `dialect`. On Trino the retention's age and
    /// number of snapshots are `expire_snapshots` arguments (only
    /// `max_metadata_files_to_keep` is a table property, set first), and a last step,
    /// `ALTER TABLE … EXECUTE remove_orphan_files`, removes the orphan files Athena's
    /// VACUUM removes too.
    pub fn build_steps_for(&self, dialect: Dialect) -> Result<Vec<Statement>> {
        let mut out = Vec::new();
        if let Some(r) = &self.retention {
            if r.properties().is_empty() {
                return Err(Error::new(
                    ErrorKind::InvalidProperty,
                    "the retention sets no property",
                ));
            }
            let properties = dialect.rules().vacuum_step_properties(r);
            if !properties.is_empty() {
                out.push(
                    self.table
                        .alter()
                        .set_properties(properties)
                        .build_for(dialect)?,
                );
            }
        }
        out.push(self.render(dialect, true)?);
        let mut w = SqlWriter::new(StatementKind::Vacuum, dialect);
        if dialect.rules().write_orphan_removal(&mut w, &self.spec())? {
            out.push(w.finish()?);
        }
        Ok(out)
    }
}
