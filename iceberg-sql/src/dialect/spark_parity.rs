//! Spark text with Athena's meaning: where Spark's own reading of an operator or CAST
//! gives another value than Athena's (Trino's), the Spark rendering writes a form that
//! gives Athena's.
//!
//! | builder call | Athena (Trino) | Spark as written | Spark text we write |
//! |---|---|---|---|
//! | `a / b`, integers | integer, truncated toward zero: `-7 / 2` = `-3` | `double`: `-3.5` | `div(a, b)` (`CAST(… AS INT)` for `int`) |
//! | `a / b`, decimals | `decimal(p, s)`, `s = max(s1, s2)`, rounded half up | more digits: `10.00 / 3` = `3.3333333333333` | `CAST(a / b AS DECIMAL(p,s))` |
//! | `/`, `%` by zero, integers and decimals | fails the statement: "Division by zero" | `NULL` (without ANSI mode) | the divisor guarded by `raise_error('Division by zero')` |
//! | `a / b`, `a % b`, doubles and reals, `b` zero | IEEE: `±Infinity`, `NaN` | `NULL`, or fails in ANSI mode | `CASE WHEN b = 0 THEN a * power(b, -1) ELSE a / b END` (`a * NaN` for `%`) |
//! | `a / b`, reals | a `real` quotient | a `double` quotient | `CAST(… AS FLOAT)` |
//! | `CAST(x AS int/bigint)`, `x` double, real or decimal | rounds half away from zero: `2.5` → `3` | truncates: `2` | `CAST(round(x) AS …)` |
//! | `date_trunc(unit, x)`, `x` a date or timestamp | `x`'s type | a `timestamp` with time zone | `CAST(date_trunc(unit, x) AS …)` |
//! | `avg(x)`, `x` a `decimal(p,s)` | `decimal(p,s)`, rounded half up | `decimal(p+4,s+4)` | `CAST(avg(x) AS DECIMAL(p,s))` |
//! | `avg(x)`, `sum(x)`, `x` a real | a `real` | a `double` | `CAST(… AS FLOAT)` |
//! | `CAST(ts AS varchar)`, `ts` a timestamp | `2024-01-01 00:00:00.500000` | `2024-01-01 00:00:00.5` | `date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSSSSS')` |
//! | `a = b`, `<`, `<=`, `>`, `>=`, doubles and reals | IEEE: false when either is NaN | NaN equals NaN and is larger than any other value | `(a > b AND NOT isnan(a))` where `b` is a number literal, `(a > b AND (b IS NULL OR NOT isnan(a)))` where `b` cannot be NaN (a CAST of an integer or decimal), else `(a > b AND (a IS NULL OR b IS NULL OR NOT (isnan(a) OR isnan(b))))`; nothing where neither can be NaN |
//! | `a <> b`, doubles and reals | true when either is NaN | `NaN <> NaN` is false | `(a <> b OR (isnan(a) AND isnan(b)))` unless one cannot be NaN |
//! | `x [NOT] BETWEEN l AND h`, doubles and reals | `l <= x AND x <= h`, IEEE | NaN as above | `(x BETWEEN l AND h AND NOT isnan(x))` (`NOT BETWEEN`: `OR isnan(x)`) for number bounds, else the two comparisons as above |
//! | `x [NOT] IN (…)`, doubles and reals, an item NaN or not a literal | `x = item OR …`, IEEE | NaN matches NaN | the equalities as above |
//!
//! Not rewritten (the same text, different results; Spark's ANSI mode,
//! `spark.sql.ansi.enabled=true`, makes Spark fail where Trino fails): integer overflow
//! of `+ - *` and `sum` (Trino fails, Spark wraps), a CAST out of range or of NaN to an
//! integer (Trino fails, Spark saturates or gives 0), a CAST of a text that is not a
//! number (Trino fails, Spark gives NULL); and, whatever the mode, what depends on
//! Spark's session time zone (`current_date`, `date_trunc` and CASTs of a `timestamptz`),
//! which is Athena's only when that zone is UTC.
//!
//! NaN: Trino compares doubles and reals as IEEE does (`io.trino.spi.type.DoubleType`,
//! `RealType`: `EQUAL` is Java's `==`, `LESS_THAN` `<`); Spark's "NaN Semantics"
//! (<https://spark.apache.org/docs/3.5.0/sql-ref-datatypes.html#nan-semantics>): `NaN =
//! NaN` is true and NaN is larger than any other value. Spark's `isnan(NULL)` is false, so
//! each guard keeps Trino's NULLs. `IS [NOT] DISTINCT FROM` already agrees (Trino: NaN is
//! not distinct from NaN), and so do ORDER BY and GROUP BY (NaN last ascending, NaNs one
//! group).
//!
//! Sources: Trino's operators (`io.trino.type.IntegerOperators`, `BigintOperators`:
//! `divide` is Java's `/` and fails on zero; `DecimalOperators`; `DoubleOperators.castToLong`:
//! `DoubleMath.roundToLong(value, HALF_UP)`; `MathFunctions.round`; `divide` of doubles is
//! Java's), `DateTimeFunctions` (`date_trunc` keeps its operand's type); Spark's built-in
//! functions (`div`, `round`: HALF_UP,
//! `raise_error`, `date_trunc` returns a timestamp:
//! <https://spark.apache.org/docs/3.5.0/api/sql/index.html>) and its arithmetic without
//! ANSI mode (<https://spark.apache.org/docs/3.5.0/sql-ref-ansi-compliance.html>: division
//! by zero is NULL).
//!
//! The operand types are Athena's typing of the same expression (the typed API gives both
//! operands one type); where Athena's rules cannot type an operand, nothing is rewritten.

