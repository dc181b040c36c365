//! Spark text with Athena's meaning: where Spark's own reading of an operator or CAST
//! gives another value than Athena's (Trino's), the Spark rendering writes a form that
//! gives Athena's.
//!
//! | builder call | Athena (Trino) | Spark as written | Spark text we write |
//! |---|---|---|---|
//! | `a / b`, integers | integer, truncated toward zero: `-7 / 2` = `-3` | `double`: `-3.5` | `div(a, b)` (`CAST(… AS INT)` for `int`) |
//! | `a / b`, decimals | `decimal(p, s)`, `s = max(s1, s2)`, rounded half up | more digits: `10.00 / 3` = `3.3333333333333` | `CAST(a / b AS DECIMAL(p,s))` |
//! | `/`, `%` by zero, integers and decimals | fails the statement: "Division by zero" | `NULL` (without ANSI mode) | the divisor guarded by `raise_error('Division by zero')` |
//! | `CAST(x AS int/bigint)`, `x` double, real or decimal | rounds half away from zero: `2.5` → `3` | truncates: `2` | `CAST(round(x) AS …)` |
//! | `date_trunc(unit, d)`, `d` a date | a `date` | a `timestamp` | `CAST(date_trunc(unit, d) AS DATE)` |
//!
//! Sources: Trino's operators (`io.trino.type.IntegerOperators`, `BigintOperators`:
//! `divide` is Java's `/` and fails on zero; `DecimalOperators`; `DoubleOperators.castToLong`:
//! `DoubleMath.roundToLong(value, HALF_UP)`; `MathFunctions.round`), `DateTimeFunctions`
//! (`date_trunc` of a date is a date); Spark's built-in functions (`div`, `round`: HALF_UP,
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
use crate::expr::{BinaryOp, Expr};
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
                    ty: IcebergType::Int | IcebergType::Long,
                    ..
                } | Expr::DateTrunc { .. }
            )
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
    /// `CAST(round(x) AS …)`.
    RoundBeforeCast,
    /// `CAST(date_trunc(…) AS DATE)`.
    DateTruncOfDate,
}

fn plan(scope: &TypeScope<'_>, e: &Expr) -> Plan {
    let ty = |x: &Expr| type_of(scope, x).ok();
    match e {
        Expr::Binary { op, left, right } if matches!(op, BinaryOp::Divide | BinaryOp::Modulo) => {
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
        Expr::DateTrunc { expr, .. } if ty(expr) == Some(EngineType::Date) => Plan::DateTruncOfDate,
        _ => Plan::Keep,
    }
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
        (Plan::IntegerDivide { to_int }, Expr::Binary { left, right, .. }) => {
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
        (Plan::DecimalDivide(ty), Expr::Binary { right, .. }) => {
            **right = guard(take(right));
            cast(node, ty)
        }
        (Plan::GuardedModulo, Expr::Binary { right, .. }) => {
            **right = guard(take(right));
            node
        }
        (Plan::RoundBeforeCast, Expr::Cast { expr, .. }) => {
            let x = take(expr);
            **expr = Expr::Call {
                name: "round",
                args: vec![x],
            };
            node
        }
        (Plan::DateTruncOfDate, Expr::DateTrunc { .. }) => cast(node, IcebergType::Date),
        _ => node,
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
    let nonzero = match &divisor {
        Expr::Literal { value, .. } | Expr::Param { value, .. } => match value {
            Value::Int(n) => *n != 0,
            Value::Long(n) => *n != 0,
            Value::Decimal(d) => d.unscaled() != 0,
            Value::Null => true,
            _ => false,
        },
        _ => false,
    };
    if nonzero {
        return divisor;
    }
    let is_zero = Expr::Binary {
        op: BinaryOp::Eq,
        left: Box::new(divisor.clone()),
        right: Box::new(Expr::literal(Value::Int(0), IcebergType::Int)),
    };
    let fail = Expr::Call {
        name: "raise_error",
        args: vec![Expr::literal(
            Value::String(DIVISION_BY_ZERO.to_string()),
            IcebergType::String,
        )],
    };
    Expr::Case {
        branches: vec![(is_zero, fail)],
        otherwise: Some(Box::new(divisor)),
    }
}
