//! Type rules: what a target's engine makes of the values a statement writes.
//!
//! A builder never writes an expression on its own. It hands every expression (a
//! filter, a SET value, a projected column, a CTAS output) to its target's rules
//! (`DialectRules::check_*`), which type it as that engine would and answer with a
//! [`Checked`] value: the expression, and the conversion the target writes around it
//! where the intent is unambiguous (`CAST(current_timestamp AS timestamp(6))` into an
//! Iceberg `timestamp` column on Athena). Where the engine would refuse the statement
//! at run time, or run it with another meaning, the rules refuse it here, saying which
//! side to convert and how.
//!
//! Athena's rules (Trino's, strict about coercions and precision) are the default
//! (`athena_types.rs`); Spark's are lenient and only pass values through.
//!
//! Everything here is target-independent: the scope column references resolve in, the
//! checked value and how it is written. What was typed is recorded, in tests, by
//! [`crate::expr::audit`].

use std::borrow::Cow;

use crate::engine::types::{EngineType, TableFormat};
use crate::error::Result;
use crate::expr::{audit, BinaryOp, Expr, Scope};
use crate::model::{any_tz_column, Column, TableDef};
use crate::render::SqlWriter;
use crate::types::IcebergType;
use crate::value::Value;

/// The relations a statement's column references resolve in, with their types.
#[derive(Debug, Clone, Default)]
pub(crate) struct TypeScope<'a> {
    /// The statement's table: unqualified columns, and in a MERGE the target row.
    table: &'a [Column],
    /// A MERGE source whose columns are not the table's own (a SELECT), by name.
    source: Option<Vec<(String, EngineType)>>,
    /// Tables joined in a SELECT (their columns are referenced unqualified).
    joined: Vec<&'a [Column]>,
    /// Whether a table or joined column is a `timestamptz` (else nothing is normalized).
    has_tz_column: bool,
}

impl<'a> TypeScope<'a> {
    /// The columns of one table (a MERGE source with the same columns included).
    pub(crate) fn table(columns: &'a [Column]) -> Self {
        TypeScope {
            table: columns,
            source: None,
            joined: Vec::new(),
            has_tz_column: any_tz_column(columns),
        }
    }

    /// The columns of a table definition (as [`TypeScope::table`], with what the
    /// definition already knows of its columns).
    pub(crate) fn of_def(def: &'a TableDef) -> Self {
        TypeScope {
            table: def.columns(),
            source: None,
            joined: Vec::new(),
            has_tz_column: def.has_tz_column(),
        }
    }

    /// A MERGE whose source rows have these types instead of the table's own.
    pub(crate) fn with_source(mut self, source: Vec<(String, EngineType)>) -> Self {
        self.source = Some(source);
        self
    }

    /// Adds a joined table.
    pub(crate) fn join(mut self, columns: &'a [Column]) -> Self {
        self.joined.push(columns);
        self.has_tz_column |= any_tz_column(columns);
        self
    }

    /// The Iceberg column `name` of the statement's table or a joined one.
    pub(crate) fn iceberg_column(&self, scope: Scope, name: &str) -> Option<&'a IcebergType> {
        if scope == Scope::Source && self.source.is_some() {
            return None;
        }
        let find = |cols: &'a [Column]| cols.iter().find(|c| c.name == name).map(|c| &c.ty);
        find(self.table).or_else(|| self.joined.iter().find_map(|cols| find(cols)))
    }

    /// The engine type of column `name` as referenced from `scope`.
    pub(crate) fn column_type(&self, scope: Scope, name: &str) -> Option<EngineType> {
        if let (Scope::Source, Some(source)) = (scope, &self.source) {
            return source
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone());
        }
        let ty = self.iceberg_column(scope, name)?;
        EngineType::of_column(ty, TableFormat::Iceberg).ok()
    }
}

/// Where an assignment happens: Trino words its refusal per statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AssignIn {
    /// `INSERT INTO t (cols) VALUES …` or `… SELECT …`.
    Insert,
    /// `UPDATE t SET …`.
    Update,
    /// A MERGE `WHEN` clause (0-based over all clauses, as Trino counts them): its
    /// `UPDATE SET` or `INSERT` values.
    Merge {
        /// The clause's index.
        case: usize,
    },
}

