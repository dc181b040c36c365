//! Recipes for a daily summary table, without Glue API calls.
//!
//! With Hive tables, refreshing one day means deleting S3 objects, dropping a Glue
//! partition, running a CTAS into a temporary table and adding the partition back by
//! hand, and finding missing days means paging Glue partitions. With an Iceberg summary
//! table both are plain SQL:
//!
//! * [`DailyRefresh`]: `DELETE FROM summary WHERE day = DATE 'd'` then
//!   `INSERT INTO summary (...) SELECT ... ` for that day. Running it twice gives the
//!   same table (idempotent). The two statements are separate API calls and not one
//!   transaction: if the INSERT fails, the day is empty until the refresh is re-run.
//! * [`MissingDays`]: the days between two dates that have no partition in the summary
//!   table's `$partitions`: `array_except(sequence(from, to, INTERVAL '1' DAY),
//!   array_agg(partition.day))` (Spark: `collect_list`), one row with every missing day.

use chrono::NaiveDate;

use crate::dialect::typing::{AssignIn, Assigned, TypeScope, Written};
use crate::dialect::Dialect;
use crate::dml::{retype_literal, Delete};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{BinaryOp, Col, Expr, ExpressionMethods};
use crate::model::{PartitionTransform, TableDef};
use crate::query::{MetadataTable, Projected, Select, SelectBody, Usage};
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};
use crate::types::IcebergType;
use crate::value::Value;

/// Idempotent refresh of one day of a daily-summary Iceberg table `T`: delete the day,
/// then insert the query's rows for it.
///
/// `query` must produce exactly `T`'s columns by name (any order; give expressions
/// aliases) and only rows of `day`; its `day_column` output should be the day (for
/// example `.value_as(day, "dt")`).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::query::Select;
/// use iceberg_sql::recipes::DailyRefresh;
/// use iceberg_sql::dsl::count_all;
/// use chrono::NaiveDate;
/// # use std::sync::OnceLock;
/// # struct Ev;
/// # impl Ev {
/// #     const TOOL_NAME: Col<Ev, String> = Col::new("tool_name");
/// #     const EVENT_TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
/// # }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static D: OnceLock<TableDef> = OnceLock::new();
/// #         D.get_or_init(|| TableDef::builder("analytics", "mcp_events")
/// #             .column(Column::new("tool_name", IcebergType::String))
/// #             .column(Column::new("event_ts", IcebergType::Timestamp))
/// #             .location("s3://my-datalake/iceberg/mcp_events/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// # struct Daily;
/// # impl Daily { const DT: Col<Daily, NaiveDate> = Col::new("dt"); }
/// # impl IcebergTable for Daily {
/// #     fn table_def() -> &'static TableDef {
/// #         static D: OnceLock<TableDef> = OnceLock::new();
/// #         D.get_or_init(|| TableDef::builder("analytics", "mcp_daily_summary")
/// #             .column(Column::new("tool_name", IcebergType::String))
/// #             .column(Column::new("call_count", IcebergType::Long))
/// #             .column(Column::new("dt", IcebergType::Date))
/// #             .partition(PartitionField::identity("dt"))
/// #             .location("s3://my-datalake/iceberg/mcp_daily_summary/").build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { vec![] }
/// # }
/// let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
/// let start = day.and_hms_opt(0, 0, 0).unwrap();
/// let q = Ev::select()
///     .column(Ev::TOOL_NAME)
///     .expr_as(count_all(), "call_count")
///     .value_as(day, "dt")
///     .filter(Ev::EVENT_TS.ge(start).and(Ev::EVENT_TS.lt(start + chrono::Duration::days(1))))
///     .group_by(Ev::TOOL_NAME);
/// let steps = DailyRefresh::new(Daily::DT, day, &q).build()?;
/// assert_eq!(steps[0].sql(), "DELETE FROM analytics.mcp_daily_summary\nWHERE dt = DATE '2026-10-01'");
/// assert!(steps[1].sql().starts_with(
///     "INSERT INTO analytics.mcp_daily_summary (tool_name, call_count, dt)\nSELECT tool_name, count(*) AS call_count, DATE '2026-10-01' AS dt"));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug)]
#[must_use]
pub struct DailyRefresh<'q, T> {
    day_column: Col<T, NaiveDate>,
    day: NaiveDate,
    query: &'q SelectBody,
}

impl<'q, T: IcebergTable> DailyRefresh<'q, T> {
    /// Refresh `day` (stored in `day_column` of `T`) from `query`.
    pub fn new<S>(day_column: Col<T, NaiveDate>, day: NaiveDate, query: &'q Select<S>) -> Self {
        DailyRefresh {
            day_column,
            day,
            query: query.body(),
        }
    }

    /// The two statements for Athena, in order: the DELETE of the day, then the
    /// INSERT ... SELECT.
    pub fn build(&self) -> Result<Vec<Statement>> {
        self.build_for(Dialect::default())
    }