use std::borrow::Cow;

use super::athena_types::type_of;
use super::typing::TypeScope;
use crate::engine::functions::{arithmetic_type, Arithmetic};
use crate::engine::types::EngineType;
use crate::expr::{Aggregate, BinaryOp, Expr};
use crate::types::IcebergType;
use crate::value::Value;

/// The message Spark fails with where Trino fails on a zero divisor (Trino's words).
const DIVISION_BY_ZERO: &str = "Division by zero";

/// `expr` with Athena's meaning on Spark (see the module table); an expression with
/// nothing to rewrite (the usual case) is given back as it came.
pub(super) fn rewrite<'e>(scope: &TypeScope<'_>, expr: Cow<'e, Expr>) -> Cow<'e, Expr> {
    if !has_candidate(&expr) || expr.check_depth().is_err() {
        return expr;
    }
    let mut e = expr.into_owned();
    rewrite_in_place(scope, &mut e);
    Cow::Owned(e)
}

/// Whether a node may need a rewrite (a cheap look before any typing).
fn has_candidate(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found = found
            || matches!(
                x,
                Expr::Binary {
                    op: BinaryOp::Divide | BinaryOp::Modulo,
                    ..
                } | Expr::Cast {
                    ty: IcebergType::Int | IcebergType::Long | IcebergType::String,
                    ..
                } | Expr::DateTrunc { .. }
                    | Expr::Aggregate {
                        func: Aggregate::Avg | Aggregate::Sum,
                        ..
                    }
                    | Expr::Between { .. }
                    | Expr::InList { .. }
            )
            || matches!(x, Expr::Binary { op, .. } if is_comparison(*op));
    });
    found
}

