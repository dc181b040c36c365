//! Typed DML: INSERT (with size- and partition-aware batches), INSERT ... SELECT,
//! UPDATE, DELETE and MERGE, for Athena (Trino grammar: double quotes, `''` in strings)
//! and Spark (backticks, backslash escapes).
//!
//! Every builder starts from a table record type `T: IcebergTable` and ends in
//! `build()` (or [`Insert::batches`]), which checks meaning (columns exist on `T`'s
//! table, NOT NULL columns get values, MERGE clause order, parameters only where Athena
//! documents them), renders through a [`SqlWriter`](crate::render::SqlWriter) and
//! validates the text.
//!
//! | statement | entry point |
//! |---|---|
//! | `INSERT INTO t (cols) VALUES ...` | [`insert`]`(&rows)` / [`Insert::new`] |
//! | `INSERT INTO t (cols) SELECT cols FROM s WHERE ...` | [`insert_select`]`::<T>(&from)` |
//! | `UPDATE t SET ... WHERE ...` | [`update`]`::<T>()` |
//! | `DELETE FROM t WHERE ...` | [`delete`]`::<T>()` |
//! | `MERGE INTO t AS target USING ... AS source ...` | [`merge`]`::<T>(source)` |
//!
//! Parameters (`?` plus `ExecutionParameters`, see [`param`](crate::expr::param)) are
//! accepted where Athena documents them: the WHERE clause of INSERT INTO ... SELECT
//! (and SELECT, CTAS, UNLOAD, built elsewhere). UPDATE, DELETE and MERGE refuse them
//! with [`ErrorKind::Unsupported`].
//!
//! Known limits, by design:
//! a bucket() partition key uses Iceberg's Murmur3 hash for int, long, decimal, date,
//! timestamp, timestamptz, string and binary (the spec's bucket source types); the
//! `LIKE` pattern is sent as written (Spark treats `\` in it as an escape, Athena does
//! not); `current_timestamp()` is typed as a zone-less timestamp (Athena compares in
//! UTC).

mod delete;
mod insert;
mod insert_select;
mod merge;
pub mod partition;
mod update;

pub use delete::Delete;
pub use insert::{Insert, ATHENA_MAX_PARTITIONS};
pub use insert_select::InsertSelect;
pub use merge::{
    Merge, MergeInsert, MergeSource, MergeUpdate, WhenMatched, WhenNotMatched, DEDUP_COLUMN,
};
pub use update::Update;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Expr, Scope};
use crate::model::{Column, TableDef};
use crate::record::IcebergTable;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::value::Value;

/// DML entry points on the record type itself:
/// `McpEvent::insert(&rows)`, `McpEvent::update()`, `McpEvent::delete()`,
/// `McpEvent::insert_from(&staging)`, `McpEvent::merge_from(source)`. Implemented for
/// every [`IcebergTable`]; in the prelude.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use std::sync::OnceLock;
/// # struct Ev;
/// # impl Ev { const ID: Col<Ev, i64> = Col::new("id"); }
/// # impl IcebergTable for Ev {
/// #     fn table_def() -> &'static TableDef {
/// #         static DEF: OnceLock<TableDef> = OnceLock::new();
/// #         DEF.get_or_init(|| TableDef::builder("analytics", "ev")
/// #             .column(Column::new("id", IcebergType::Long)).build().unwrap())
/// #     }
/// #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
/// #     fn from_row(_: &Row<'_>) -> Result<Self, Error> { unimplemented!() }
/// # }
/// assert_eq!(Ev::delete().filter(Ev::ID.eq(7)).build()?.sql(),
///            "DELETE FROM analytics.ev\nWHERE id = 7");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub trait TableWrites: IcebergTable {
    /// [`insert`]: `INSERT INTO ... VALUES` for `rows`.
    fn insert(rows: &[Self]) -> Insert<'_, Self> {
        Insert::new(rows)
    }
    /// [`insert_select`]: `INSERT INTO ... SELECT ... FROM from`.
    fn insert_from(from: &crate::model::TableName) -> InsertSelect<Self> {
        InsertSelect::new(from)
    }
    /// [`update`]: `UPDATE ... SET ... WHERE`.
    fn update() -> Update<Self> {
        Update::new()
    }
    /// [`delete`]: `DELETE FROM ... WHERE`.
    fn delete() -> Delete<Self> {
        Delete::new()
    }
    /// [`merge`]: `MERGE INTO ... USING source`.
    fn merge_from(source: MergeSource<'_, Self>) -> Merge<'_, Self> {
        Merge::new(source)
    }
}