    /// As [`DailyRefresh::build`], for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Vec<Statement>> {
        let def = T::table_def();
        let names = self.query.output_names();
        let mut errors = Vec::new();
        let mut cols = Vec::with_capacity(names.len());
        for n in &names {
            match n {
                None => errors.push(
                    Error::new(
                        ErrorKind::InvalidTable,
                        "every column of the refresh query needs a name",
                    )
                    .with_hint("give expressions an alias with .expr_as(expr, \"column\")"),
                ),
                Some(n) if def.column(n).is_none() => errors.push(Error::new(
                    ErrorKind::UnknownColumn,
                    format!(
                        "the refresh query produces `{n}`, which `{}` does not have",
                        def.name()
                    ),
                )),
                // The INSERT names each column once (Trino: "Insert column name is
                // specified more than once"), and it runs after the day's DELETE.
                Some(n) if cols.contains(n) => errors.push(
                    Error::new(
                        ErrorKind::InvalidTable,
                        format!("the refresh query produces `{n}` twice; the INSERT names each column once"),
                    )
                    .with_hint("alias one of them to another column of the summary table, or leave one out"),
                ),
                Some(n) => cols.push(n.clone()),
            }
        }
        for c in def.columns() {
            if !cols.contains(&c.name) && names.iter().all(|n| n.as_deref() != Some(&c.name)) {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidTable,
                        format!(
                            "the refresh query does not produce column `{}` of `{}`",
                            c.name,
                            def.name()
                        ),
                    )
                    .with_hint("project every column of the summary table"),
                );
            }
        }
        let day_name = self.day_column.name();
        if !cols.iter().any(|c| c == day_name) {
            errors.push(Error::new(
                ErrorKind::InvalidTable,
                format!("the refresh query does not produce the day column `{day_name}`"),
            ));
        }
        Error::check_all(errors)?;

        // Each output column is stored in the summary column of its name: the target's
        // rules check the pair as an INSERT (a `max(status)` aliased into a bigint
        // column is refused, a clock value converted).
        let rules = dialect.rules();
        let mut projected = self.query.projections(rules, Usage::Rows)?;
        let scope = self.query.type_scope();
        let mut pairs: Vec<Assigned> = if projected.is_empty() {
            // `SELECT *` of a table with the summary's columns.
            cols.iter()
                .filter_map(|n| def.column(n))
                .map(|c| Assigned::new(c, Written::column(&c.name)))
                .collect()
        } else {
            projected
                .iter()
                .zip(&cols)
                .filter_map(|(p, n)| {
                    let c = def.column(n)?;
                    // Owned: the checked values replace the projections' own below.
                    let value = match p.expr() {
                        Some(e) => Written::Expr(retype_literal(e, &c.ty)).into_owned(),
                        None => Written::column(n).into_owned(),
                    };
                    Some(Assigned::new(c, value))
                })
                .collect()
        };
        rules.check_assignments(&scope, AssignIn::Insert, &mut pairs)?;
        if !projected.is_empty() {
            for (p, pair) in projected.iter_mut().zip(pairs) {
                p.set_value(pair.value);
            }
        }

        // The day column must hold exactly `day`: a literal of another day is refused,
        // any other expression is filtered on the day, so that the INSERT writes only
        // rows of the day the DELETE removed (a re-run then replaces them instead of
        // duplicating or losing rows).
        let day_expr = projected
            .iter()
            .find(|p| p.name() == Some(day_name))
            .and_then(Projected::expr);
        let wrap = match day_expr {
            Some(Expr::Literal {
                value: Value::Date(d),
                ..
            }) if *d == self.day => false,
            Some(Expr::Literal { value, .. }) => {
                return Err(Error::new(
                    ErrorKind::InvalidValue,
                    format!(
                        "the refresh query writes {} into the day column `{day_name}`, but the refresh deletes day {}",
                        match value {
                            Value::Date(d) => d.to_string(),
                            other => other.kind_name().to_string(),
                        },
                        self.day
                    ),
                )
                .with_hint(format!(
                    "project the day being refreshed: .value_as(day, \"{day_name}\") with day = {}",
                    self.day
                )));
            }
            _ => true,
        };

        let delete = Delete::<T>::new()
            .filter(self.day_column.eq(self.day))
            .build_for(dialect)?;
        let mut w = SqlWriter::new(StatementKind::Insert, dialect);
        w.push("INSERT INTO ")
            .table_name(def.name())
            .push(" (")
            .idents(cols.iter().map(String::as_str))
            .push(")\n");
        if wrap {
            w.push("SELECT ")
                .idents(cols.iter().map(String::as_str))
                .push(" FROM (\n");
            self.query.write_with(&mut w, &projected)?;
            w.push("\n) AS ").ident("refreshed").push(" WHERE ");
            let only_day = Expr::binary(
                BinaryOp::Eq,
                Expr::column(day_name),
                Expr::literal(Value::Date(self.day), IcebergType::Date),
            );
            let refreshed = TypeScope::table(def.columns());
            rules
                .check_condition(&refreshed, &only_day, "WHERE clause")?
                .write(&mut w)?;
        } else {
            self.query.write_with(&mut w, &projected)?;
        }
        Ok(vec![delete, w.finish()?])
    }
}

