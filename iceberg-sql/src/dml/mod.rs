//! Typed DML: INSERT (with size- and partition-aware batches), INSERT ... SELECT,
//! UPDATE, DELETE and MERGE, for Athena (Trino grammar: double quotes, `''` in strings)
//! and Spark (backticks, backslash escapes).
//!
//! Every builder starts from a table record type `T: IcebergTable`, through
//! [`TableStatements`](crate::TableStatements), and ends in `build()` /
//! `build_for(dialect)` (or [`Insert::batches`]), which checks meaning (columns exist on
//! `T`'s table, NOT NULL columns get values, MERGE clause order, parameters only where
//! the target takes them), renders through a [`SqlWriter`] and
//! validates the text.
//!
//! The record type lives in the builders' signatures only (which columns and values a
//! method accepts, so a wrong one does not compile); each builder hands its type's
//! table definition, and its rows as `&dyn InlineRows`, to a body that checks and
//! writes the statement. Those bodies are not generic, so an application with many
//! tables compiles them once.
//!
//! | statement | entry point |
//! |---|---|
//! | `INSERT INTO t (cols) VALUES ...` | `T::insert(&rows)` |
//! | `INSERT INTO t (cols) SELECT cols FROM s WHERE ...` | `T::insert_from(&s)` |
//! | `UPDATE t SET ... WHERE ...` | `T::update()` |
//! | `DELETE FROM t WHERE ...` | `T::delete()` |
//! | `MERGE INTO t AS target USING ... AS source ...` | `T::merge_from(source)` |
//!
//! Parameters (`?` plus `ExecutionParameters`, see [`param`](crate::dsl::param)) are
//! accepted where Athena documents them: the WHERE clause of INSERT INTO ... SELECT
//! (and SELECT, CTAS, UNLOAD, built elsewhere). UPDATE, DELETE and MERGE refuse them
//! with [`ErrorKind::Unsupported`].
//!
//! Known limits, by design:
//! a bucket() partition key uses Iceberg's Murmur3 hash for int, long, decimal, date,
//! timestamp, timestamptz, string and binary (the spec's bucket source types);
//! `current_timestamp()` is typed as a zone-less timestamp (Athena compares in UTC).

mod delete;
mod insert;
mod insert_select;
mod merge;
mod packing_order;
#[cfg(feature = "bench-hooks")]
#[doc(hidden)]
pub mod partition;
#[cfg(not(feature = "bench-hooks"))]
pub(crate) mod partition;
mod target;
mod update;

pub use delete::Delete;
pub use insert::{BatchIter, Insert, ValuesInsert, ATHENA_MAX_PARTITIONS};
pub use insert_select::InsertSelect;
pub use merge::{
    Merge, MergeInsert, MergeSource, MergeUpdate, SourceQuery, WhenMatched, WhenNotMatched,
    DEDUP_COLUMN,
};
pub use partition::PartitionCounter;
pub use update::Update;

use std::borrow::Cow;

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Expr, Scope};
use crate::model::{Column, TableDef};
use crate::record::IcebergTable;
use crate::render::SqlWriter;
use crate::statement::StatementKind;
use crate::types::IcebergType;
use crate::value::Value;

/// Typed rows (INSERT VALUES, a MERGE's inline source) read by index without their
/// record type: the code that checks and writes them takes `&dyn InlineRows`, so it
/// compiles once, not once per record type.
pub(crate) trait InlineRows {
    /// The number of rows.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Row `i`'s values, in column order.
    fn values(&self, i: usize) -> Vec<Value>;
}

impl<T: IcebergTable> InlineRows for &[T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    fn values(&self, i: usize) -> Vec<Value> {
        self[i].to_values()
    }
}

/// The column `name` of `def`, or an error naming the table.
pub(crate) fn column<'d>(def: &'d TableDef, name: &str) -> Result<&'d Column> {
    def.column(name).ok_or_else(|| {
        Error::new(
            ErrorKind::UnknownColumn,
            format!("`{name}` is not a column of table `{}`", def.name()),
        )
        .with_hint("use the column constants of the table's record type")
    })
}

/// Column `name` of `def`, which `what` (a window the statement writes) sorts by: it
/// must exist and be orderable in Trino (`Type.isOrderable`: not a `map` or `json`, nor
/// an array or row holding one), or the engine refuses the ORDER BY, and not an array or
/// row, which can fail the query at run time (`engine::coercion::sort_failure`).
pub(crate) fn sort_column<'d>(def: &'d TableDef, name: &str, what: &str) -> Result<&'d Column> {
    let c = column(def, name)?;
    let ty = crate::engine::types::EngineType::of_column(
        &c.ty,
        crate::engine::types::TableFormat::Iceberg,
    )?;
    if !crate::engine::coercion::is_orderable(&ty) {
        return Err(Error::new(
            ErrorKind::TypeMismatch,
            format!(
                "{what} orders by `{name}`, of type {ty}: Type {ty} is not orderable, and therefore cannot be used in ORDER BY"
            ),
        )
        .with_hint(format!(
            "order by a column of a number, text, date, timestamp or boolean type instead of `{name}`"
        )));
    }
    if let Some(why) = crate::engine::coercion::sort_failure(&ty) {
        return Err(Error::new(
            ErrorKind::TypeMismatch,
            format!("{what} orders by `{name}`, of type {ty}: {why}"),
        )
        .with_hint(crate::engine::coercion::SORT_FAILURE_HINT));
    }
    Ok(c)
}