/// What a node becomes, decided on the node's own (not yet rewritten) operands.
enum Plan {
    Keep,
    /// `div(a, guard(b))`, cast to `int` when Trino's quotient is an `integer`.
    IntegerDivide {
        to_int: bool,
    },
    /// `CAST(a / guard(b) AS DECIMAL(p,s))`.
    DecimalDivide(IcebergType),
    /// `a % guard(b)`.
    GuardedModulo,
    /// IEEE division by zero: `CASE WHEN b = 0 THEN a * power(b, -1) ELSE a / b END`,
    /// cast to `FLOAT` for `real` operands (Spark's `/` of floats is a double).
    FloatDivide {
        real: bool,
    },
    /// IEEE remainder by zero: `CASE WHEN b = 0 THEN a * NaN ELSE a % b END`.
    FloatModulo {
        real: bool,
    },
    /// `CAST(round(x) AS …)`.
    RoundBeforeCast,
    /// `CAST(date_trunc(…) AS <date or timestamp>)`: the operand's type back.
    DateTruncBackTo(IcebergType),
    /// `date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSSSSS')`: Trino's text of a `timestamp(6)`.
    TimestampText,
    /// `CAST(<aggregate> AS ty)`: Trino's result type of `avg` and `sum` where Spark's
    /// has more digits (`avg` of a decimal) or is a double (of a real).
    AggregateAs(IcebergType),
    /// A comparison of doubles or reals with Trino's NaN (IEEE) meaning; the flags say
    /// which operands can be NaN.
    NanComparison {
        left: bool,
        right: bool,
    },
    /// `[NOT] BETWEEN` of doubles or reals, likewise.
    NanBetween,
    /// `[NOT] IN` of doubles or reals with an item that may be NaN, likewise.
    NanInList,
}

fn plan(scope: &TypeScope<'_>, e: &Expr) -> Plan {
    let ty = |x: &Expr| type_of(scope, x).ok();
    match e {
        Expr::Binary { op, operands } if matches!(op, BinaryOp::Divide | BinaryOp::Modulo) => {
            let [left, right] = &**operands;
            let (Some(l), Some(r)) = (ty(left), ty(right)) else {
                return Plan::Keep;
            };
            let arith = if *op == BinaryOp::Divide {
                Arithmetic::Divide
            } else {
                Arithmetic::Modulus
            };
            match (op, arithmetic_type(arith, &l, &r)) {
                (BinaryOp::Divide, Ok(EngineType::Integer)) => Plan::IntegerDivide { to_int: true },
                (BinaryOp::Divide, Ok(EngineType::Bigint)) => Plan::IntegerDivide { to_int: false },
                (BinaryOp::Divide, Ok(EngineType::Decimal { precision, scale })) => {
                    Plan::DecimalDivide(IcebergType::decimal(precision, scale))
                }
                (
                    BinaryOp::Modulo,
                    Ok(EngineType::Integer | EngineType::Bigint | EngineType::Decimal { .. }),
                ) => Plan::GuardedModulo,
                (BinaryOp::Divide, Ok(t @ (EngineType::Real | EngineType::Double))) => {
                    Plan::FloatDivide {
                        real: t == EngineType::Real,
                    }
                }
                (BinaryOp::Modulo, Ok(t @ (EngineType::Real | EngineType::Double))) => {
                    Plan::FloatModulo {
                        real: t == EngineType::Real,
                    }
                }
                _ => Plan::Keep,
            }
        }
        Expr::Cast {
            expr,
            ty: IcebergType::Int | IcebergType::Long,
        } => match ty(expr) {
            Some(EngineType::Real | EngineType::Double | EngineType::Decimal { .. }) => {
                Plan::RoundBeforeCast
            }
            _ => Plan::Keep,
        },
        Expr::DateTrunc { expr, .. } => match ty(expr) {
            Some(EngineType::Date) => Plan::DateTruncBackTo(IcebergType::Date),
            Some(EngineType::Timestamp(_)) => Plan::DateTruncBackTo(IcebergType::Timestamp),
            _ => Plan::Keep,
        },
        Expr::Cast {
            expr,
            ty: IcebergType::String,
        } if matches!(ty(expr), Some(EngineType::Timestamp(6))) => Plan::TimestampText,
        Expr::Aggregate {
            func: func @ (Aggregate::Avg | Aggregate::Sum),
            arg: Some(arg),
            ..
        } => match (func, ty(arg)) {
            (_, Some(EngineType::Real)) => Plan::AggregateAs(IcebergType::Float),
            (Aggregate::Avg, Some(EngineType::Decimal { precision, scale })) => {
                Plan::AggregateAs(IcebergType::decimal(precision, scale))
            }
            _ => Plan::Keep,
        },
        Expr::Binary { op, operands } if is_comparison(*op) => {
            let [left, right] = &**operands;
            let (l, r) = (may_be_nan(scope, left), may_be_nan(scope, right));
            if l || r {
                Plan::NanComparison { left: l, right: r }
            } else {
                Plan::Keep
            }
        }
        Expr::Between { expr, .. } if may_be_nan(scope, expr) => Plan::NanBetween,
        Expr::InList { expr, list, .. }
            if is_float(ty(expr)) && list.iter().any(|i| !is_number(i)) =>
        {
            Plan::NanInList
        }
        _ => Plan::Keep,
    }
}

