//! Athena's type rules (Trino's, engine v3): the default type rules of every target.
//!
//! Every expression is typed bottom-up as Trino types it (`crate::engine`: literal
//! types, coercions, function and operator results), so that what Athena's analyzer
//! would refuse at run time (TYPE_MISMATCH, FUNCTION_NOT_FOUND, NOT_SUPPORTED, ...) is
//! refused when the statement is built, with the engine's own words and the fix; and
//! where Athena would run it with another meaning, the conversion is written out or the
//! statement refused.
//!
//! Assignments (INSERT, UPDATE SET, MERGE SET and INSERT) follow Trino's store rule
//! (`StatementAnalyzer.typesMatchForInsert`, trinodb/trino release 417;
//! `TypeCoercion.isStoreAssignable` in current master): an exact or implicit match is
//! written as is; a conversion between time zones is written out as a CAST (see
//! [`check_assignments`]); one that can only fail loudly (a numeric overflow) is
//! Trino's own CAST; one that rounds or drops the time of day silently, and every
//! mismatch, is refused.

use std::borrow::Cow;

use super::typing::{audit, is_comparison, AssignIn, Assigned, Checked, TypeScope, Written};
use crate::engine::casts::{can_cast, can_cast_to_json, json_blockers};
use crate::engine::coercion::{
    assignment, common_super_type, comparison_type, is_comparable, is_orderable, single_type,
    sort_failure, Assignment, Comparison, NoCommonType, SORT_FAILURE_HINT,
};
use crate::engine::functions::{
    aggregate_type, arithmetic_type, date_trunc_type, function_type, AggregateFn, Arithmetic,
    Clock, TruncUnit,
};
use crate::engine::literals::{interval_literal_type, literal_type};
use crate::engine::targets::{check_output_column, output_cast, OutputTarget};
use crate::engine::types::{EngineType, TableFormat};
use crate::error::{Error, ErrorKind, Result};
use crate::expr::{Aggregate, BinaryOp, Expr, Scope, TimeUnit};
use crate::model::Column;
use crate::types::IcebergType;
use crate::value::Value;

/// Digits before the point of a decimal type.
fn integer_digits_of(ty: &EngineType) -> u8 {
    match ty {
        EngineType::Decimal { precision, scale } => precision - scale,
        _ => 0,
    }
}

/// A decimal literal compared with a decimal, where their common super type, capped at
/// 38 digits, has fewer integer digits than the literal
/// (`TypeCoercion.getCommonSuperTypeForDecimal` "allows potential loss of precision"):
/// `c = DECIMAL '999999999999999999999999999999999.0'` on a `decimal(38,6)` column casts
/// the `decimal(34,1)` literal to `decimal(38,6)`, and Trino 476 fails the query with
/// "Cannot cast DECIMAL(34, 1) '…' to DECIMAL(38, 6)". (A literal's type has exactly its
/// digits, so the cast fails for every row; a column side is not cast this way, the
/// planner compares it with the literal, `UnwrapCastInComparison`.)
fn decimal_literal_overflows(l: &EngineType, r: &EngineType, left: &Expr, right: &Expr) -> bool {
    if !matches!(
        (l, r),
        (EngineType::Decimal { .. }, EngineType::Decimal { .. })
    ) {
        return false;
    }
    let Some(common) = common_super_type(l, r) else {
        return false;
    };
    let literal = |e: &Expr| matches!(e, Expr::Literal { .. } | Expr::Param { .. });
    (literal(left) && integer_digits_of(l) > integer_digits_of(&common))
        || (literal(right) && integer_digits_of(r) > integer_digits_of(&common))
}

fn mismatch(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::TypeMismatch, message)
}

/// The Rust type the typed API uses for values of an Iceberg type, for hints.
fn rust_type(ty: &IcebergType) -> Option<&'static str> {
    Some(match ty {
        IcebergType::Boolean => "bool",
        IcebergType::Int => "i32",
        IcebergType::Long => "i64",
        IcebergType::Float => "f32",
        IcebergType::Double => "f64",
        IcebergType::Decimal { .. } => "Decimal",
        IcebergType::Date => "chrono::NaiveDate",
        IcebergType::Timestamp => "chrono::NaiveDateTime",
        IcebergType::TimestampTz => "chrono::DateTime<Utc>",
        IcebergType::String => "String",
        _ => return None,
    })
}

/// The type of `e` as Trino gives it, or the error Trino's analyzer would raise.
pub(super) fn type_of(scope: &TypeScope<'_>, e: &Expr) -> Result<EngineType> {
    e.depth_reported(type_at(scope, e, 1))
}

/// The type of the node at `level` (1 for the root): the recursion counts its levels
/// and stops past the depth limit (see [`Expr::enter_level`]).
fn type_at(scope: &TypeScope<'_>, e: &Expr, level: usize) -> Result<EngineType> {
    Expr::enter_level(level)?;
    let ty = type_inner(scope, e, level + 1)?;
    audit::typed(e, &ty);
    Ok(ty)
}

fn expect_boolean(ty: &EngineType, what: &str) -> Result<()> {
    expect_boolean_of(ty, &what)
}

/// As [`expect_boolean`], with `what` formatted only for the error.
fn expect_boolean_of(ty: &EngineType, what: &dyn std::fmt::Display) -> Result<()> {
    match ty {
        EngineType::Boolean | EngineType::Unknown => Ok(()),
        other => Err(mismatch(format!(
            "{what} must evaluate to a boolean (actual: {other})"
        ))),
    }
}

fn operator_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::And => "AND",
        BinaryOp::Or => "OR",
        BinaryOp::Eq => "=",
        BinaryOp::NotEq => "<>",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::IsDistinctFrom => "IS DISTINCT FROM",
        BinaryOp::IsNotDistinctFrom => "IS NOT DISTINCT FROM",
        BinaryOp::Plus => "+",
        BinaryOp::Minus => "-",
        BinaryOp::Multiply => "*",
        BinaryOp::Divide => "/",
        BinaryOp::Modulo => "%",
    }
}

