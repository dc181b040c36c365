//! Table upkeep: compaction (`OPTIMIZE`) and snapshot expiry (`VACUUM`), reference §6.1-6.2.
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
//! * Neither statement can quote names in Athena, so names that would need quotes are
//!   refused (`ident::require_unquoted`).
//!
//! Spark procedures are called through a catalog; the default is [`DEFAULT_SPARK_CATALOG`]
//! (`local`, the catalog of the end-to-end test engine; it is rendered `` `local` ``
//! because `local` is a reserved word in Athena's DDL list, which our Spark quoting
//! also honours). Glue/EMR users typically set `.spark_catalog("glue_catalog")`.

use chrono::{DateTime, Utc};

use crate::alter::AlterTable;
use crate::dialect::{Dialect, Grammar};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Col, Expr, IntoOperand};
use crate::ident::{check_name, require_unquoted, NameRole};
use crate::model::{PartitionTransform, TableDef, TableName, TableProperties, TableProperty};
use crate::record::SqlType;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};
use crate::types::IcebergType;
use crate::value::{self, Value};

/// The Spark catalog `CALL <catalog>.system.<procedure>` uses unless told otherwise.
pub const DEFAULT_SPARK_CATALOG: &str = "local";

/// A comparison in an `OPTIMIZE ... WHERE` partition predicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `=`
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Cmp {
    fn sql(self) -> &'static str {
        match self {
            Cmp::Eq => "=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

fn names_for(statement: &str, name: &TableName) -> Result<()> {
    name.check()?;
    require_unquoted(&name.database, statement)?;
    require_unquoted(&name.table, statement)
}

fn check_catalog(catalog: &str) -> Result<()> {
    check_name(catalog, NameRole::Database)
        .map_err(|e| Error::new(e.kind(), format!("Spark catalog name: {}", e.message())))
}

/// Writes `CALL <catalog>.system.<procedure>(table => 'db.t'`; the caller closes it.
fn open_call(w: &mut SqlWriter, catalog: &str, procedure: &str, table: &TableName) {
    w.push("CALL ")
        .ident(catalog)
        .push(".system.")
        .push(procedure)
        .push("(table => ");
    w.string(&format!("{}.{}", table.database, table.table));
}

/// Builds `OPTIMIZE ... REWRITE DATA USING BIN_PACK` (Spark:
/// `CALL <catalog>.system.rewrite_data_files`).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::maintenance::Cmp;
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
/// assert_eq!(t.optimize().dialect(Dialect::Spark).build()?.sql(),
///            "CALL `local`.system.rewrite_data_files(table => 'analytics.mcp_events')");
/// let day = chrono::NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
/// assert_eq!(
///     t.optimize().filter_by("event_date", Cmp::Ge, day).build()?.sql(),
///     "OPTIMIZE analytics.mcp_events REWRITE DATA USING BIN_PACK WHERE event_date >= DATE '2026-10-01'"
/// );
/// // Spark only: rewrite options, e.g. compact even a partition with a single small file.
/// assert_eq!(
///     t.optimize().dialect(Dialect::Spark).spark_option("min-input-files", "1").build()?.sql(),
///     "CALL `local`.system.rewrite_data_files(table => 'analytics.mcp_events', \
///      options => map('min-input-files', '1'))"
/// );
/// let err = t.optimize().spark_option("min-input-files", "1").build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Unsupported); // Athena's OPTIMIZE takes no options
/// // A hidden-partition source column is refused, with what to do instead.
/// let err = t.optimize().filter_by("event_ts", Cmp::Ge, day.and_hms_opt(0, 0, 0).unwrap())
///     .build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Unsupported);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Optimize<'a> {
    table: &'a TableDef,
    dialect: Dialect,
    catalog: String,
    filters: Vec<(String, Cmp, Value)>,
    conditions: Vec<Expr>,
    spark_options: Vec<(String, String)>,
}

impl TableDef {
    /// Starts an `OPTIMIZE` (compaction) of this table.
    pub fn optimize(&self) -> Optimize<'_> {
        Optimize {
            table: self,
            dialect: Dialect::Athena,
            catalog: DEFAULT_SPARK_CATALOG.to_string(),
            filters: Vec::new(),
            conditions: Vec::new(),
            spark_options: Vec::new(),
        }
    }

    /// Starts a `VACUUM` (snapshot expiry and orphan-file removal) of this table.
    pub fn vacuum(&self) -> Vacuum<'_> {
        Vacuum {
            table: self,
            dialect: Dialect::Athena,
            catalog: DEFAULT_SPARK_CATALOG.to_string(),
            retention: None,
            older_than: None,
            retain_last: None,
        }
    }
}