/// The comparisons whose NaN meaning differs (`IS [NOT] DISTINCT FROM` agrees).
fn is_comparison(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Eq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::LtEq
            | BinaryOp::Gt
            | BinaryOp::GtEq
    )
}

fn is_float(t: Option<EngineType>) -> bool {
    matches!(t, Some(EngineType::Real | EngineType::Double))
}

/// Whether `e` can be NaN: a double or real that is not a number literal, nor a CAST of
/// an integer or decimal (which is never NaN).
fn may_be_nan(scope: &TypeScope<'_>, e: &Expr) -> bool {
    let ty = |x: &Expr| type_of(scope, x).ok();
    if is_number(e) || !is_float(ty(e)) {
        return false;
    }
    !matches!(
        e,
        Expr::Cast { expr, .. } if matches!(
            ty(expr),
            Some(
                EngineType::Tinyint
                    | EngineType::Smallint
                    | EngineType::Integer
                    | EngineType::Bigint
                    | EngineType::Decimal { .. }
            )
        )
    )
}

/// A literal or bound value that is a number, not NaN and not NULL: compared with it,
/// only the other operand can make a comparison NaN's.
fn is_number(e: &Expr) -> bool {
    match e {
        Expr::Literal { value, .. } | Expr::Param { value, .. } => match value {
            Value::Float(x) => !x.is_nan(),
            Value::Double(x) => !x.is_nan(),
            Value::Int(_) | Value::Long(_) | Value::Decimal(_) => true,
            _ => false,
        },
        _ => false,
    }
}

/// A NULL literal or bound value: a comparison with it is NULL on every engine.
fn is_null_value(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Literal {
            value: Value::Null,
            ..
        } | Expr::Param {
            value: Value::Null,
            ..
        }
    )
}

/// `a op b` with Trino's (IEEE) meaning, on Spark, where NaN equals NaN and is larger
/// than any other value; `a_nan` / `b_nan` say which operands can be NaN.
///
/// Trino's result is NULL when an operand is NULL, else false when one is NaN (`<>`:
/// true), else Spark's. Spark's `isnan(NULL)` is false, so `NOT isnan(a)` alone keeps
/// a NULL `a` NULL; where the other operand may be NULL too, it is named, so that
/// `NULL < NaN` stays NULL rather than false (it differs under NOT).
fn ieee_comparison(op: BinaryOp, a: Expr, b: Expr, a_nan: bool, b_nan: bool) -> Expr {
    if is_null_value(&a) || is_null_value(&b) || !(a_nan || b_nan) {
        return binary(op, a, b);
    }
    if op == BinaryOp::NotEq {
        // Only NaN <> NaN differs (false on Spark).
        if !(a_nan && b_nan) {
            return binary(op, a, b);
        }
        let both_nan = binary(BinaryOp::And, isnan(&a), isnan(&b));
        return binary(BinaryOp::Or, binary(op, a, b), both_nan);
    }
    let is_null = |x: &Expr| Expr::IsNull {
        expr: Box::new(x.clone()),
        negated: false,
    };
    let no_nan = match (a_nan, b_nan) {
        // A number literal is never NULL: `NOT isnan(a)` is exact.
        (true, false) if is_number(&b) => Expr::Not(Box::new(isnan(&a))),
        (false, true) if is_number(&a) => Expr::Not(Box::new(isnan(&b))),
        (true, false) => binary(BinaryOp::Or, is_null(&b), Expr::Not(Box::new(isnan(&a)))),
        (false, true) => binary(BinaryOp::Or, is_null(&a), Expr::Not(Box::new(isnan(&b)))),
        _ => {
            let either_nan = binary(BinaryOp::Or, isnan(&a), isnan(&b));
            binary(
                BinaryOp::Or,
                binary(BinaryOp::Or, is_null(&a), is_null(&b)),
                Expr::Not(Box::new(either_nan)),
            )
        }
    };
    binary(BinaryOp::And, binary(op, a, b), no_nan)
}