const CONVERT_HINT: &str =
    "compare or combine values of one type: convert one side with .cast::<T>() (CAST(x AS type))";

/// Trino's "... must be the same type or coercible to a common type" (`ExpressionAnalyzer.coerceToSingleType`).
fn no_common_type(what: &str, types: &[EngineType], e: NoCommonType) -> Error {
    let mut distinct: Vec<String> = Vec::new();
    for t in types {
        let s = t.to_string();
        if !distinct.contains(&s) {
            distinct.push(s);
        }
    }
    mismatch(format!(
        "{what} must be the same type or coercible to a common type. Cannot find common type between {} and {}, \
         all types (without duplicates): [{}]",
        e.so_far,
        e.offending,
        distinct.join(", ")
    ))
    .with_hint(CONVERT_HINT)
}

fn trunc_unit(unit: TimeUnit) -> TruncUnit {
    match unit {
        TimeUnit::Year => TruncUnit::Year,
        TimeUnit::Quarter => TruncUnit::Quarter,
        TimeUnit::Month => TruncUnit::Month,
        TimeUnit::Week => TruncUnit::Week,
        TimeUnit::Day => TruncUnit::Day,
        TimeUnit::Hour => TruncUnit::Hour,
        TimeUnit::Minute => TruncUnit::Minute,
        TimeUnit::Second => TruncUnit::Second,
    }
}

fn aggregate_fn(func: Aggregate) -> AggregateFn {
    match func {
        Aggregate::CountAll | Aggregate::Count | Aggregate::CountDistinct => AggregateFn::Count,
        Aggregate::Sum => AggregateFn::Sum,
        Aggregate::Avg => AggregateFn::Avg,
        Aggregate::Min => AggregateFn::Min,
        Aggregate::Max => AggregateFn::Max,
        Aggregate::ApproxPercentile(_) => AggregateFn::ApproxPercentile,
    }
}

