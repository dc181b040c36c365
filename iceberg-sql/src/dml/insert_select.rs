//! `INSERT INTO t (cols) SELECT cols FROM source [WHERE ...]`.

use std::marker::PhantomData;

use super::update::and_filter;
use super::{check_filter, column};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Col, Expr, IntoOperand};
use crate::model::TableName;
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::{Statement, StatementKind};

/// Builds `INSERT INTO t (c1, ...) SELECT c1, ... FROM source [WHERE cond]`, copying
/// rows from another table with the same columns (a staging table, a CSV-backed raw
/// table). By default every column is copied; [`column`](InsertSelect::column) picks a
/// subset (the others must be nullable: they are left NULL).
///
/// This is the one DML form where Athena documents `?` parameters (in WHERE):
///
/// ```
/// # use iceberg_sql::prelude::*;
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
///     fn from_row(_: &Row<'_>) -> Result<Self, Error> { unimplemented!() }
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
    from: TableName,
    into: Option<TableName>,
    columns: Vec<&'static str>,
    filter: Option<Expr>,
    _table: PhantomData<fn() -> T>,
}

impl<T> Clone for InsertSelect<T> {
    fn clone(&self) -> Self {
        InsertSelect {
            from: self.from.clone(),
            into: self.into.clone(),
            columns: self.columns.clone(),
            filter: self.filter.clone(),
            _table: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for InsertSelect<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InsertSelect")
            .field("from", &self.from)
            .field("into", &self.into)
            .field("columns", &self.columns)
            .field("filter", &self.filter)
            .finish()
    }
}

impl<T: IcebergTable> InsertSelect<T> {
    /// Copies rows of `from` (a table with `T`'s columns) into `T`'s table.
    pub(crate) fn new(from: &TableName) -> Self {
        InsertSelect {
            from: from.clone(),
            into: None,
            columns: Vec::new(),
            filter: None,
            _table: PhantomData,
        }
    }

    /// Writes into another table with `T`'s columns instead of `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.into = Some(name);
        self
    }

    /// Copies only the listed columns (call once per column, in any order); the rest
    /// must be nullable and are left NULL.
    pub fn column<V>(mut self, col: Col<T, V>) -> Self {
        self.columns.push(col.name());
        self
    }

    /// Adds a WHERE condition on the source rows (several are joined by AND); may hold
    /// [`param`](crate::expr::param) placeholders.
    pub fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.filter = and_filter(self.filter.take(), cond.into_operand());
        self
    }

    /// Checks, renders and validates the statement for Athena.
    pub fn build(&self) -> Result<Statement> {
        self.build_for(Dialect::default())
    }

    /// Checks, renders and validates the statement for `dialect`.
    pub fn build_for(&self, dialect: Dialect) -> Result<Statement> {
        let def = T::table_def();
        let kind = StatementKind::Insert;
        let into = self.into.as_ref().unwrap_or(def.name());
        let mut errors = Vec::new();
        for n in [into, &self.from] {
            if let Err(e) = n.check() {
                errors.extend(e.into_vec());
            }
        }
        if *into == self.from {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                format!("INSERT INTO `{into}` SELECT FROM the same table"),
            ));
        }
        let mut cols: Vec<&str> = Vec::new();
        if self.columns.is_empty() {
            cols.extend(def.columns().iter().map(|c| c.name.as_str()));
        } else {
            for name in &self.columns {
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
        check_filter(dialect, kind, def, self.filter.as_ref(), &mut errors);
        Error::check_all(errors)?;

        let mut w = SqlWriter::new(kind, dialect);
        w.push("INSERT INTO ").table_name(into).push(" (");
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                w.push(", ");
            }
            w.ident(c);
        }
        w.push(")\nSELECT ");
        for (i, c) in cols.iter().enumerate() {
            if i > 0 {
                w.push(", ");
            }
            w.ident(c);
        }
        w.push("\nFROM ").table_name(&self.from);
        if let Some(f) = &self.filter {
            w.push("\nWHERE ");
            f.render(&mut w)?;
        }
        w.finish()
    }
}