/// Spark's `isnan(x)` (false for NULL).
fn isnan(x: &Expr) -> Expr {
    Expr::Call {
        name: "isnan",
        args: vec![x.clone()],
    }
}

/// [`ieee_comparison`] where only a number literal is known not to be NaN.
fn ieee_comparison_of(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    let (a_nan, b_nan) = (!is_number(&a), !is_number(&b));
    ieee_comparison(op, a, b, a_nan, b_nan)
}

fn rewrite_in_place(scope: &TypeScope<'_>, e: &mut Expr) {
    let plan = plan(scope, e);
    e.for_each_child_mut(|c| rewrite_in_place(scope, c));
    if matches!(plan, Plan::Keep) {
        return;
    }
    let node = take(e);
    *e = apply(plan, node);
}

fn apply(plan: Plan, mut node: Expr) -> Expr {
    let cast = |expr: Expr, ty: IcebergType| Expr::Cast {
        expr: Box::new(expr),
        ty,
    };
    match (plan, &mut node) {
        (Plan::IntegerDivide { to_int }, Expr::Binary { operands, .. }) => {
            let [left, right] = &mut **operands;
            let (left, right) = (take(left), take(right));
            let div = Expr::Call {
                name: "div",
                args: vec![left, guard(right)],
            };
            if to_int {
                cast(div, IcebergType::Int)
            } else {
                div
            }
        }
        (Plan::DecimalDivide(ty), Expr::Binary { operands, .. }) => {
            let right = &mut operands[1];
            *right = guard(take(right));
            cast(node, ty)
        }
        (Plan::GuardedModulo, Expr::Binary { operands, .. }) => {
            let right = &mut operands[1];
            *right = guard(take(right));
            node
        }
        (Plan::FloatDivide { real }, Expr::Binary { operands, .. }) => {
            let [left, right] = &mut **operands;
            let (a, b) = (take(left), take(right));
            let by_zero = || {
                let reciprocal = Expr::Call {
                    name: "power",
                    args: vec![b.clone(), Expr::literal(Value::Int(-1), IcebergType::Int)],
                };
                binary(BinaryOp::Multiply, a.clone(), reciprocal)
            };
            let quotient = unless_zero(&b, by_zero, binary(BinaryOp::Divide, a.clone(), b.clone()));
            if real {
                cast(quotient, IcebergType::Float)
            } else {
                quotient
            }
        }
        (Plan::FloatModulo { real }, Expr::Binary { operands, .. }) => {
            let [left, right] = &mut **operands;
            let (a, b) = (take(left), take(right));
            let nan = if real {
                Expr::literal(Value::Float(f32::NAN), IcebergType::Float)
            } else {
                Expr::literal(Value::Double(f64::NAN), IcebergType::Double)
            };
            let by_zero = || binary(BinaryOp::Multiply, a.clone(), nan);
            unless_zero(&b, by_zero, binary(BinaryOp::Modulo, a.clone(), b.clone()))
        }
        (Plan::RoundBeforeCast, Expr::Cast { expr, .. }) => {
            let x = take(expr);
            **expr = Expr::Call {
                name: "round",
                args: vec![x],
            };
            node
        }
        (Plan::DateTruncBackTo(ty), Expr::DateTrunc { .. }) => cast(node, ty),
        (Plan::AggregateAs(ty), Expr::Aggregate { .. }) => cast(node, ty),
        (Plan::NanComparison { left: l, right: r }, Expr::Binary { op, operands }) => {
            let [left, right] = &mut **operands;
            ieee_comparison(*op, take(left), take(right), l, r)
        }
        (
            Plan::NanBetween,
            Expr::Between {
                expr,
                low,
                high,
                negated,
            },
        ) if is_number(low) && is_number(high) => {
            // Number bounds: only the operand can be NaN (`NaN BETWEEN 1 AND 2` is
            // already false on Spark, but `NOT BETWEEN` must hold for it).
            let nan = isnan(expr);
            if *negated {
                binary(BinaryOp::Or, node, nan)
            } else {
                binary(BinaryOp::And, node, Expr::Not(Box::new(nan)))
            }
        }
        (
            Plan::NanBetween,
            Expr::Between {
                expr,
                low,
                high,
                negated,
            },
        ) => {
            // `x BETWEEN l AND h` is `l <= x AND x <= h` on both engines.
            let x = take(expr);
            let both = binary(
                BinaryOp::And,
                ieee_comparison_of(BinaryOp::LtEq, take(low), x.clone()),
                ieee_comparison_of(BinaryOp::LtEq, x, take(high)),
            );
            if *negated {
                Expr::Not(Box::new(both))
            } else {
                both
            }
        }
        (
            Plan::NanInList,
            Expr::InList {
                expr,
                list,
                negated,
            },
        ) => {
            // `x IN (a, b)` is `x = a OR x = b` on both engines (a non-empty list: an
            // empty one has no item that is not a number).
            let x = take(expr);
            let any = std::mem::take(list)
                .into_iter()
                .map(|item| ieee_comparison_of(BinaryOp::Eq, x.clone(), item))
                .reduce(|acc, eq| binary(BinaryOp::Or, acc, eq))
                .unwrap_or_else(|| Expr::literal(Value::Boolean(false), IcebergType::Boolean));
            if *negated {
                Expr::Not(Box::new(any))
            } else {
                any
            }
        }
        (Plan::TimestampText, Expr::Cast { expr, .. }) => Expr::Call {
            name: "date_format",
            args: vec![
                take(expr),
                Expr::literal(
                    Value::String("yyyy-MM-dd HH:mm:ss.SSSSSS".to_string()),
                    IcebergType::String,
                ),
            ],
        },
        _ => node,
    }
}

