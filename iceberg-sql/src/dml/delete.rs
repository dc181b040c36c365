//! `DELETE FROM ... WHERE ...`.

use std::marker::PhantomData;

use super::target::{builder_traits, Target};
use crate::dialect::typing::TypeScope;
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::expr::IntoOperand;
use crate::model::TableName;
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};

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
    target: Target,
    _record: PhantomData<fn() -> T>,
}

builder_traits!(Delete { target });

impl<T: IcebergTable> Delete<T> {
    /// A DELETE from `T`'s table.
    pub(crate) fn new() -> Self {
        Delete {
            target: Target::of(T::table_def()),
            _record: PhantomData,
        }
    }

    /// Deletes from another table with the same columns (e.g. a staging copy) instead
    /// of `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.target.set_table(name);
        self
    }

    /// Deletes every row: required instead of a filter.
    pub fn all_rows(mut self) -> Self {
        self.target.all_rows();
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        build(&self.target, dialect)
    }
}

/// [`Delete::build_for`], compiled once for every record type.
fn build(target: &Target, dialect: Dialect) -> Result<Statement> {
    let kind = StatementKind::Delete;
    let mut errors = target.check_table(kind, true);
    target.check_filter(dialect, kind, &mut errors);
    Error::check_all(errors)?;
    let scope = TypeScope::of_def(target.def());
    let filter = target.check_filter_types(dialect.rules(), &scope)?;
    let mut w = SqlWriter::new(kind, dialect);
    w.push("DELETE FROM ").table_name(target.table());
    Target::write_where(&mut w, filter.as_ref())?;
    let mut statement = w.finish()?;
    statement.set_writes(target.table(), None);
    Ok(statement)
}

impl<T> Filter<T> for Delete<T> {
    fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.target.filter(cond.into_operand());
        self
    }
}