/// A value stored in a column: an INSERT column's, an UPDATE or MERGE `SET` value.
///
/// A builder holds its statement's assignments in one list, which the target's rules
/// check in place (`DialectRules::check_assignments`): before, `value` is the value as
/// the builder wrote it, untyped; after, as the rules checked it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Assigned<'c, 'e> {
    /// The column stored in.
    pub(crate) column: &'c Column,
    /// The value stored.
    pub(crate) value: Checked<'e>,
}

impl<'c, 'e> Assigned<'c, 'e> {
    /// `written` stored in `column`, not yet checked.
    pub(crate) fn new(column: &'c Column, written: Written<'e>) -> Self {
        Assigned {
            column,
            value: Checked::plain(written, None),
        }
    }
}

/// What a checked value writes: an expression, or a column of the statement's table
/// named at run time (a default projection).
///
/// It borrows the builder's expression where the rules write it unchanged (the usual
/// case), so checking a statement copies no tree; a rewritten one is owned.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Written<'a> {
    /// An expression.
    Expr(Cow<'a, Expr>),
    /// An unqualified column of the statement's table.
    Column(Cow<'a, str>),
}

impl<'a> Written<'a> {
    /// The builder's expression, borrowed.
    pub(crate) fn expr(e: &'a Expr) -> Self {
        Written::Expr(Cow::Borrowed(e))
    }

    /// The column `name` of the statement's table, borrowed.
    pub(crate) fn column(name: &'a str) -> Self {
        Written::Column(Cow::Borrowed(name))
    }

    /// The same, owning what it borrowed.
    pub(crate) fn into_owned(self) -> Written<'static> {
        match self {
            Written::Expr(e) => Written::Expr(Cow::Owned(e.into_owned())),
            Written::Column(c) => Written::Column(Cow::Owned(c.into_owned())),
        }
    }
}

/// A value the target's type rules checked: what to write, and the conversion written
/// around it (`CAST(x AS <type>)`), if the rules added one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Checked<'a> {
    written: Written<'a>,
    /// Its type as the engine sees it, where the target's rules know it.
    ty: Option<EngineType>,
    /// The type the rules convert it to.
    convert_to: Option<EngineType>,
}

impl<'a> Checked<'a> {
    /// `written` as it is, of type `ty` (if known).
    pub(crate) fn plain(written: Written<'a>, ty: Option<EngineType>) -> Self {
        Checked {
            written,
            ty,
            convert_to: None,
        }
    }

    /// `CAST(written AS to)`.
    pub(crate) fn converted(written: Written<'a>, ty: Option<EngineType>, to: EngineType) -> Self {
        Checked {
            written,
            ty,
            convert_to: Some(to),
        }
    }

    /// What it writes, moved out (an empty column name is left in its place).
    pub(crate) fn take_written(&mut self) -> Written<'a> {
        std::mem::replace(&mut self.written, Written::column(""))
    }

    /// What it writes, for the rules to type (and rewrite) it in place.
    pub(crate) fn written_mut(&mut self) -> &mut Written<'a> {
        &mut self.written
    }

    /// Sets its type and the conversion written around it, as the rules decided.
    pub(crate) fn set_types(&mut self, ty: EngineType, convert_to: Option<EngineType>) {
        self.ty = Some(ty);
        self.convert_to = convert_to;
    }

    /// The same, owning what it borrowed (to keep it beyond the builder's borrow).
    pub(crate) fn into_owned(self) -> Checked<'static> {
        Checked {
            written: self.written.into_owned(),
            ty: self.ty,
            convert_to: self.convert_to,
        }
    }

    /// The value's type before any conversion, where the target's rules worked it out
    /// (not for a literal an assignment stores as written).
    pub(crate) fn value_type(&self) -> Option<&EngineType> {
        self.ty.as_ref()
    }

    /// The value's type as the engine sees it, after any conversion (`None` where the
    /// target's rules do not type values).
    pub(crate) fn ty(&self) -> Option<&EngineType> {
        self.convert_to.as_ref().or(self.ty.as_ref())
    }

    /// The type written around the value, if any.
    pub(crate) fn conversion(&self) -> Option<&EngineType> {
        self.convert_to.as_ref()
    }

    /// The expression written, when it is one.
    pub(crate) fn expr(&self) -> Option<&Expr> {
        match &self.written {
            Written::Expr(e) => Some(e),
            Written::Column(_) => None,
        }
    }

    /// Writes the value (and its conversion).
    pub(crate) fn write(&self, w: &mut SqlWriter) -> Result<()> {
        let _written = audit::checked_write();
        if self.convert_to.is_some() {
            w.push("CAST(");
        }
        match &self.written {
            Written::Expr(e) => e.render(w)?,
            Written::Column(name) => {
                w.ident(name);
            }
        }
        if let Some(to) = &self.convert_to {
            w.push(" AS ");
            write_engine_type(w, to);
            w.push_char(')');
        }
        Ok(())
    }
}