fn binary(op: BinaryOp, left: Expr, right: Expr) -> Expr {
    Expr::binary(op, left, right)
}

/// `CASE WHEN divisor = 0 THEN zero() ELSE otherwise END`, or just `otherwise` where
/// the divisor is a literal or bound value that is not zero.
fn unless_zero(divisor: &Expr, zero: impl FnOnce() -> Expr, otherwise: Expr) -> Expr {
    if is_nonzero_value(divisor) {
        return otherwise;
    }
    let is_zero = binary(
        BinaryOp::Eq,
        divisor.clone(),
        Expr::literal(Value::Int(0), IcebergType::Int),
    );
    Expr::Case {
        branches: vec![(is_zero, zero())],
        otherwise: Some(Box::new(otherwise)),
    }
}

/// A literal or bound value that is not zero (NULL included: dividing by it is NULL on
/// every engine).
fn is_nonzero_value(e: &Expr) -> bool {
    match e {
        Expr::Literal { value, .. } | Expr::Param { value, .. } => match value {
            Value::Int(n) => *n != 0,
            Value::Long(n) => *n != 0,
            Value::Float(x) => *x != 0.0,
            Value::Double(x) => *x != 0.0,
            Value::Decimal(d) => d.unscaled() != 0,
            Value::Null => true,
            _ => false,
        },
        _ => false,
    }
}

/// Moves `e` out, leaving a leaf in its place.
fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::CurrentDate)
}

/// `divisor`, or `CASE WHEN divisor = 0 THEN raise_error('Division by zero') ELSE divisor
/// END` where it may be zero: Spark then fails the statement where Trino does (a NULL
/// divisor stays NULL). A literal or bound value that is not zero is kept as it is.
fn guard(divisor: Expr) -> Expr {
    let fail = || Expr::Call {
        name: "raise_error",
        args: vec![Expr::literal(
            Value::String(DIVISION_BY_ZERO.to_string()),
            IcebergType::String,
        )],
    };
    let copy = divisor.clone();
    unless_zero(&copy, fail, divisor)
}