/// The type of `e`, whose children are at level `next`.
fn type_inner(scope: &TypeScope<'_>, e: &Expr, next: usize) -> Result<EngineType> {
    use EngineType as E;
    Ok(match e {
        Expr::Column { scope: s, name } => scope.column_type(*s, name).ok_or_else(|| {
            let shown = match s.alias() {
                Some(a) => format!("{a}.{name}"),
                None => (*name).to_string(),
            };
            Error::new(
                ErrorKind::UnknownColumn,
                format!("Column '{shown}' cannot be resolved"),
            )
        })?,
        Expr::Literal { value, ty } | Expr::Param { value, ty } => literal_type(value, ty)?,
        Expr::Binary { op, operands } if compares_with_own_literal(scope, *op, operands) => {
            // Its operands are leaves one level down, as the general rule sees them.
            Expr::enter_level(next)?;
            for x in operands.iter() {
                audit::typed_by(x, || type_inner(scope, x, next + 1));
            }
            E::Boolean
        }
        Expr::Binary { op, operands } => {
            let [left, right] = &**operands;
            let l = type_at(scope, left, next)?;
            let r = type_at(scope, right, next)?;
            binary_type(*op, &l, &r, left, right)?
        }
        Expr::Not(x) => {
            expect_boolean(&type_at(scope, x, next)?, "the operand of NOT")?;
            E::Boolean
        }
        Expr::Negate(x) => {
            let t = type_at(scope, x, next)?;
            if t.is_numeric()
                || matches!(
                    t,
                    E::Unknown | E::IntervalDayToSecond | E::IntervalYearToMonth
                )
            {
                t
            } else {
                return Err(mismatch(format!("Cannot negate {t}")));
            }
        }
        Expr::IsNull { expr, .. } => {
            type_at(scope, expr, next)?;
            E::Boolean
        }
        Expr::InList { expr, list, .. } => {
            let mut types = vec![type_at(scope, expr, next)?];
            for item in list {
                types.push(type_at(scope, item, next)?);
            }
            let common = single_type(&types)
                .map_err(|e| no_common_type("IN value and list items", &types, e))?;
            if !is_comparable(&common) {
                return Err(mismatch(format!(
                    "{common} is not comparable, and therefore cannot be used in IN"
                )));
            }
            E::Boolean
        }
        Expr::Between {
            expr, low, high, ..
        } => {
            let types = [
                type_at(scope, expr, next)?,
                type_at(scope, low, next)?,
                type_at(scope, high, next)?,
            ];
            let ordered = single_type(&types).ok().filter(is_orderable).is_some();
            if !ordered {
                return Err(mismatch(format!(
                    "Cannot check if {} is BETWEEN {} and {}",
                    types[0], types[1], types[2]
                ))
                .with_hint(CONVERT_HINT));
            }
            E::Boolean
        }
        Expr::Like { expr, pattern, .. } => {
            for (x, side) in [(expr, "Left side"), (pattern, "Pattern")] {
                let t = type_at(scope, x, next)?;
                if !matches!(t, E::Varchar(_) | E::Char(_) | E::Unknown) {
                    return Err(mismatch(format!(
                        "{side} of LIKE expression must evaluate to a varchar (actual: {t})"
                    )));
                }
            }
            E::Boolean
        }
        Expr::Cast { expr, ty } => {
            let from = type_at(scope, expr, next)?;
            let to = EngineType::of_column(ty, TableFormat::Iceberg)?;
            if !can_cast(&from, &to) {
                return Err(mismatch(format!("Cannot cast {from} to {to}")).with_hint(
                    "Athena has no such CAST; convert through another type (e.g. format a date with \
                     date_format, parse text with CAST from varchar)",
                ));
            }
            to
        }
        Expr::Case {
            branches,
            otherwise,
        } => {
            let mut results = Vec::with_capacity(branches.len() + 1);
            for (c, v) in branches {
                expect_boolean(&type_at(scope, c, next)?, "a CASE WHEN condition")?;
                results.push(type_at(scope, v, next)?);
            }
            if let Some(o) = otherwise {
                results.push(type_at(scope, o, next)?);
            }
            single_type(&results).map_err(|e| no_common_type("All CASE results", &results, e))?
        }
        // Only Spark's rules write calls (after typing), never Athena's.
        Expr::Call { name, .. } => {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("{name}(...) is written by the Spark rules only; Athena has no such call from this crate"),
            ))
        }
        Expr::Function { func, .. } if func.is_window() => {
            return Err(Error::new(
                ErrorKind::DisallowedSyntax,
                format!("{}() is a window function: it needs OVER (...)", func.name()),
            )
            .with_hint("add its window with .over(Window::new()...)"))
        }
        Expr::Window {
            func,
            partition_by,
            order_by,
            frame,
        } => {
            if let Some(f) = frame {
                f.check(func, order_by.len())?;
            }
            for p in partition_by {
                type_at(scope, p, next)?;
            }
            for (o, _) in order_by {
                let t = type_at(scope, o, next)?;
                if !is_orderable(&t) {
                    return Err(mismatch(format!("Type {t} is not orderable, and therefore cannot be used in window function ORDER BY")));
                }
                if let Some(why) = sort_failure(&t) {
                    return Err(mismatch(format!("a window ORDER BY key of type {t}: {why}"))
                        .with_hint(SORT_FAILURE_HINT));
                }
                // A RANGE offset is a number: the one sort key must be numeric
                // (`ExpressionAnalyzer.analyzeFrameRangeOffset`).
                if frame.is_some_and(|f| f.range_offset()) && !t.is_numeric() {
                    return Err(mismatch(format!(
                        "Window frame RANGE value type (bigint) not compatible with sort item type ({t})"
                    ))
                    .with_hint("order a RANGE frame with numeric offsets by a numeric key, or count ROWS"));
                }
            }

            match &**func {
                Expr::Function { func, args } if func.is_window() => {
                    let types = args
                        .iter()
                        .map(|a| type_at(scope, a, next))
                        .collect::<Result<Vec<_>>>()?;
                    function_type(*func, &types).map_err(|e| mismatch(e.message()))?
                }
                Expr::Aggregate { .. } => type_at(scope, func, next)?,
                _ => {
                    return Err(Error::new(
                        ErrorKind::DisallowedSyntax,
                        "OVER (...) applies to a window function or an aggregate, not to this expression",
                    )
                    .with_hint("call .over(...) on row_number(), rank(), dense_rank(), lag, lead or an aggregate"))
                }
            }
        }
        Expr::Function { func, args } => {
            let types = args
                .iter()
                .map(|a| type_at(scope, a, next))
                .collect::<Result<Vec<_>>>()?;
            function_type(*func, &types).map_err(|e| {
                mismatch(e.message()).with_hint(
                    "give the function arguments of the types its signature takes; convert one \
                     with .cast::<T>()",
                )
            })?
        }
        Expr::Coalesce(args) => {
            let types = args
                .iter()
                .map(|a| type_at(scope, a, next))
                .collect::<Result<Vec<_>>>()?;
            single_type(&types).map_err(|e| no_common_type("All COALESCE operands", &types, e))?
        }
        Expr::DateTrunc { unit, expr } => {
            let t = type_at(scope, expr, next)?;
            date_trunc_type(trunc_unit(*unit), &t).map_err(|e| {
                let mut err = mismatch(e.message());
                if let Some(h) = e.hint() {
                    err = err.with_hint(h);
                }
                err
            })?
        }
        // What the text reads must resolve; its type is the one its caller declared
        // (the text itself is not typed: `dsl::raw`).
        Expr::Raw(r) => {
            if let Some(problem) = &r.problem {
                return Err(problem.clone());
            }
            for c in r.plain.iter().chain(&r.aggregated) {
                type_at(scope, c, next)?;
            }
            EngineType::of_column(&r.ty, TableFormat::Iceberg)?
        }
        Expr::CurrentTimestamp => Clock::CurrentTimestamp(None).result_type(),
        Expr::CurrentDate => Clock::CurrentDate.result_type(),
        Expr::Interval {
            unit: unit @ (TimeUnit::Quarter | TimeUnit::Week),
            ..
        } => {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "INTERVAL ... {} is not an interval unit in Athena; use months or days",
                    unit.keyword()
                ),
            ))
        }
        Expr::Interval { amount, unit } => interval_literal_type(*amount, *unit)?,
        Expr::Aggregate { func, arg, filter } => {
            if let Some(f) = filter {
                expect_boolean(
                    &type_at(scope, f, next)?,
                    "an aggregate's FILTER (WHERE ...)",
                )?;
            }
            let arg = match arg {
                Some(a) => Some(type_at(scope, a, next)?),
                None => None,
            };
            aggregate_type(aggregate_fn(*func), arg.as_ref()).map_err(|e| {
                mismatch(e.message()).with_hint(
                    "aggregate a column of a type the function takes (sum and avg: numbers; \
                     approx_percentile: numbers; min and max: not json or map)",
                )
            })?
        }
    })
}

