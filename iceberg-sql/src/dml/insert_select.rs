//! `INSERT INTO t (cols) SELECT cols FROM source [WHERE ...]`.

use std::marker::PhantomData;

use super::target::{builder_traits, Target};
use super::{column, combine};
use crate::dialect::typing::{AssignIn, Assigned, TypeScope, Written};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Col, IntoOperand};
use crate::model::TableName;
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};

/// Builds `INSERT INTO t (c1, ...) SELECT c1, ... FROM source [WHERE cond]`, copying
/// rows from another table with the same columns (a staging table, a CSV-backed raw
/// table). By default every column is copied; [`column`](InsertSelect::column) picks a
/// subset (the others must be nullable: they are left NULL).
///
/// This is the one DML form where Athena documents `?` parameters (in WHERE):
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::param;
/// # use std::sync::OnceLock;
/// struct Ev;
/// impl Ev {
///     const EVENT_ID: Col<Ev, String> = Col::new("event_id");
///     const STATUS: Col<Ev, String> = Col::new("status");
/// }
/// impl IcebergTable for Ev {
///     fn table_def() -> &'static TableDef {
///         static DEF: OnceLock<TableDef> = OnceLock::new();
///         DEF.get_or_init(|| TableDef::builder("analytics", "mcp_events")
///             .column(Column::new("event_id", IcebergType::String).required())
///             .column(Column::new("status", IcebergType::String))
///             .build().unwrap())
///     }
///     fn to_values(&self) -> Vec<Value> { unimplemented!() }
/// }
/// let staging = TableName::new("analytics", "mcp_events_staging");
/// let copy = Ev::insert_from(&staging).filter(Ev::STATUS.eq(param("success"))).build()?;
/// assert_eq!(copy.sql(),
///     "INSERT INTO analytics.mcp_events (event_id, status)\n\
///      SELECT event_id, status\nFROM analytics.mcp_events_staging\nWHERE status = ?");
/// assert_eq!(copy.params(), ["'success'"]);
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct InsertSelect<T> {
    /// The table written, and the filter on the source rows.
    target: Target,
    from: TableName,
    columns: Vec<&'static str>,
    _record: PhantomData<fn() -> T>,
}

builder_traits!(InsertSelect {
    target,
    from,
    columns
});

impl<T: IcebergTable> InsertSelect<T> {
    /// Copies rows of `from` (a table with `T`'s columns) into `T`'s table.
    pub(crate) fn new(from: &TableName) -> Self {
        InsertSelect {
            target: Target::of(T::table_def()),
            from: from.clone(),
            columns: Vec::new(),
            _record: PhantomData,
        }
    }

    /// Writes into another table with `T`'s columns instead of `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.target.set_table(name);
        self
    }

    /// Copies only the listed columns (call once per column, in any order); the rest
    /// must be nullable and are left NULL.
    pub fn column<V>(mut self, col: Col<T, V>) -> Self {
        self.columns.push(col.name());
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        build(&self.target, &self.from, &self.columns, dialect)
    }
}

/// [`InsertSelect::build_for`], compiled once for every record type.
fn build(
    target: &Target,
    from: &TableName,
    columns: &[&'static str],
    dialect: Dialect,
) -> Result<Statement> {
    let def = target.def();
    let kind = StatementKind::Insert;
    let into = target.table();
    let mut errors = target.check_table(kind, false);
    if let Err(e) = from.check() {
        errors.extend(e.into_vec());
    }
    if into == from {
        errors.push(Error::new(
            ErrorKind::DisallowedSyntax,
            format!("INSERT INTO `{into}` SELECT FROM the same table"),
        ));
    }
    let mut cols: Vec<&str> = Vec::new();
    if columns.is_empty() {
        cols.extend(def.columns().iter().map(|c| c.name.as_str()));
    } else {
        for name in columns {
            if let Err(e) = column(def, name) {
                errors.push(e);
            }
            if cols.contains(name) {
                errors.push(Error::new(
                    ErrorKind::DisallowedSyntax,
                    format!("INSERT lists column `{name}` twice"),
                ));
            }
            cols.push(name);
        }
        for c in def.columns() {
            if !c.nullable && !cols.contains(&c.name.as_str()) {
                errors.push(
                    Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "column `{}` is NOT NULL but the INSERT does not copy it",
                            c.name
                        ),
                    )
                    .with_hint(format!("add `.column(...)` for `{}`", c.name)),
                );
            }
        }
    }
    target.check_filter(dialect, kind, &mut errors);
    Error::check_all(errors)?;

    // The source has `T`'s columns: each is stored in its own column, and the
    // filter reads the source rows.
    let rules = dialect.rules();
    let scope = TypeScope::of_def(def);
    let mut pairs: Vec<Assigned> = def
        .columns()
        .iter()
        .filter(|c| cols.contains(&c.name.as_str()))
        .map(|c| Assigned::new(c, Written::column(&c.name)))
        .collect();
    let assigned = rules.check_assignments(&scope, AssignIn::Insert, &mut pairs);
    let filter = target.check_filter_types(rules, &scope);
    let ((), filter) = combine(assigned, filter)?;

    let mut w = SqlWriter::new(kind, dialect);
    w.push("INSERT INTO ")
        .table_name(into)
        .push(" (")
        .idents(cols.iter().copied())
        .push(")\nSELECT ")
        .idents(cols.iter().copied())
        .push("\nFROM ")
        .table_name(from);
    Target::write_where(&mut w, filter.as_ref())?;
    let mut statement = w.finish()?;
    statement.set_writes(into, None);
    Ok(statement)
}

/// The condition is on the source rows; it may hold [`param`](crate::dsl::param)
/// placeholders.
impl<T> Filter<T> for InsertSelect<T> {
    fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.target.filter(cond.into_operand());
        self
    }
}
