//! `UPDATE ... SET ... WHERE ...`.

use std::marker::PhantomData;

use super::target::{builder_traits, Target};
use super::{check_row_expr, column, combine, retype_literal};
use crate::dialect::typing::{AssignIn, Assigned, TypeScope, Written};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Col, ColumnValue, Expr, IntoOperand};
use crate::model::TableName;
use crate::record::{IcebergTable, SqlType};
use crate::render::SqlWriter;
use crate::statement::{Filter, Statement, StatementKind};

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
    target: Target,
    sets: Vec<(&'static str, Expr)>,
    _record: PhantomData<fn() -> T>,
}

builder_traits!(Update { target, sets });

impl<T: IcebergTable> Update<T> {
    /// An UPDATE of `T`'s table.
    pub(crate) fn new() -> Self {
        Update {
            target: Target::of(T::table_def()),
            sets: Vec::new(),
            _record: PhantomData,
        }
    }

    /// Updates another table with the same columns (e.g. a staging copy) instead of
    /// `T`'s own.
    pub fn into_table(mut self, name: TableName) -> Self {
        self.target.set_table(name);
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

    /// Updates every row: required instead of a filter, so that a forgotten WHERE
    /// cannot rewrite the whole table.
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
        build(&self.target, &self.sets, dialect)
    }
}

/// [`Update::build_for`], compiled once for every record type.
fn build(target: &Target, sets: &[(&'static str, Expr)], dialect: Dialect) -> Result<Statement> {
    let def = target.def();
    let kind = StatementKind::Update;
    let name = target.table();
    let mut errors = target.check_table(kind, true);
    if sets.is_empty() {
        errors.push(Error::new(
            ErrorKind::DisallowedSyntax,
            "UPDATE needs at least one `.set(column, value)`",
        ));
    }
    let mut assigned = Vec::with_capacity(sets.len());
    for (i, (name, value)) in sets.iter().enumerate() {
        match column(def, name) {
            Ok(c) => assigned.push(Assigned::new(
                c,
                Written::Expr(retype_literal(value, &c.ty)),
            )),
            Err(e) => errors.push(e),
        }
        if sets[..i].iter().any(|(earlier, _)| earlier == name) {
            errors.push(Error::new(
                ErrorKind::DisallowedSyntax,
                format!("UPDATE sets column `{name}` twice"),
            ));
        }
        check_row_expr(dialect, kind, def, "an UPDATE value", value, &mut errors);
    }
    target.check_filter(dialect, kind, &mut errors);
    Error::check_all(errors)?;

    // The target's type rules check every value against its column and the filter.
    let rules = dialect.rules();
    let scope = TypeScope::of_def(def);
    let typed = rules.check_assignments(&scope, AssignIn::Update, &mut assigned);
    let filter = target.check_filter_types(rules, &scope);
    let ((), filter) = combine(typed, filter)?;

    let mut w = SqlWriter::new(kind, dialect);
    w.push("UPDATE ").table_name(name).push("\nSET ");
    // `column()` found every name above, so these are the columns' own names.
    w.try_comma_list(sets.iter().zip(&assigned), |w, ((name, _), set)| {
        w.ident(name).push(" = ");
        set.value.write(w)
    })?;
    Target::write_where(&mut w, filter.as_ref())?;
    let mut statement = w.finish()?;
    statement.set_writes(name, None);
    Ok(statement)
}

impl<T> Filter<T> for Update<T> {
    fn filter<C: IntoOperand<T, bool>>(mut self, cond: C) -> Self {
        self.target.filter(cond.into_operand());
        self
    }
}