fn binary_type(
    op: BinaryOp,
    l: &EngineType,
    r: &EngineType,
    left: &Expr,
    right: &Expr,
) -> Result<EngineType> {
    use BinaryOp as B;
    let arith = |a: Arithmetic| -> Result<EngineType> {
        // `date ± INTERVAL 'n' HOUR` types as a date but fails on every row.
        let sub_day = |x: &Expr| {
            matches!(
                x,
                Expr::Interval {
                    unit: TimeUnit::Hour | TimeUnit::Minute | TimeUnit::Second,
                    ..
                }
            )
        };
        let date_with_time =
            (*l == EngineType::Date && sub_day(right)) || (*r == EngineType::Date && sub_day(left));
        if date_with_time {
            let text = if a == Arithmetic::Add {
                "Cannot add hour, minutes or seconds to a date"
            } else {
                "Cannot subtract hour, minutes or seconds from a date"
            };
            return Err(mismatch(format!(
                "{l} {} {r}: Athena fails every row with \"{text}\"",
                operator_symbol(op)
            ))
            .with_hint(
                "move a date by whole days (days(n), months(n), years(n)), or work on a timestamp",
            ));
        }
        arithmetic_type(a, l, r).map_err(|e| mismatch(e.message()).with_hint(CONVERT_HINT))
    };
    match op {
        B::And | B::Or => {
            let symbol = operator_symbol(op);
            expect_boolean_of(l, &format_args!("the left operand of {symbol}"))?;
            expect_boolean_of(r, &format_args!("the right operand of {symbol}"))?;
            Ok(EngineType::Boolean)
        }
        B::Eq | B::NotEq | B::IsDistinctFrom | B::IsNotDistinctFrom
        | B::Lt | B::LtEq | B::Gt | B::GtEq
            if decimal_literal_overflows(l, r, left, right) =>
        {
            Err(mismatch(format!(
                "{l} {} {r}: Trino compares both as {}, which holds fewer integer digits than \
                 {}; a value with more fails the query with \"Cannot cast\"",
                operator_symbol(op),
                common_super_type(l, r).map_or_else(String::new, |t| t.to_string()),
                if integer_digits_of(l) > integer_digits_of(r) { l } else { r },
            ))
            .with_hint("no value of the column can equal or order against it: drop the condition, or compare with a value that has at most as many integer digits as the column"))
        }
        B::Eq | B::NotEq | B::IsDistinctFrom | B::IsNotDistinctFrom => {
            if comparison_type(Comparison::Equality, l, r).is_none() {
                let text = if matches!(op, B::IsDistinctFrom | B::IsNotDistinctFrom) {
                    format!("Cannot check if {l} is distinct from {r}")
                } else {
                    format!("Cannot apply operator: {l} {} {r}", operator_symbol(op))
                };
                return Err(mismatch(text).with_hint(CONVERT_HINT));
            }
            Ok(EngineType::Boolean)
        }
        B::Lt | B::LtEq | B::Gt | B::GtEq => {
            if comparison_type(Comparison::Ordering, l, r).is_none() {
                return Err(mismatch(format!(
                    "Cannot apply operator: {l} {} {r}",
                    operator_symbol(op)
                ))
                .with_hint(CONVERT_HINT));
            }
            Ok(EngineType::Boolean)
        }
        B::Plus => arith(Arithmetic::Add),
        B::Minus => arith(Arithmetic::Subtract),
        B::Multiply => arith(Arithmetic::Multiply),
        B::Divide => arith(Arithmetic::Divide),
        B::Modulo => arith(Arithmetic::Modulus),
    }
}

/// A column compared with a literal of the column's own type that the column stores
/// as written (`event_id = 'evt-001'`, the usual filter): boolean by the general rule,
/// both sides being of the column's type, a scalar type every comparison takes (a
/// test holds the two to one answer), so neither side is typed on the way.
fn compares_with_own_literal(scope: &TypeScope<'_>, op: BinaryOp, operands: &[Expr; 2]) -> bool {
    let [Expr::Column { scope: s, name }, literal] = operands else {
        return false;
    };
    is_comparison(op)
        && scope
            .iceberg_column(*s, name)
            .is_some_and(|column| literal_stored_as_written(literal, column))
}

/// A row-level value (a projection, a join key): typed, written as it is.
pub(super) fn check_value<'e>(scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
    let (written, ty) = typed(scope, Written::expr(expr))?;
    Ok(Checked::plain(written, Some(ty)))
}

/// A condition (`WHERE`, `WHEN … AND`, `ON`): typed, and boolean.
pub(super) fn check_condition<'e>(
    scope: &TypeScope<'_>,
    expr: &'e Expr,
    clause: &str,
) -> Result<Checked<'e>> {
    let checked = check_value(scope, expr)?;
    if let Some(ty) = checked.ty() {
        expect_boolean(ty, clause)?;
    }
    Ok(checked)
}

/// An `ORDER BY` key: typed and orderable (not `json` or `map`).
pub(super) fn check_sort_key<'e>(scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
    let checked = check_value(scope, expr)?;
    if let Some(ty) = checked.ty().filter(|t| !is_orderable(t)) {
        return Err(mismatch(format!(
            "Type {ty} is not orderable, and therefore cannot be used in ORDER BY"
        ))
        .with_hint("order by a scalar column or expression"));
    }
    if let Some(ty) = checked.ty() {
        if let Some(why) = sort_failure(ty) {
            return Err(mismatch(format!("an ORDER BY key of type {ty}: {why}"))
                .with_hint(SORT_FAILURE_HINT));
        }
    }
    Ok(checked)
}

/// A `GROUP BY` key: typed and comparable.
pub(super) fn check_group_key<'e>(scope: &TypeScope<'_>, expr: &'e Expr) -> Result<Checked<'e>> {
    let checked = check_value(scope, expr)?;
    if let Some(ty) = checked.ty().filter(|t| !is_comparable(t)) {
        return Err(mismatch(format!(
            "{ty} is not comparable, and therefore cannot be used in GROUP BY"
        )));
    }
    Ok(checked)
}

/// The two keys of a join compare as one type.
pub(super) fn check_join_keys(
    left: (&str, &IcebergType),
    right: (&str, &IcebergType),
) -> Result<()> {
    let l = EngineType::of_column(left.1, TableFormat::Iceberg)?;
    let r = EngineType::of_column(right.1, TableFormat::Iceberg)?;
    audit::check("join keys", || format!("{} {l} = {} {r}", left.0, right.0));
    if comparison_type(Comparison::Equality, &l, &r).is_none() {
        return Err(mismatch(format!(
            "join on `{}` = `{}`: Cannot apply operator: {l} = {r}",
            left.0, right.0
        ))
        .with_hint("join on keys of one type"));
    }
    Ok(())
}