/// The days in `from..=to` with no partition in `table`'s `$partitions`, as one row
/// with one column `missing_days` (an array of dates, sorted; JSON text in Athena).
///
/// The query subtracts the partition values from `sequence(from, to, INTERVAL '1' DAY)`
/// with `array_except` (Spark: `collect_list`), so it reads only the metadata table.
/// The day column must be partitioned by identity (a `date` column) or by `day(...)`
/// (the partition field is then `<column>_day`, Iceberg's default name).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::recipes::MissingDays;
/// use chrono::NaiveDate;
/// let t = TableDef::builder("analytics", "mcp_daily_summary")
///     .column(Column::new("tool_name", IcebergType::String))
///     .column(Column::new("dt", IcebergType::Date))
///     .partition(PartitionField::identity("dt"))
///     .location("s3://my-datalake/iceberg/mcp_daily_summary/").build()?;
/// let d = |day| NaiveDate::from_ymd_opt(2026, 9, day).unwrap();
/// let q = MissingDays::new(&t, "dt", d(1), d(30)).build()?;
/// assert_eq!(q.sql(),
///     "SELECT CAST(array_sort(array_except(sequence(DATE '2026-09-01', DATE '2026-09-30', INTERVAL '1' DAY), \
///      coalesce(array_agg(partition.dt), CAST(ARRAY[] AS array(date))))) AS JSON) AS missing_days \
///      FROM \"analytics\".\"mcp_daily_summary$partitions\"");
/// let cells = vec![Some("[\"2026-09-02\",\"2026-09-05\"]".to_string())];
/// assert_eq!(MissingDays::decode(&Row::untyped(["missing_days"], cells))?, [d(2), d(5)]);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct MissingDays<'a> {
    table: &'a TableDef,
    column: String,
    from: NaiveDate,
    to: NaiveDate,
}

impl<'a> MissingDays<'a> {
    /// Days from `from` to `to` (inclusive) missing from `table`'s partitions on
    /// `column`.
    pub fn new(table: &'a TableDef, column: &str, from: NaiveDate, to: NaiveDate) -> Self {
        MissingDays {
            table,
            column: column.to_string(),
            from,
            to,
        }
    }

    /// Decodes the query's one result row: the missing days, in order. Athena returns
    /// the array as JSON text (the query casts it); a JSON array of dates is expected.
    pub fn decode(row: &crate::record::Row) -> Result<Vec<NaiveDate>> {
        let column =
            crate::model::Column::new("missing_days", IcebergType::list(IcebergType::Date));
        crate::record::decode_column(row, &column)
    }

    /// Checks, renders and validates the query for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the query for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let t = self.table;
        t.name().check()?;
        if self.from > self.to {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!("the range {}..={} is empty", self.from, self.to),
            ));
        }
        let Some(col) = t.column(&self.column) else {
            return Err(Error::new(
                ErrorKind::UnknownColumn,
                format!("`{}` has no column `{}`", t.name(), self.column),
            ));
        };
        let field = t.partition_spec().iter().find_map(|p| {
            (p.source == self.column).then_some(match (p.transform, &col.ty) {
                (PartitionTransform::Identity, IcebergType::Date) => Some(self.column.clone()),
                (PartitionTransform::Day, _) => Some(format!("{}_day", self.column)),
                _ => None,
            })
        });
        let Some(Some(field)) = field else {
            return Err(Error::new(
                ErrorKind::InvalidPartition,
                format!(
                    "`{}` of `{}` is not partitioned by day (identity on a date column, or day(...))",
                    self.column,
                    t.name()
                ),
            )
            .with_hint("missing days are read from $partitions, so the day must be a partition field"));
        };
        let mut w = SqlWriter::new(StatementKind::Select, dialect);
        let rules = w.rules();
        let days = (self.to - self.from).num_days() + 1;
        if let Some(max) = rules.max_sequence_entries().filter(|max| days > *max) {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "the range {}..={} has {days} days; {}'s sequence() makes at most {max}",
                    self.from,
                    self.to,
                    rules.name()
                ),
            )
            .with_hint(format!("split the range into parts of at most {max} days")));
        }
        let (from, to) = (Value::Date(self.from), Value::Date(self.to));
        let mut days = |w: &mut SqlWriter| -> Result<()> {
            w.push("array_sort(array_except(sequence(");
            w.literal(&from, &IcebergType::Date)?.push(", ");
            w.literal(&to, &IcebergType::Date)?;
            w.push(", INTERVAL '1' DAY), ");
            rules.write_array_agg(w, &IcebergType::Date, &mut |w| {
                w.ident("partition").push_char('.').ident(&field);
                Ok(())
            })?;
            w.push("))");
            Ok(())
        };
        w.push("SELECT ");
        if rules.nested_columns_as_json() {
            rules.write_to_json(&mut w, &mut days)?;
        } else {
            days(&mut w)?;
        }
        w.push(" AS missing_days FROM ");
        rules.write_metadata_table(&mut w, t.name(), MetadataTable::Partitions);
        w.finish()
    }
}