impl<'a> Optimize<'a> {
    /// Renders for `dialect` (default: Athena).
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// The Spark catalog for `CALL <catalog>.system...` (default [`DEFAULT_SPARK_CATALOG`]).
    pub fn spark_catalog(mut self, catalog: impl Into<String>) -> Self {
        self.catalog = catalog.into();
        self
    }

    /// Restricts compaction to files with rows where `column op value`; `column` must be
    /// an identity partition column. Several filters are joined with `AND`.
    pub fn filter<T, V: SqlType>(self, column: Col<T, V>, op: Cmp, value: V) -> Self {
        self.filter_by(column.name(), op, value.to_value())
    }

    /// Restricts compaction with a typed condition from the expression DSL
    /// (`McpEvent::EVENT_DATE.between(a, b)`, `...is_in([...])`): every column it reads
    /// must be an identity partition column. Several conditions are joined with `AND`.
    pub fn filter_expr<T, C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.conditions.push(cond.into_operand());
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

    fn check_spark_options(&self) -> Result<()> {
        if self.dialect == Dialect::Athena {
            if let Some((key, _)) = self.spark_options.first() {
                return Err(Error::new(
                    ErrorKind::Unsupported,
                    format!(
                        "Athena's OPTIMIZE takes no options (`{key}` is an option of Spark's \
                         rewrite_data_files procedure); its rewrite thresholds are the optimize_* \
                         table properties"
                    ),
                )
                .with_hint(
                    "set optimize_rewrite_data_file_threshold, optimize_rewrite_delete_file_threshold, \
                     optimize_rewrite_min_data_file_size_bytes or optimize_rewrite_max_data_file_size_bytes \
                     with ALTER TABLE ... SET TBLPROPERTIES, or keep .spark_option(...) for the Spark dialect",
                ));
            }
            return Ok(());
        }
        let plain = |text: &str| {
            !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        };
        let mut errors = Vec::new();
        for (i, (key, value)) in self.spark_options.iter().enumerate() {
            if !plain(key) {
                errors.push(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "rewrite_data_files option name {key:?} must be non-empty plain text: \
                         lower-case letters, digits, '.' and '-'"
                    ),
                ));
            }
            if !plain(value) {
                errors.push(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "rewrite_data_files option `{key}`: value {value:?} must be non-empty plain text: \
                         lower-case letters, digits, '.' and '-'"
                    ),
                ));
            }
            if self.spark_options[..i].iter().any(|(k, _)| k == key) {
                errors.push(Error::new(
                    ErrorKind::InvalidValue,
                    format!("rewrite_data_files option `{key}` is given twice"),
                ));
            }
        }
        Error::check_all(errors)
    }

    /// [`Optimize::filter`] by column name and any value.
    pub fn filter_by(mut self, column: &str, op: Cmp, value: impl Into<Value>) -> Self {
        self.filters.push((column.to_string(), op, value.into()));
        self
    }

    /// `None` when `name` is an identity partition column; otherwise why not.
    fn partition_column_error(&self, name: &str) -> Option<Error> {
        let t = self.table;
        if t.column(name).is_none() {
            return Some(Error::new(
                ErrorKind::InvalidTable,
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

    /// Athena parses OPTIMIZE with its Hive DDL parser, whose string escaping is
    /// unverified (reference §3.7).
    fn check_text(&self, name: &str, text: &str) -> Option<Error> {
        if self.dialect != Dialect::Athena {
            return None;
        }
        crate::model::check_ddl_text(&format!("OPTIMIZE WHERE value for `{name}`"), text)
            .err()
            .map(|e| {
                e.with_hint(
                    "OPTIMIZE goes through Athena's Hive DDL parser: a value with a quote, \
                     backslash or control character cannot be written safely; optimize the whole table",
                )
            })
    }

    #[allow(clippy::type_complexity)]
    fn check_filters(&self) -> Result<Vec<(&'a IcebergType, &str, Cmp, &Value)>> {
        let t = self.table;
        let mut errors = Vec::new();
        let mut out = Vec::new();
        for (name, op, value) in &self.filters {
            if let Some(e) = self.partition_column_error(name) {
                errors.push(e);
                continue;
            }
            if matches!(value, Value::Null) {
                errors.push(Error::new(
                    ErrorKind::InvalidValue,
                    format!("OPTIMIZE WHERE `{name}` {} NULL is never true", op.sql()),
                ));
            }
            if let Value::String(text) = value {
                if let Some(e) = self.check_text(name, text) {
                    errors.push(e);
                    continue;
                }
            }
            let ty = &t.column(name).expect("checked above").ty;
            out.push((ty, name.as_str(), *op, value));
        }
        for cond in &self.conditions {
            for (scope, name) in cond.columns() {
                if scope != crate::expr::Scope::Table {
                    errors.push(Error::new(
                        ErrorKind::InvalidTable,
                        "OPTIMIZE WHERE: MERGE source/target columns cannot appear here",
                    ));
                } else if let Some(e) = self.partition_column_error(name) {
                    errors.push(e);
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
                    ErrorKind::InvalidValue,
                    "an aggregate cannot appear in OPTIMIZE WHERE",
                ));
            }
            cond.walk(&mut |e| {
                if let Expr::Literal {
                    value: Value::String(text),
                    ..
                } = e
                {
                    if let Some(err) = self.check_text("a string literal", text) {
                        errors.push(err);
                    }
                }
            });
        }
        Error::check_all(errors)?;
        Ok(out)
    }

    /// Checks, renders and validates the statement.
    pub fn build(&self) -> Result<Statement> {
        let name = self.table.name();
        names_for("OPTIMIZE", name)?;
        self.check_spark_options()?;
        let filters = self.check_filters()?;
        let mut w = SqlWriter::new(StatementKind::Optimize, self.dialect);
        match self.dialect {
            Dialect::Athena => {
                w.push("OPTIMIZE ")
                    .table_name(name)
                    .push(" REWRITE DATA USING BIN_PACK");
                let several = filters.len() + self.conditions.len() > 1;
                for (i, (ty, col, op, v)) in filters.iter().enumerate() {
                    w.push(if i == 0 { " WHERE " } else { " AND " });
                    w.ident(col).push_char(' ').push(op.sql()).push_char(' ');
                    w.literal(v, ty)?;
                }
                for (i, c) in self.conditions.iter().enumerate() {
                    w.push(if i + filters.len() == 0 {
                        " WHERE "
                    } else {
                        " AND "
                    });
                    if several {
                        w.push_char('(');
                    }
                    c.render(&mut w)?;
                    if several {
                        w.push_char(')');
                    }
                }
            }
            Dialect::Spark => {
                check_catalog(&self.catalog)?;
                open_call(&mut w, &self.catalog, "rewrite_data_files", name);
                if !filters.is_empty() || !self.conditions.is_empty() {
                    // The predicate is Spark SQL inside a Spark string literal.
                    let mut pred = String::new();
                    for (i, (ty, col, op, v)) in filters.iter().enumerate() {
                        if i > 0 {
                            pred.push_str(" AND ");
                        }
                        crate::ident::write_ident(&mut pred, col, Grammar::Spark);
                        pred.push(' ');
                        pred.push_str(op.sql());
                        pred.push(' ');
                        value::write_literal(&mut pred, v, ty, Grammar::Spark)?;
                    }
                    let several = filters.len() + self.conditions.len() > 1;
                    for (i, c) in self.conditions.iter().enumerate() {
                        if i + filters.len() > 0 {
                            pred.push_str(" AND ");
                        }
                        let mut cw = SqlWriter::new(StatementKind::Select, Dialect::Spark);
                        c.render(&mut cw)?;
                        if several {
                            pred.push('(');
                        }
                        pred.push_str(cw.as_str());
                        if several {
                            pred.push(')');
                        }
                    }
                    w.push(", where => ").string(&pred);
                }
                if !self.spark_options.is_empty() {
                    // Keys and values are checked plain `[a-z0-9.-]` text above.
                    w.push(", options => map(");
                    for (i, (key, value)) in self.spark_options.iter().enumerate() {
                        if i > 0 {
                            w.push(", ");
                        }
                        w.string(key);
                        w.push(", ");
                        w.string(value);
                    }
                    w.push_char(')');
                }
                w.push_char(')');
            }
        }
        w.finish()
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

    /// The table properties that carry this retention.
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

    /// `ALTER TABLE ... SET TBLPROPERTIES (...)` setting this retention on `table`.
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::maintenance::VacuumRetention;
    /// let t = TableDef::builder("analytics", "mcp_events")
    ///     .column(Column::new("event_id", IcebergType::String))
    ///     .location("s3://my-datalake/iceberg/mcp_events/").build()?;
    /// assert_eq!(
    ///     VacuumRetention::days(7).alter(&t).build()?.sql(),
    ///     "ALTER TABLE analytics.mcp_events SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='604800')"
    /// );
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn alter<'a>(&self, table: &'a TableDef) -> AlterTable<'a> {
        table.alter().set_properties(self.properties())
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
/// assert_eq!(t.vacuum().dialect(Dialect::Spark).build()?.sql(),
///            "CALL `local`.system.expire_snapshots(table => 'analytics.mcp_events')");
/// // The seed's `VACUUM ... RETAIN 7 DAYS`, corrected:
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
    dialect: Dialect,
    catalog: String,
    retention: Option<VacuumRetention>,
    older_than: Option<DateTime<Utc>>,
    retain_last: Option<u32>,
}

impl<'a> Vacuum<'a> {
    /// Renders for `dialect` (default: Athena).
    pub fn dialect(mut self, dialect: Dialect) -> Self {
        self.dialect = dialect;
        self
    }

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
    pub fn older_than(mut self, ts: DateTime<Utc>) -> Self {
        self.older_than = Some(ts);
        self
    }

    /// Spark only: `retain_last => n`. Athena's VACUUM takes no options.
    pub fn retain_last(mut self, n: u32) -> Self {
        self.retain_last = Some(n);
        self
    }

    fn render(&self, allow_retention: bool) -> Result<Statement> {
        let name = self.table.name();
        names_for("VACUUM", name)?;
        match self.dialect {
            Dialect::Athena => {
                if self.older_than.is_some() || self.retain_last.is_some() {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        "Athena's VACUUM takes no options (older_than / retain_last are Spark's expire_snapshots arguments)",
                    )
                    .with_hint(
                        "set retention with .retention(VacuumRetention::days(n).min_snapshots_to_keep(k)) and \
                         run the two statements from .build_steps(): ALTER TABLE ... SET TBLPROPERTIES \
                         ('vacuum_max_snapshot_age_seconds'=..., 'vacuum_min_snapshots_to_keep'=...), then VACUUM",
                    ));
                }
                if let (Some(r), false) = (&self.retention, allow_retention) {
                    let secs = r.max_snapshot_age_seconds.unwrap_or(432_000);
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        "Athena's VACUUM has no RETAIN clause (`VACUUM t RETAIN n DAYS` is Delta Lake syntax); \
                         retention comes from the table's vacuum_* properties",
                    )
                    .with_hint(format!(
                        "use .build_steps() to get two statements: ALTER TABLE {name} SET TBLPROPERTIES \
                         ('vacuum_max_snapshot_age_seconds'='{secs}'), then VACUUM {name}"
                    )));
                }
                let mut w = SqlWriter::new(StatementKind::Vacuum, self.dialect);
                w.push("VACUUM ").table_name(name);
                w.finish()
            }
            Dialect::Spark => {
                check_catalog(&self.catalog)?;
                let mut w = SqlWriter::new(StatementKind::Vacuum, self.dialect);
                open_call(&mut w, &self.catalog, "expire_snapshots", name);
                if let Some(ts) = self.older_than {
                    w.push(", older_than => ");
                    w.literal(&Value::TimestampTz(ts), &IcebergType::TimestampTz)?;
                }
                if let Some(n) = self.retain_last {
                    if n == 0 {
                        return Err(Error::new(
                            ErrorKind::InvalidValue,
                            "retain_last must be at least 1",
                        ));
                    }
                    w.push(", retain_last => ").push(&n.to_string());
                }
                w.push_char(')');
                w.finish()
            }
        }
    }

    /// Checks, renders and validates the one statement. With a retention set, Athena
    /// refuses (VACUUM has no RETAIN) and points at [`Vacuum::build_steps`].
    pub fn build(&self) -> Result<Statement> {
        if self.dialect == Dialect::Spark && self.retention.is_some() {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "a retention set through table properties needs two statements",
            )
            .with_hint("use .build_steps(), or .older_than(ts) / .retain_last(n) for one CALL"));
        }
        self.render(false)
    }

    /// The statements to run in order, one API call each: with a retention,
    /// `ALTER TABLE ... SET TBLPROPERTIES (...)` then the vacuum; otherwise the vacuum.
    pub fn build_steps(&self) -> Result<Vec<Statement>> {
        let mut out = Vec::new();
        if let Some(r) = &self.retention {
            if r.properties().is_empty() {
                return Err(Error::new(
                    ErrorKind::InvalidProperty,
                    "the retention sets no property",
                ));
            }
            out.push(r.alter(self.table).dialect(self.dialect).build()?);
        }
        out.push(self.render(true)?);
        Ok(out)
    }
}