/// What storing one value does, for the statement's refusal.
enum Problem {
    /// Trino refuses the types.
    Mismatch,
    /// Trino accepts and rounds, or drops the time of day, silently.
    Silent(&'static str),
}

/// Checks a statement's (or a MERGE clause's) assignments together, as Trino does, and
/// leaves in each the value to write.
///
/// * exact or implicit: written as it is;
/// * a conversion between `timestamp with time zone` and `timestamp` (e.g.
///   `current_timestamp`, a `timestamp(3) with time zone`, into an Iceberg `timestamp`
///   column, a `timestamp(6)`): written out as `CAST(x AS timestamp(6))`. Trino's source
///   accepts the pair and adds that very CAST (`typesMatchForInsert`: the types are
///   compatible), keeping the wall-clock time in the value's zone, which for
///   `current_timestamp` is the session zone, UTC on Athena; a field report has Athena
///   fail an UPDATE with "UPDATE table column types don't match SET expressions" for
///   such a SET (elementary-data/elementary pull request 1451, where a `varchar(19)` in
///   the same SET fails on either reading). With the CAST written, both readings run the
///   statement and store the same value;
/// * a numeric narrowing that can only fail loudly (overflow): Trino's own CAST;
/// * rounding, dropping the time of day, or a mismatch: refused, with the fix.
pub(super) fn check_assignments(
    scope: &TypeScope<'_>,
    into: AssignIn,
    pairs: &mut [Assigned<'_, '_>],
) -> Result<()> {
    // (index, column type, problem); the refusal lists every pair's types. Empty, it
    // allocates nothing.
    let mut problems = Vec::new();
    for (i, pair) in pairs.iter_mut().enumerate() {
        let column = pair.column;
        if let Some(literal @ Expr::Literal { value, ty }) = pair.value.expr() {
            if literal_stored_as_written(literal, &column.ty) {
                // Exact or implicit by the general rule below, which a test holds it
                // to, as INSERT VALUES rows are (`check_row_value`): stored as written,
                // and typed only where a refusal lists its type.
                audit::typed_by(literal, || literal_type(value, ty));
                audit::check("assignment", || {
                    let ct = EngineType::of_column(&column.ty, TableFormat::Iceberg)
                        .map(|t| t.to_string())
                        .unwrap_or_default();
                    let vt = literal_type(value, ty)
                        .map(|t| t.to_string())
                        .unwrap_or_default();
                    format!("{} {ct} <- {vt}", column.name)
                });
                continue;
            }
        }
        // Typed where it stands: a literal is not moved.
        let vt = type_in_place(scope, pair.value.written_mut())?;
        let ct = EngineType::of_column(&column.ty, TableFormat::Iceberg)?;
        audit::check("assignment", || format!("{} {ct} <- {vt}", column.name));
        let convert_to = match assignment(&vt, &ct) {
            Assignment::Exact | Assignment::Implicit => None,
            Assignment::Cast(c) if c.rounds => {
                problems.push((i, ct, Problem::Silent("rounds")));
                None
            }
            Assignment::Cast(c) if c.drops_time_of_day => {
                problems.push((i, ct, Problem::Silent("drops the time of day of")));
                None
            }
            Assignment::Cast(c) if c.zone_dependent => Some(ct),
            Assignment::Cast(_) => None,
            Assignment::Mismatch => {
                problems.push((i, ct, Problem::Mismatch));
                None
            }
        };
        pair.value.set_types(vt, convert_to);
    }
    if problems.is_empty() {
        return Ok(());
    }
    // The refusal names every pair's types, as Trino's message does (a literal stored
    // as written was not typed above).
    let value_types: Vec<String> = pairs
        .iter()
        .map(|p| {
            let untyped = || match p.value.expr() {
                Some(Expr::Literal { value, ty }) => literal_type(value, ty).ok(),
                _ => None,
            };
            p.value
                .value_type()
                .cloned()
                .or_else(untyped)
                .map(|t| t.to_string())
                .unwrap_or_default()
        })
        .collect();
    let table_types = pairs
        .iter()
        .map(|p| EngineType::of_column(&p.column.ty, TableFormat::Iceberg).map(|t| t.to_string()))
        .collect::<Result<Vec<_>>>()?;
    let (table, values) = (table_types.join(", "), value_types.join(", "));
    let engine_text = match into {
        AssignIn::Insert => {
            format!("Insert query has mismatched column types: Table: [{table}], Query: [{values}]")
        }
        AssignIn::Update => format!(
            "UPDATE table column types don't match SET expressions: Table: [{table}], Expressions: [{values}]"
        ),
        AssignIn::Merge { case } => format!(
            "MERGE table column types don't match for MERGE case {case}, SET expressions: Table: [{table}], Expressions: [{values}]"
        ),
    };
    let statement = match into {
        AssignIn::Insert => "INSERT".to_string(),
        AssignIn::Update => "UPDATE".to_string(),
        AssignIn::Merge { case } => format!("MERGE clause {}", case + 1),
    };
    let errors = problems
        .into_iter()
        .map(|(i, ct, problem)| {
            let column = pairs[i].column;
            let vt = pairs[i]
                .value
                .value_type()
                .cloned()
                .unwrap_or(EngineType::Unknown);
            let rust = rust_type(&column.ty)
                .map(|r| format!(".cast::<{r}>()"))
                .unwrap_or_else(|| "a CAST".to_string());
            match problem {
                Problem::Mismatch => {
                    let err = mismatch(format!(
                        "{statement} stores a {vt} value in column `{}` of type {ct}; Athena refuses the statement: \"{engine_text}\"",
                        column.name
                    ));
                    if can_cast(&vt, &ct) {
                        err.with_hint(format!(
                            "convert the value to the column's type explicitly ({rust}, CAST(x AS {ct})), or store a value of type {ct}"
                        ))
                    } else {
                        err.with_hint(format!(
                            "Athena has no CAST from {vt} to {ct}: store a value of type {ct} instead"
                        ))
                    }
                }
                Problem::Silent(what) => mismatch(format!(
                    "{statement} stores a {vt} value in column `{}` of type {ct}: Athena accepts it but {what} the value silently",
                    column.name
                ))
                .with_hint(format!(
                    "convert it yourself in the way you mean (e.g. round it) to {ct}, or widen the column"
                )),
            }
        })
        .collect();
    Err(Error::combine(errors).unwrap_or_else(|| mismatch(engine_text)))
}

/// A value to write (normalized) and its type.
fn typed<'e>(scope: &TypeScope<'_>, mut written: Written<'e>) -> Result<(Written<'e>, EngineType)> {
    let ty = type_in_place(scope, &mut written)?;
    Ok((written, ty))
}