/// Writes an engine type in Trino's syntax, quoting row field names as the statement's
/// grammar requires (`row("from" integer)`).
pub(crate) fn write_engine_type(w: &mut SqlWriter, ty: &EngineType) {
    match ty {
        EngineType::Array(e) => {
            w.push("array(");
            write_engine_type(w, e);
            w.push_char(')');
        }
        EngineType::Map(k, v) => {
            w.push("map(");
            write_engine_type(w, k);
            w.push(", ");
            write_engine_type(w, v);
            w.push_char(')');
        }
        EngineType::Row(fields) => {
            w.push("row(");
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    w.push(", ");
                }
                if let Some(n) = &f.name {
                    w.ident(n).push_char(' ');
                }
                write_engine_type(w, &f.ty);
            }
            w.push_char(')');
        }
        other => {
            w.push(&other.to_string());
        }
    }
}

/// Rewrites what every target reads the same way before it is typed: a timestamp
/// literal compared with a `timestamptz` column (a `DateTime<Utc>` value written as the
/// UTC wall clock) becomes a `timestamptz` literal of the same instant, so that the
/// comparison does not depend on the session time zone.
///
/// An expression with nothing to rewrite (the usual case) is given back as it came,
/// borrowed or owned; only a rewrite copies a borrowed tree.
///
/// An expression deeper than the depth limit is given back as it came too: the copy
/// and the rewrite recurse, and typing or writing refuses it.
pub(crate) fn normalize<'e>(scope: &TypeScope<'_>, expr: Cow<'e, Expr>) -> Cow<'e, Expr> {
    if !scope.has_tz_column || !has_tz_rewrite(scope, &expr) || expr.check_depth().is_err() {
        return expr;
    }
    let mut e = expr.into_owned();
    normalize_in_place(scope, &mut e);
    Cow::Owned(e)
}

/// Whether a node of `e` is one [`normalize_in_place`] rewrites: a comparison, BETWEEN
/// or IN of a `timestamptz` column with a `timestamp` literal.
fn has_tz_rewrite(scope: &TypeScope<'_>, e: &Expr) -> bool {
    // A `DateTime<Utc>` operand is a `timestamp` literal holding its instant.
    let is_ts = |x: &Expr| {
        matches!(
            x,
            Expr::Literal {
                value: Value::Timestamp(_) | Value::TimestampTz(_),
                ty: IcebergType::Timestamp,
            }
        )
    };
    let mut found = false;
    e.walk(&mut |x| {
        found = found
            || match x {
                Expr::Binary { op, operands } => {
                    let [left, right] = &**operands;
                    is_comparison(*op)
                        && ((is_tz_column(scope, left) && is_ts(right))
                            || (is_tz_column(scope, right) && is_ts(left)))
                }
                Expr::Between {
                    expr, low, high, ..
                } => is_tz_column(scope, expr) && (is_ts(low) || is_ts(high)),
                Expr::InList { expr, list, .. } => {
                    is_tz_column(scope, expr) && list.iter().any(is_ts)
                }
                _ => false,
            };
    });
    found
}

/// A column of type `timestamptz`.
fn is_tz_column(scope: &TypeScope<'_>, x: &Expr) -> bool {
    match x {
        Expr::Column { scope: s, name } => {
            matches!(
                scope.iceberg_column(*s, name),
                Some(IcebergType::TimestampTz)
            )
        }
        _ => false,
    }
}

/// A comparison operator (not AND/OR or arithmetic).
pub(super) fn is_comparison(op: BinaryOp) -> bool {
    !matches!(
        op,
        BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Plus
            | BinaryOp::Minus
            | BinaryOp::Multiply
            | BinaryOp::Divide
            | BinaryOp::Modulo
    )
}