/// The checks every row-level expression a DML statement writes gets (a WHERE filter,
/// a SET or MERGE value, a WHEN condition), in one walk of the tree: every column it
/// reads exists on `def`, `?` only where the statement kind takes parameters, and no
/// aggregate (`what` names the expression in that refusal).
pub(crate) fn check_row_expr(
    dialect: Dialect,
    kind: StatementKind,
    def: &TableDef,
    what: &str,
    expr: &Expr,
    errors: &mut Vec<Error>,
) {
    // A literal (the usual SET value) reads no column and is neither `?` nor an
    // aggregate: the walk below would find nothing.
    if matches!(expr, Expr::Literal { .. }) {
        return;
    }
    let (mut param, mut aggregate) = (false, false);
    expr.walk(&mut |e| match e {
        Expr::Column { name, .. } => {
            if let Err(e) = column(def, name) {
                if !errors.contains(&e) {
                    errors.push(e);
                }
            }
        }
        Expr::Param { .. } => param = true,
        Expr::Aggregate { .. } => aggregate = true,
        _ => {}
    });
    if param && !dialect.rules().accepts_parameters(kind) {
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
    if aggregate {
        errors.push(Error::new(
            ErrorKind::DisallowedSyntax,
            format!("{what} cannot contain an aggregate function"),
        ));
    }
}

/// [`check_row_expr`] of a WHERE filter, if there is one.
pub(crate) fn check_filter(
    dialect: Dialect,
    kind: StatementKind,
    def: &TableDef,
    filter: Option<&Expr>,
    errors: &mut Vec<Error>,
) {
    if let Some(f) = filter {
        check_row_expr(dialect, kind, def, "a WHERE clause", f, errors);
    }
}

/// Gives a literal the exact type of the column it is written to (e.g. a decimal
/// literal takes the column's precision and scale), so the value is checked against
/// it when rendered. Borrowed as it is unless that changes its type.
pub(crate) fn retype_literal<'e>(expr: &'e Expr, ty: &IcebergType) -> Cow<'e, Expr> {
    match expr {
        Expr::Literal { value, ty: own } if !own.same_as(ty) => Cow::Owned(Expr::Literal {
            value: value.clone(),
            ty: ty.clone(),
        }),
        e => Cow::Borrowed(e),
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

/// `(v1, v2, …)`: one row's values as literals of their columns' exact types, in
/// column order. `row` names the row in errors (`("row", 3)`, `("source row", 3)`); the
/// count of values and NOT NULL are checked here.
pub(crate) fn write_row(
    w: &mut SqlWriter,
    def: &TableDef,
    values: &[Value],
    row: (&str, usize),
) -> Result<()> {
    let (what, r) = row;
    let columns = def.columns();
    if values.len() != columns.len() {
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "{what} {r}: {} values for the {} columns of table `{}`",
                values.len(),
                columns.len(),
                def.name()
            ),
        ));
    }
    w.push_char('(');
    w.try_comma_list(values.iter().zip(columns), |w, (v, c)| {
        if matches!(v, Value::Null) && !c.nullable {
            return Err(Error::new(
                ErrorKind::InvalidValue,
                format!(
                    "{what} {r}: column `{}` is NOT NULL but the value is NULL",
                    c.name
                ),
            ));
        }
        let rules = w.rules();
        rules
            .check_row_value(v, c)
            .and_then(|()| w.literal(v, &c.ty).map(drop))
            .map_err(|e| context(e, format_args!("{what} {r}, column `{}`", c.name)))?;
        Ok(())
    })?;
    w.push_char(')');
    Ok(())
}

/// Both results, or every error of both.
pub(crate) fn combine<A, B>(a: Result<A>, b: Result<B>) -> Result<(A, B)> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(a), b) => Err(match b {
            Ok(_) => a,
            Err(b) => a.and(b),
        }),
        (Ok(_), Err(b)) => Err(b),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn err(message: &'static str) -> Error {
        Error::new(ErrorKind::InvalidValue, message)
    }

    #[test]
    fn combine_keeps_every_error_of_both_in_order() {
        assert_eq!(
            combine(Ok::<_, Error>(1), Ok::<_, Error>(2)).ok(),
            Some((1, 2))
        );
        let one = |r: Result<((), ())>| {
            r.err()
                .map(|e| e.all().map(|e| e.message().to_string()).collect::<Vec<_>>())
        };
        assert_eq!(one(combine(Err(err("a")), Ok(()))), Some(vec!["a".into()]));
        assert_eq!(one(combine(Ok(()), Err(err("b")))), Some(vec!["b".into()]));
        let a = err("a1").and(err("a2"));
        let b = err("b1").and(err("b2"));
        assert_eq!(
            one(combine(Err(a), Err(b))),
            Some(vec!["a1".into(), "a2".into(), "b1".into(), "b2".into()])
        );
    }
}