/// The type of a value to write, normalizing it where it stands.
fn type_in_place(scope: &TypeScope<'_>, written: &mut Written<'_>) -> Result<EngineType> {
    Ok(match written {
        // Most written values are literals of their column's type (a SET value, a
        // MERGE INSERT value): `normalize` rewrites comparisons only, so a literal is
        // typed directly, as `type_of` types it (a test holds the two to one answer).
        Written::Expr(e) if matches!(**e, Expr::Literal { .. }) => {
            let Expr::Literal { value, ty } = &**e else {
                unreachable!("matched above")
            };
            let t = literal_type(value, ty)?;
            audit::typed(e, &t);
            t
        }
        Written::Expr(e) => {
            // (A unit expression stands in while `normalize` holds the value.)
            let held = std::mem::replace(e, Cow::Owned(Expr::CurrentDate));
            *e = super::typing::normalize(scope, held);
            type_of(scope, e)?
        }
        Written::Column(c) => scope.column_type(Scope::Table, c).ok_or_else(|| {
            Error::new(
                ErrorKind::UnknownColumn,
                format!("Column '{c}' cannot be resolved"),
            )
        })?,
    })
}

/// One output column of a CTAS or UNLOAD: typed, and checked against what `target`
/// can write. Where one conversion makes it writable (a timestamp's precision, a time
/// zone dropped to the UTC wall clock, a small integer widened) it is written out: a
/// Hive target holds milliseconds, so microseconds are rounded away there (Athena's
/// Hive connector runs with MILLISECONDS precision; <https://github.com/aws/aws-sdk-pandas/issues/2252>).
pub(super) fn check_output<'e>(
    scope: &TypeScope<'_>,
    target: OutputTarget,
    name: &str,
    written: Written<'e>,
) -> Result<Checked<'e>> {
    let (written, ty) = typed(scope, written)?;
    audit::check("output", || format!("{target} {name} {ty}"));
    match check_output_column(target, name, &ty) {
        Ok(()) => Ok(Checked::plain(written, Some(ty))),
        Err(e) => match output_cast(target, &ty) {
            Some(to) => Ok(Checked::converted(written, Some(ty), to)),
            None => Err(Error::new(ErrorKind::TypeMismatch, e.message()).with_hint(
                e.hint()
                    .unwrap_or("project a value of a type the target can store")
                    .to_string(),
            )),
        },
    }
}

/// One literal of an `INSERT … VALUES` row (or a MERGE's inline source row): the
/// literal written for the value has the column's type, or one that coerces to it.
pub(super) fn check_row_value(value: &Value, column: &Column) -> Result<()> {
    if stored_as_written(value, &column.ty) {
        audit::check("row value", || {
            format!("{} (stored as written)", column.name)
        });
        return Ok(());
    }
    general_check_row_value(value, column)
}

/// The scalar values whose literal is of the column's own type, or coerces to it
/// without change (a `varchar(n)` string into `varchar`, an `integer` into `bigint`,
/// NULL cast to the column's type): every value of a typical row. Bulk INSERTs check
/// every value, so these skip the general typing; a test holds them to its answer.
fn stored_as_written(value: &Value, ty: &IcebergType) -> bool {
    use IcebergType as T;
    let scalar = !matches!(ty, T::List(_) | T::Map(..) | T::Struct(_));
    match value {
        Value::Null => scalar,
        Value::String(_) => matches!(ty, T::String),
        Value::Boolean(_) => matches!(ty, T::Boolean),
        Value::Int(_) => matches!(ty, T::Int | T::Long),
        Value::Long(_) => matches!(ty, T::Long),
        Value::Double(_) => matches!(ty, T::Double),
        Value::Date(_) => matches!(ty, T::Date),
        Value::Timestamp(_) => matches!(ty, T::Timestamp),
        Value::TimestampTz(_) => matches!(ty, T::TimestampTz),
        _ => false,
    }
}

/// A literal of the column's own type whose value [`stored_as_written`] answers for:
/// the usual SET or MERGE value, stored without the general search (its literal type
/// against the column's, which [`general_check_row_value`] runs and a test holds these
/// pairs to).
fn literal_stored_as_written(value: &Expr, column: &IcebergType) -> bool {
    matches!(value, Expr::Literal { value, ty } if ty.same_as(column) && stored_as_written(value, ty))
}

/// [`check_row_value`] by the general rule: the literal's type, stored in the column.
fn general_check_row_value(value: &Value, column: &Column) -> Result<()> {
    let lt = literal_type(value, &column.ty)?;
    let ct = EngineType::of_column(&column.ty, TableFormat::Iceberg)?;
    audit::check("row value", || format!("{} {ct} <- {lt}", column.name));
    match assignment(&lt, &ct) {
        Assignment::Exact | Assignment::Implicit => Ok(()),
        _ => Err(mismatch(format!(
            "column `{}`: the literal for the value is of type {lt}, which Athena does not store in a {ct} column as it is",
            column.name
        ))),
    }
}

