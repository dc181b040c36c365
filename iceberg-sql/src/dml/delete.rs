//! `DELETE FROM ... WHERE ...`.

use std::marker::PhantomData;

use super::check_filter;
use super::update::{and_filter, check_target};
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::expr::{Expr, IntoOperand};
use crate::model::TableName;
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `DELETE FROM t WHERE cond` for `T`'s table. Without a
/// [`filter`](Delete::filter) it does not build unless [`all_rows`](Delete::all_rows)
/// says so.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// struct Ev;
/// impl Ev {
///     const USER_ID: Col<Ev, String> = Col::new("user_id");
///     const EVENT_TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
/// }
/// impl IcebergTable for Ev {
///     fn table_def() -> &'static TableDef {
///         static DEF: OnceLock<TableDef> = OnceLock::new();
///         DEF.get_or_init(|| TableDef::builder("analytics", "mcp_events")
///             .column(Column::new("user_id", IcebergType::String))
///             .column(Column::new("event_ts", IcebergType::Timestamp))
///             .build().unwrap())
///     }
///     fn to_values(&self) -> Vec<Value> { unimplemented!() }
///     fn from_row(_: &Row<'_>) -> Result<Self, Error> { unimplemented!() }
/// }
/// let cutoff = chrono::NaiveDate::from_ymd_opt(2026, 9, 1).unwrap().and_hms_opt(0, 0, 0).unwrap();
/// let del = Ev::delete().filter(Ev::USER_ID.eq("user-123").and(Ev::EVENT_TS.lt(cutoff)));
/// assert_eq!(del.build()?.sql(),
///     "DELETE FROM analytics.mcp_events\n\
///      WHERE user_id = 'user-123' AND event_ts < TIMESTAMP '2026-09-01 00:00:00.000000'");
/// assert_eq!(del.build_for(Dialect::Spark)?.sql(),
///     "DELETE FROM analytics.mcp_events\n\
///      WHERE user_id = 'user-123' AND event_ts < TIMESTAMP_NTZ '2026-09-01 00:00:00.000000'");
/// assert_eq!(Ev::delete().build().unwrap_err().kind(), ErrorKind::DisallowedSyntax);
/// assert_eq!(Ev::delete().all_rows().build()?.sql(), "DELETE FROM analytics.mcp_events");
/// // The same DELETE against a staging table with the same columns:
/// assert_eq!(del.clone().into_table(TableName::new("analytics", "mcp_events_staging")).build()?.sql(),
///     "DELETE FROM analytics.mcp_events_staging\n\
///      WHERE user_id = 'user-123' AND event_ts < TIMESTAMP '2026-09-01 00:00:00.000000'");
/// assert!(del.into_table(TableName::new("analytics", "Staging")).build().is_err()); // name checked
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct Delete<T> {
    table: Option<TableName>,
    filter: Option<Expr>,
    all_rows: bool,
    _table: PhantomData<fn() -> T>,
}

impl<T> Clone for Delete<T> {
    fn clone(&self) -> Self {
        Delete {
            table: self.table.clone(),
            filter: self.filter.clone(),
            all_rows: self.all_rows,
            _table: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Delete<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Delete")
            .field("table", &self.table)
            .field("filter", &self.filter)
            .field("all_rows", &self.all_rows)
            .finish()
    }
}

impl<T: IcebergTable> Delete<T> {
    /// A DELETE from `T`'s table.
    pub(crate) fn new() -> Self {
        Delete {
            table: None,
            filter: None,
            all_rows: false,
            _table: PhantomData,
        }
    }

    /// Deletes from another table with the same columns (e.g. a staging copy) instead
    /// of `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.table = Some(name);
        self
    }

    /// Adds a WHERE condition (several are joined by AND).
    pub fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.filter = and_filter(self.filter.take(), cond.into_operand());
        self
    }

    /// Deletes every row: required instead of a filter.
    pub fn all_rows(mut self) -> Self {
        self.all_rows = true;
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let def = T::table_def();
        let kind = StatementKind::Delete;
        let name = self.table.as_ref().unwrap_or(def.name());
        let mut errors = check_target(kind, name, &self.filter, self.all_rows);
        check_filter(dialect, kind, def, self.filter.as_ref(), &mut errors);
        Error::check_all(errors)?;
        let mut w = SqlWriter::new(kind, dialect);
        w.push("DELETE FROM ").table_name(name);
        if let Some(f) = &self.filter {
            w.push("\nWHERE ");
            f.render(&mut w)?;
        }
        w.finish()
    }
}
