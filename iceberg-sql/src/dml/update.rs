//! `UPDATE ... SET ... WHERE ...`.

use std::marker::PhantomData;

use super::{
    check_columns, check_filter, column, refuse_aggregates, refuse_params, retype_literal,
};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Col, ColumnValue, Expr, IntoOperand};
use crate::model::TableName;
use crate::record::{IcebergTable, SqlType};
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `UPDATE t SET col = value, ... WHERE cond` for `T`'s table.
///
/// Values are typed against their column (`set(LATENCY_MS, "x")` does not compile) and
/// may read the row's own columns (`set(LATENCY_MS, LATENCY_MS + 1)`). Without a
/// [`filter`](Update::filter) the statement does not build unless
/// [`all_rows`](Update::all_rows) says so.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// struct Ev;
/// impl Ev {
///     const EVENT_ID: Col<Ev, String> = Col::new("event_id");
///     const STATUS: Col<Ev, String> = Col::new("status");
///     const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// }
/// impl IcebergTable for Ev {
///     fn table_def() -> &'static TableDef {
///         static DEF: OnceLock<TableDef> = OnceLock::new();
///         DEF.get_or_init(|| TableDef::builder("analytics", "mcp_events")
///             .column(Column::new("event_id", IcebergType::String))
///             .column(Column::new("status", IcebergType::String))
///             .column(Column::new("latency_ms", IcebergType::Long))
///             .build().unwrap())
///     }
///     fn to_values(&self) -> Vec<Value> { unimplemented!() }
///     fn from_row(_: &Row<'_>) -> Result<Self, Error> { unimplemented!() }
/// }
/// let fix = Ev::update()
///     .set(Ev::STATUS, "retried")
///     .set(Ev::LATENCY_MS, 320)
///     .filter(Ev::EVENT_ID.eq("evt-001"));
/// assert_eq!(fix.build()?.sql(),
///     "UPDATE analytics.mcp_events\nSET status = 'retried', latency_ms = 320\nWHERE event_id = 'evt-001'");
/// assert_eq!(fix.build_for(Dialect::Spark)?.sql(),
///     "UPDATE analytics.mcp_events\nSET status = 'retried', latency_ms = 320\nWHERE event_id = 'evt-001'");
/// assert!(Ev::update().set(Ev::STATUS, "x").build().is_err()); // no WHERE
/// // The same UPDATE against a staging table with the same columns:
/// assert_eq!(fix.clone().into_table(TableName::new("analytics", "mcp_events_staging")).build()?.sql(),
///     "UPDATE analytics.mcp_events_staging\nSET status = 'retried', latency_ms = 320\nWHERE event_id = 'evt-001'");
/// assert!(fix.into_table(TableName::new("analytics", "Staging")).build().is_err()); // name checked
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct Update<T> {
    table: Option<TableName>,
    sets: Vec<(&'static str, Expr)>,
    filter: Option<Expr>,
    all_rows: bool,
    _table: PhantomData<fn() -> T>,
}

impl<T> Clone for Update<T> {
    fn clone(&self) -> Self {
        Update {
            table: self.table.clone(),
            sets: self.sets.clone(),
            filter: self.filter.clone(),
            all_rows: self.all_rows,
            _table: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Update<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Update")
            .field("table", &self.table)
            .field("sets", &self.sets)
            .field("filter", &self.filter)
            .field("all_rows", &self.all_rows)
            .finish()
    }
}

/// Joins an optional filter with another condition by AND.
pub(crate) fn and_filter(current: Option<Expr>, next: Expr) -> Option<Expr> {
    Some(match current {
        None => next,
        Some(c) => Expr::Binary {
            op: crate::expr::BinaryOp::And,
            left: Box::new(c),
            right: Box::new(next),
        },
    })
}

/// The target name's check and the WHERE-or-`all_rows()` rule, shared by UPDATE and
/// DELETE; returns the problems found so far.
pub(crate) fn check_target(
    kind: StatementKind,
    name: &TableName,
    filter: &Option<Expr>,
    all_rows: bool,
) -> Vec<Error> {
    let mut errors = name.check().err().map(Error::into_vec).unwrap_or_default();
    if let Err(e) = check_where(kind, filter, all_rows) {
        errors.push(e);
    }
    errors
}

/// The WHERE-or-`all_rows()` rule shared by UPDATE and DELETE.
pub(crate) fn check_where(
    kind: StatementKind,
    filter: &Option<Expr>,
    all_rows: bool,
) -> Result<()> {
    match (filter, all_rows) {
        (None, false) => Err(Error::new(
            ErrorKind::DisallowedSyntax,
            format!(
                "{} without a WHERE clause would change every row of the table",
                kind.name()
            ),
        )
        .with_hint("add `.filter(...)`, or call `.all_rows()` if every row is meant")),
        (Some(_), true) => Err(Error::new(
            ErrorKind::DisallowedSyntax,
            format!(
                "{} has both a filter and `.all_rows()`; say one or the other",
                kind.name()
            ),
        )),
        _ => Ok(()),
    }
}

impl<T: IcebergTable> Update<T> {
    /// An UPDATE of `T`'s table.
    pub(crate) fn new() -> Self {
        Update {
            table: None,
            sets: Vec::new(),
            filter: None,
            all_rows: false,
            _table: PhantomData,
        }
    }

    /// Updates another table with the same columns (e.g. a staging copy) instead of
    /// `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.table = Some(name);
        self
    }

    /// `SET col = value`; the value is typed against the column.
    pub fn set<V: ColumnValue, R: IntoOperand<T, V::Base>>(
        mut self,
        col: Col<T, V>,
        value: R,
    ) -> Self {
        self.sets.push((col.name(), value.into_operand()));
        self
    }

    /// `SET col = NULL` (nullable columns only).
    pub fn set_null<X: SqlType>(mut self, col: Col<T, Option<X>>) -> Self {
        self.sets
            .push((col.name(), super::null_of(&X::iceberg_type())));
        self
    }

    /// Adds a WHERE condition (several are joined by AND).
    pub fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.filter = and_filter(self.filter.take(), cond.into_operand());
        self
    }

    /// Updates every row: required instead of a filter, so that a forgotten WHERE
    /// cannot rewrite the whole table.
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
        let kind = StatementKind::Update;
        let name = self.table.as_ref().unwrap_or(def.name());
        let mut errors = check_target(kind, name, &self.filter, self.all_rows);
        if self.sets.is_empty() {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                "UPDATE needs at least one `.set(column, value)`",
            ));
        }
        let mut assigned = Vec::with_capacity(self.sets.len());
        let mut sets = Vec::with_capacity(self.sets.len());
        for (name, value) in &self.sets {
            match column(def, name) {
                Ok(c) => sets.push((*name, retype_literal(value.clone(), &c.ty))),
                Err(e) => errors.push(e),
            }
            if assigned.contains(name) {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!("UPDATE sets column `{name}` twice"),
                ));
            }
            assigned.push(*name);
            check_columns(def, value, &mut errors);
            refuse_params(dialect, kind, value, &mut errors);
            refuse_aggregates("an UPDATE value", value, &mut errors);
        }
        check_filter(dialect, kind, def, self.filter.as_ref(), &mut errors);
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(kind, dialect);
        w.push("UPDATE ").table_name(name).push("\nSET ");
        for (i, (name, value)) in sets.iter().enumerate() {
            if i > 0 {
                w.push(", ");
            }
            w.ident(name).push(" = ");
            value.render(&mut w)?;
        }
        if let Some(f) = &self.filter {
            w.push("\nWHERE ");
            f.render(&mut w)?;
        }
        w.finish()
    }
}