impl<T: IcebergTable> TableWrites for T {}

/// `INSERT INTO <T's table> (all columns) VALUES ...` for `rows`.
pub fn insert<T: IcebergTable>(rows: &[T]) -> Insert<'_, T> {
    Insert::new(rows)
}

/// `INSERT INTO <T's table> (columns) SELECT columns FROM <from> [WHERE ...]`.
pub fn insert_select<T: IcebergTable>(from: &crate::model::TableName) -> InsertSelect<T> {
    InsertSelect::new(from)
}

/// `UPDATE <T's table> SET ... WHERE ...`.
pub fn update<T: IcebergTable>() -> Update<T> {
    Update::new()
}

/// `DELETE FROM <T's table> WHERE ...`.
pub fn delete<T: IcebergTable>() -> Delete<T> {
    Delete::new()
}

/// `MERGE INTO <T's table> AS target USING <source> AS source ...`.
pub fn merge<'a, T: IcebergTable>(source: MergeSource<'a, T>) -> Merge<'a, T> {
    Merge::new(source)
}

/// The column `name` of `def`, or an error naming the table.
pub(crate) fn column<'d>(def: &'d TableDef, name: &str) -> Result<&'d Column> {
    def.column(name).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidIdentifier,
            format!("`{name}` is not a column of table `{}`", def.name()),
        )
        .with_hint("use the column constants of the table's record type")
    })
}

/// Every column `expr` reads must exist on `def`.
pub(crate) fn check_columns(def: &TableDef, expr: &Expr, errors: &mut Vec<Error>) {
    for (_, name) in expr.columns() {
        if let Err(e) = column(def, name) {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
    }
}

/// Refuses `?` placeholders in statement kinds the target takes no parameters for.
pub(crate) fn refuse_params(
    dialect: Dialect,
    kind: StatementKind,
    expr: &Expr,
    errors: &mut Vec<Error>,
) {
    if expr.contains_param() && !dialect.rules().accepts_parameters(kind) {
        let e = Error::new(
            ErrorKind::Unsupported,
            format!(
                "{} statements cannot take `?` parameters: Athena documents ExecutionParameters only for SELECT, INSERT INTO, CTAS and UNLOAD",
                kind.name()
            ),
        )
        .with_hint("pass the value as a literal (it is escaped for the grammar)");
        if !errors.contains(&e) {
            errors.push(e);
        }
    }
}

/// The checks every WHERE filter gets: its columns exist, `?` only where the kind takes
/// parameters, no aggregates.
pub(crate) fn check_filter(
    dialect: Dialect,
    kind: StatementKind,
    def: &TableDef,
    filter: Option<&Expr>,
    errors: &mut Vec<Error>,
) {
    if let Some(f) = filter {
        check_columns(def, f, errors);
        refuse_params(dialect, kind, f, errors);
        refuse_aggregates("a WHERE clause", f, errors);
    }
}

/// Refuses aggregates where a row-level expression is required.
pub(crate) fn refuse_aggregates(what: &str, expr: &Expr, errors: &mut Vec<Error>) {
    if expr.contains_aggregate() {
        errors.push(Error::new(
            ErrorKind::DisallowedSyntax,
            format!("{what} cannot contain an aggregate function"),
        ));
    }
}

/// Gives a literal the exact type of the column it is written to (e.g. a decimal
/// literal takes the column's precision and scale), so the value is checked against
/// it when rendered.
pub(crate) fn retype_literal(expr: Expr, ty: &IcebergType) -> Expr {
    match expr {
        Expr::Literal { value, .. } => Expr::Literal {
            value,
            ty: ty.clone(),
        },
        e => e,
    }
}

/// `Expr::Literal(NULL)` of the column's type.
pub(crate) fn null_of(ty: &IcebergType) -> Expr {
    Expr::Literal {
        value: Value::Null,
        ty: ty.clone(),
    }
}

/// A source column reference, for MERGE helpers.
pub(crate) fn source_col(name: &'static str) -> Expr {
    Expr::Column {
        scope: Scope::Source,
        name,
    }
}

/// Prefixes an error's message with `what` (a row, a column).
pub(crate) fn context(e: Error, what: impl std::fmt::Display) -> Error {
    let mut out = Error::new(e.kind(), format!("{what}: {}", e.message()));
    if let Some(h) = e.hint() {
        out = out.with_hint(h);
    }
    out
}