/// A nested column read back as JSON text (`CAST(c AS JSON)`): Trino casts only some
/// types to JSON (`JsonUtil.canCastToJson`).
pub(super) fn check_json_read(column: &str, ty: &IcebergType) -> Result<()> {
    let t = EngineType::of_column(ty, TableFormat::Iceberg)?;
    audit::check("json read", || format!("{column} {t}"));
    if can_cast_to_json(&t) {
        return Ok(());
    }
    let blockers: Vec<String> = json_blockers(&t).iter().map(ToString::to_string).collect();
    Err(mismatch(format!(
        "column `{column}` is read back as JSON text, but Athena fails with \"Cannot cast {t} to json\" \
         (it holds {}, which Trino cannot cast to JSON)",
        blockers.join(", ")
    ))
    .with_hint(
        "project the columns you need with .column(...) (a nested column projected by name comes back \
         in Athena's own text form), or read this column with a separate query",
    ))
}

/// The type Trino gives the union of two columns at 1-based `position` (their common
/// super type), or its refusal.
pub(crate) fn union_column_type(
    position: usize,
    a: Option<&EngineType>,
    b: Option<&EngineType>,
) -> Result<Option<EngineType>> {
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(None);
    };
    match crate::engine::coercion::common_super_type(a, b) {
        Some(t) => Ok(Some(t)),
        None => Err(Error::new(
            ErrorKind::TypeMismatch,
            format!("column {position} in UNION query has incompatible types: {a}, {b}"),
        )
        .with_hint(format!(
            "CAST one side to the other's type (`.expr_as(col.cast::<T>(), \"name\")`) in \
             column {position} of one of the queries"
        ))),
    }
}

#[cfg(test)]
mod row_value_tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn values_stored_as_written_pass_the_general_check() {
        let day = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
        let values = [
            Value::Null,
            Value::String(String::new()),
            Value::String("it's a long ☃ value".into()),
            Value::Boolean(true),
            Value::Int(i32::MIN),
            Value::Int(7),
            Value::Long(i64::MIN),
            Value::Long(-3_000_000_000),
            Value::Long(320),
            Value::Double(-0.5),
            Value::Date(day),
            Value::Timestamp(day.and_hms_opt(23, 59, 59).unwrap()),
            Value::TimestampTz(day.and_hms_opt(1, 2, 3).unwrap().and_utc()),
        ];
        let types = [
            IcebergType::String,
            IcebergType::Boolean,
            IcebergType::Int,
            IcebergType::Long,
            IcebergType::Float,
            IcebergType::Double,
            IcebergType::Date,
            IcebergType::Timestamp,
            IcebergType::TimestampTz,
            IcebergType::Binary,
            IcebergType::Decimal {
                precision: 10,
                scale: 2,
            },
            IcebergType::list(IcebergType::Long),
        ];
        let mut fast = 0;
        for v in &values {
            for ty in &types {
                if stored_as_written(v, ty) {
                    fast += 1;
                    let column = Column::new("c", ty.clone());
                    assert!(
                        general_check_row_value(v, &column).is_ok(),
                        "{v:?} into {ty:?}"
                    );
                }
            }
        }
        assert_eq!(
            fast,
            11 + 14,
            "NULL into the 11 scalar types, 14 typed pairs"
        );
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use chrono::NaiveDate;

    use super::*;

    /// A literal stored as written takes the short path in `check_assignments`, with
    /// the answer of the general one; any other literal still goes the general way
    /// (and is refused where it should be).
    #[test]
    fn assignments_of_literals_answer_as_the_general_rule() {
        let columns = [
            Column::new("s", IcebergType::String),
            Column::new("n", IcebergType::Long),
            Column::new("d", IcebergType::Double),
        ];
        let scope = TypeScope::table(&columns);
        let cases = [
            (
                0,
                Value::String("retried".into()),
                IcebergType::String,
                true,
            ),
            (1, Value::Int(320), IcebergType::Long, true),
            (1, Value::Null, IcebergType::Long, true),
            (2, Value::Double(1.5), IcebergType::Double, true),
            // Not stored as written: the general rule decides.
            (2, Value::Float(1.5), IcebergType::Double, false),
            (1, Value::String("x".into()), IcebergType::String, false),
        ];
        for (c, value, ty, fast) in cases {
            let column = &columns[c];
            let e = Expr::Literal {
                value: value.clone(),
                ty: ty.clone(),
            };
            assert_eq!(literal_stored_as_written(&e, &column.ty), fast, "{e:?}");
            let mut pairs = [Assigned::new(column, Written::expr(&e))];
            let got = check_assignments(&scope, AssignIn::Update, &mut pairs);
            // The general rule: the literal's type stored in the column's.
            let vt = literal_type(&value, &ty).expect("a literal type");
            let ct = EngineType::of_column(&column.ty, TableFormat::Iceberg).expect("a type");
            match assignment(&vt, &ct) {
                Assignment::Exact | Assignment::Implicit => {
                    assert!(got.is_ok(), "{e:?}: {got:?}");
                    // Stored as written, a literal is not typed (nothing reads it).
                    let typed = (!fast).then_some(&vt);
                    assert_eq!(pairs[0].value.value_type(), typed, "{e:?}");
                    assert_eq!(pairs[0].value.conversion(), None);
                }
                _ => assert!(got.is_err(), "{e:?} is refused"),
            }
        }
    }