fn normalize_in_place(scope: &TypeScope<'_>, e: &mut Expr) {
    let is_tz_column = |x: &Expr| is_tz_column(scope, x);
    let to_tz = |x: &mut Expr| {
        let instant = match x {
            Expr::Literal {
                value: Value::Timestamp(ts),
                ty: IcebergType::Timestamp,
            } => ts.and_utc(),
            Expr::Literal {
                value: Value::TimestampTz(ts),
                ty: IcebergType::Timestamp,
            } => *ts,
            _ => return,
        };
        *x = Expr::Literal {
            value: Value::TimestampTz(instant),
            ty: IcebergType::TimestampTz,
        };
    };
    // The rewrite at this node, then the same below it.
    match e {
        Expr::Binary { op, operands } if is_comparison(*op) => {
            let [left, right] = &mut **operands;
            if is_tz_column(left) {
                to_tz(right);
            }
            if is_tz_column(right) {
                to_tz(left);
            }
        }
        Expr::Between {
            expr, low, high, ..
        } if is_tz_column(expr) => {
            to_tz(low);
            to_tz(high);
        }
        Expr::InList { expr, list, .. } if is_tz_column(expr) => {
            list.iter_mut().for_each(to_tz);
        }
        _ => {}
    }
    e.for_each_child_mut(|c| normalize_in_place(scope, c));
}

#[cfg(test)]
mod walk_tests;

#[cfg(test)]
mod normalize_tests {
    use chrono::NaiveDate;

    use super::*;

    #[test]
    fn only_an_expression_with_a_rewrite_is_copied() {
        let columns = [
            Column::new("at", IcebergType::TimestampTz),
            Column::new("ts", IcebergType::Timestamp),
            Column::new("n", IcebergType::Long),
        ];
        let scope = TypeScope::table(&columns);
        let col = |name| Expr::Column {
            scope: Scope::Table,
            name,
        };
        let ts = || Expr::Literal {
            value: Value::Timestamp(
                NaiveDate::from_ymd_opt(2026, 9, 1)
                    .unwrap()
                    .and_hms_opt(1, 2, 3)
                    .unwrap(),
            ),
            ty: IcebergType::Timestamp,
        };
        // What a `DateTime<Utc>` operand makes: its instant in a `timestamp` literal.
        let utc = || Expr::Literal {
            value: Value::TimestampTz(
                NaiveDate::from_ymd_opt(2026, 9, 1)
                    .unwrap()
                    .and_hms_opt(1, 2, 3)
                    .unwrap()
                    .and_utc(),
            ),
            ty: IcebergType::Timestamp,
        };
        let long = || Expr::Literal {
            value: Value::Long(7),
            ty: IcebergType::Long,
        };
        let bin = |op, l: Expr, r: Expr| Expr::binary(op, l, r);
        let between = |e: Expr, low: Expr, high: Expr| Expr::Between {
            expr: Box::new(e),
            low: Box::new(low),
            high: Box::new(high),
            negated: false,
        };
        let in_list = |e: Expr, list: Vec<Expr>| Expr::InList {
            expr: Box::new(e),
            list,
            negated: false,
        };
        // (expression, whether normalizing rewrites it)
        let cases = [
            (bin(BinaryOp::Lt, col("at"), ts()), true),
            (bin(BinaryOp::GtEq, ts(), col("at")), true),
            (bin(BinaryOp::Lt, col("at"), utc()), true),
            (between(col("at"), utc(), ts()), true),
            (bin(BinaryOp::Lt, col("ts"), ts()), false),
            (bin(BinaryOp::Lt, col("ts"), utc()), false),
            (bin(BinaryOp::Eq, col("n"), long()), false),
            (bin(BinaryOp::Minus, col("at"), ts()), false),
            (between(col("at"), ts(), ts()), true),
            (between(col("ts"), ts(), ts()), false),
            (in_list(col("at"), vec![ts()]), true),
            (in_list(col("at"), vec![]), false),
            (in_list(col("n"), vec![long()]), false),
            (
                bin(
                    BinaryOp::And,
                    bin(BinaryOp::Eq, col("n"), long()),
                    Expr::Not(Box::new(bin(BinaryOp::Lt, col("at"), ts()))),
                ),
                true,
            ),
            (
                Expr::Case {
                    branches: vec![(bin(BinaryOp::Gt, col("at"), ts()), long())],
                    otherwise: None,
                },
                true,
            ),
            (Expr::Coalesce(vec![col("ts"), ts()]), false),
        ];
        for (e, rewrites) in cases {
            let mut by_hand = e.clone();
            normalize_in_place(&scope, &mut by_hand);
            assert_eq!(by_hand != e, rewrites, "{e:?}");
            assert_eq!(has_tz_rewrite(&scope, &e), rewrites, "{e:?}");
            let out = normalize(&scope, Cow::Borrowed(&e));
            assert_eq!(matches!(out, Cow::Owned(_)), rewrites, "{e:?}");
            assert_eq!(*out, by_hand);
        }
    }
}