    /// A column compared with a literal of its own type takes the short path in
    /// `type_inner` with the general rule's answer: every comparison operator, every
    /// column type, every kind of value, same type or same refusal.
    #[test]
    fn comparisons_with_own_literals_answer_as_the_general_rule() {
        use crate::value::Decimal;
        let day = NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date");
        let ts = day.and_hms_opt(1, 2, 3).expect("a timestamp");
        let types = [
            IcebergType::Boolean,
            IcebergType::Int,
            IcebergType::Long,
            IcebergType::Float,
            IcebergType::Double,
            IcebergType::decimal(4, 2),
            IcebergType::Date,
            IcebergType::Timestamp,
            IcebergType::TimestampTz,
            IcebergType::String,
            IcebergType::Binary,
            IcebergType::List(Box::new(IcebergType::Long)),
        ];
        let values = [
            Value::Null,
            Value::Boolean(true),
            Value::Int(320),
            Value::Int(i32::MIN),
            Value::Long(i64::MIN),
            Value::Long(1 << 40),
            Value::Float(1.5),
            Value::Double(f64::NAN),
            Value::Decimal(Decimal::new(1234, 2)),
            Value::Decimal(Decimal::new(123_456, 2)),
            Value::Date(day),
            Value::Timestamp(ts),
            Value::TimestampTz(ts.and_utc()),
            Value::String("évt-001".into()),
            Value::Binary(vec![0, 1]),
            Value::List(vec![Value::Long(1)]),
        ];
        let ops = [
            BinaryOp::Eq,
            BinaryOp::NotEq,
            BinaryOp::Lt,
            BinaryOp::LtEq,
            BinaryOp::Gt,
            BinaryOp::GtEq,
            BinaryOp::IsDistinctFrom,
            BinaryOp::IsNotDistinctFrom,
            BinaryOp::Plus,
            BinaryOp::And,
        ];
        let columns: Vec<Column> = types
            .iter()
            .enumerate()
            .map(|(i, t)| Column::new(format!("c{i}"), t.clone()))
            .collect();
        let names: Vec<&'static str> = (0..types.len())
            .map(|i| &*Box::leak(format!("c{i}").into_boxed_str()))
            .collect();
        let scope = TypeScope::table(&columns);
        let mut short = 0;
        for (c, column_type) in types.iter().enumerate() {
            for literal_type in [column_type, &IcebergType::Long, &IcebergType::String] {
                for value in &values {
                    for op in ops {
                        let left = Expr::column(names[c]);
                        let right = Expr::literal(value.clone(), literal_type.clone());
                        let operands = [left.clone(), right.clone()];
                        let general = type_of(&scope, &left).and_then(|l| {
                            let r = type_of(&scope, &right)?;
                            binary_type(op, &l, &r, &left, &right)
                        });
                        let e = Expr::binary(op, left, right);
                        let got = type_of(&scope, &e);
                        if compares_with_own_literal(&scope, op, &operands) {
                            short += 1;
                            assert!(
                                matches!(general, Ok(EngineType::Boolean)),
                                "{e:?}: {general:?}"
                            );
                        }
                        match (&got, &general) {
                            (Ok(a), Ok(b)) => assert_eq!(a, b, "{e:?}"),
                            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{e:?}"),
                            _ => panic!("{e:?}: short path {got:?}, general {general:?}"),
                        }
                    }
                }
            }
        }
        // Every stored-as-written pair of a scalar column type, for each comparison.
        assert!(short >= 8 * 9, "{short} comparisons took the short path");
    }

    /// A refusal lists the type of every value, those stored as written (not typed on
    /// the way) included, as Trino's message does.
    #[test]
    fn a_refusal_lists_the_types_of_literals_stored_as_written() {
        let columns = [
            Column::new("s", IcebergType::String),
            Column::new("n", IcebergType::Long),
        ];
        let scope = TypeScope::table(&columns);
        let retried = Expr::literal(Value::String("retried".into()), IcebergType::String);
        let day = Expr::literal(
            Value::Date(NaiveDate::from_ymd_opt(2026, 12, 1).expect("a date")),
            IcebergType::Date,
        );
        let mut pairs = [
            Assigned::new(&columns[0], Written::expr(&retried)),
            Assigned::new(&columns[1], Written::expr(&day)),
        ];
        let err = check_assignments(&scope, AssignIn::Update, &mut pairs).expect_err("refused");
        assert!(
            err.message().ends_with(
                "\"UPDATE table column types don't match SET expressions: \
                 Table: [varchar, bigint], Expressions: [varchar(7), date]\""
            ),
            "{}",
            err.message()
        );
    }

    /// A literal is typed directly ([`typed`]'s fast path) exactly as the general rules
    /// (`normalize`, then `type_of`) type it: same type, same refusal, same text.
    #[test]
    fn literal_fast_path_answers_as_the_general_rules() {
        let ts = NaiveDate::from_ymd_opt(2026, 12, 1)
            .and_then(|d| d.and_hms_opt(1, 2, 3))
            .expect("a timestamp");
        let decimal = IcebergType::Decimal {
            precision: 4,
            scale: 2,
        };
        let columns = [
            Column::new("ts", IcebergType::Timestamp),
            Column::new("tz", IcebergType::TimestampTz),
        ];
        let scope = TypeScope::table(&columns);
        let literals = [
            (Value::Null, IcebergType::Long),
            (Value::Int(320), IcebergType::Long),
            (Value::Int(i32::MIN), IcebergType::Int),
            (Value::Long(i64::MIN), IcebergType::Long),
            (Value::Long(1 << 40), IcebergType::Long),
            (Value::Boolean(true), IcebergType::Boolean),
            (Value::String("retried".into()), IcebergType::String),
            (Value::Double(1.5), IcebergType::Float),
            (Value::Float(1.5), IcebergType::Double),
            (Value::Timestamp(ts), IcebergType::Timestamp),
            (Value::Timestamp(ts), IcebergType::TimestampTz),
            (Value::Int(99), decimal.clone()),
            // Does not fit decimal(4,2): refused on both paths.
            (Value::Int(1000), decimal),
            (Value::String("x".into()), IcebergType::Long),
        ];
        for (value, ty) in literals {
            let e = Expr::Literal { value, ty };
            let general = type_of(
                &scope,
                &crate::dialect::typing::normalize(&scope, Cow::Borrowed(&e)),
            );
            let fast = typed(&scope, Written::expr(&e)).map(|(w, t)| {
                assert!(matches!(w, Written::Expr(ref x) if **x == e), "{e:?}");
                t
            });
            match (&fast, &general) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{e:?}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{e:?}"),
                _ => panic!("{e:?}: fast {fast:?}, general {general:?}"),
            }
        }
    }
}
