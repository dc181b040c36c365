//! Result types of the functions and operators our expressions use.
//!
//! Sources (trinodb/trino, release 417): `ExpressionAnalyzer.visitCurrentTime`,
//! `operator/scalar/timestamptz/CurrentTimestamp`, the `docs/.../functions/datetime.rst`
//! entry for `now()`; `type/DecimalOperators` and the integer/real/double operator
//! classes; `type/DateTimeOperators` and `operator/scalar/timestamp*/*Operators`;
//! `operator/scalar/DateTimeFunctions.truncate*`; the aggregation classes
//! `LongSumAggregation`, `RealSumAggregation`, `DoubleSumAggregation`,
//! `DecimalSumAggregation`, `AverageAggregations`, `RealAverageAggregation`,
//! `DecimalAverageAggregation`, `Approximate*PercentileAggregations`, `MinAggregation`
//! / `MaxAggregation` (orderable types).

use super::coercion::{common_super_type, is_orderable};
use super::types::{EngineType, DEFAULT_TIME_PRECISION, MAX_DECIMAL_PRECISION};
use crate::error::{Error, ErrorKind, Result};

/// The current date and time, as SQL spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Clock {
    /// `current_timestamp`, `current_timestamp(p)`, `now()`: `timestamp(p) with time
    /// zone` in the session zone, p = 3 by default. Not `timestamp(6)`: storing it in an
    /// Iceberg `timestamp` column is a zone-dependent CAST (see `coercion::assignment`).
    CurrentTimestamp(Option<u8>),
    /// `localtimestamp`, `localtimestamp(p)`: `timestamp(p)`, the session's wall clock,
    /// p = 3 by default.
    LocalTimestamp(Option<u8>),
    /// `current_date`: `date` in the session zone.
    CurrentDate,
}

impl Clock {
    /// The SQL type of the value.
    pub fn result_type(self) -> EngineType {
        match self {
            Clock::CurrentTimestamp(p) => {
                EngineType::TimestampWithTimeZone(p.unwrap_or(DEFAULT_TIME_PRECISION))
            }
            Clock::LocalTimestamp(p) => EngineType::Timestamp(p.unwrap_or(DEFAULT_TIME_PRECISION)),
            Clock::CurrentDate => EngineType::Date,
        }
    }
}

/// An arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arithmetic {
    /// `+`
    Add,
    /// `-`
    Subtract,
    /// `*`
    Multiply,
    /// `/` (integer division on integer types: `7 / 2` is `3`)
    Divide,
    /// `%`
    Modulus,
}

impl Arithmetic {
    fn symbol(self) -> &'static str {
        match self {
            Arithmetic::Add => "+",
            Arithmetic::Subtract => "-",
            Arithmetic::Multiply => "*",
            Arithmetic::Divide => "/",
            Arithmetic::Modulus => "%",
        }
    }
}

fn cannot_apply(op: Arithmetic, left: &EngineType, right: &EngineType) -> Error {
    Error::new(
        ErrorKind::InvalidValue,
        format!("Cannot apply operator: {left} {} {right}", op.symbol()),
    )
}

/// The decimal an integral type is coerced to for decimal arithmetic.
fn as_decimal(ty: &EngineType) -> Option<(u8, u8)> {
    match ty {
        EngineType::Tinyint => Some((3, 0)),
        EngineType::Smallint => Some((5, 0)),
        EngineType::Integer => Some((10, 0)),
        EngineType::Bigint => Some((19, 0)),
        EngineType::Decimal { precision, scale } => Some((*precision, *scale)),
        _ => None,
    }
}

/// The type of `left op right`, or Trino's "Cannot apply operator" error.
///
/// Numbers: the wider operand type (`integer + bigint` is `bigint`; with a `real` or
/// `double` operand the result is that float type); with a decimal operand the integer
/// side becomes `decimal(10,0)` (`integer`) or `decimal(19,0)` (`bigint`) and the result
/// precision follows `DecimalOperators` (add/subtract: `min(38, max(p1-s1, p2-s2) +
/// max(s1, s2) + 1)`, multiply: `min(38, p1+p2)` with scale `s1+s2`, divide:
/// `min(38, p1 + s2 + max(s2-s1, 0))` with scale `max(s1, s2)`, modulus:
/// `min(p2-s2, p1-s1) + max(s1, s2)`).
///
/// Date and time: `date ± interval` is a `date` (an interval with hours, minutes or
/// seconds fails at run time: "Cannot add hour, minutes or seconds to a date");
/// `timestamp(p) ± interval` keeps `timestamp(p)` (with or without zone); `interval ±
/// interval` of the same kind; `timestamp(p) - timestamp(q)` is `interval day to second`.
pub(crate) fn arithmetic_type(
    op: Arithmetic,
    left: &EngineType,
    right: &EngineType,
) -> Result<EngineType> {
    use Arithmetic as A;
    use EngineType as E;
    let additive = matches!(op, A::Add | A::Subtract);
    match (left, right) {
        (E::Unknown, other) | (other, E::Unknown) => Ok(other.clone()),
        (a, b) if a.is_numeric() && b.is_numeric() => {
            if matches!(a, E::Real | E::Double) || matches!(b, E::Real | E::Double) {
                return common_super_type(a, b).ok_or_else(|| cannot_apply(op, left, right));
            }
            if matches!(a, E::Decimal { .. }) || matches!(b, E::Decimal { .. }) {
                let ((p1, s1), (p2, s2)) = match (as_decimal(a), as_decimal(b)) {
                    (Some(x), Some(y)) => (x, y),
                    _ => return Err(cannot_apply(op, left, right)),
                };
                let (p1, s1, p2, s2) = (u32::from(p1), u32::from(s1), u32::from(p2), u32::from(s2));
                let max = u32::from(MAX_DECIMAL_PRECISION);
                let (p, s) = match op {
                    A::Add | A::Subtract => ((p1 - s1).max(p2 - s2) + s1.max(s2) + 1, s1.max(s2)),
                    A::Multiply => (p1 + p2, s1 + s2),
                    A::Divide => (p1 + s2 + s2.saturating_sub(s1), s1.max(s2)),
                    A::Modulus => ((p2 - s2).min(p1 - s1) + s1.max(s2), s1.max(s2)),
                };
                let p = p.min(max);
                if s > p {
                    return Err(Error::new(
                        ErrorKind::InvalidValue,
                        format!(
                            "{left} {} {right}: the result would need scale {s}, more than DECIMAL's {max} digits",
                            op.symbol()
                        ),
                    )
                    .with_hint("CAST an operand to a smaller scale or to double first"));
                }
                // Both at most 38.
                return Ok(E::decimal(p as u8, s as u8));
            }
            common_super_type(a, b).ok_or_else(|| cannot_apply(op, left, right))
        }
        (E::Date, E::IntervalDayToSecond | E::IntervalYearToMonth) if additive => Ok(E::Date),
        (E::IntervalDayToSecond | E::IntervalYearToMonth, E::Date) if op == A::Add => Ok(E::Date),
        (
            E::Timestamp(_) | E::TimestampWithTimeZone(_) | E::Time(_) | E::TimeWithTimeZone(_),
            E::IntervalDayToSecond,
        ) if additive => Ok(left.clone()),
        (E::Timestamp(_) | E::TimestampWithTimeZone(_), E::IntervalYearToMonth) if additive => {
            Ok(left.clone())
        }
        (
            E::IntervalDayToSecond,
            E::Timestamp(_) | E::TimestampWithTimeZone(_) | E::Time(_) | E::TimeWithTimeZone(_),
        )
        | (E::IntervalYearToMonth, E::Timestamp(_) | E::TimestampWithTimeZone(_))
            if op == A::Add =>
        {
            Ok(right.clone())
        }
        (E::IntervalDayToSecond, E::IntervalDayToSecond)
        | (E::IntervalYearToMonth, E::IntervalYearToMonth)
            if additive =>
        {
            Ok(left.clone())
        }
        (E::Timestamp(_), E::Timestamp(_))
        | (E::TimestampWithTimeZone(_), E::TimestampWithTimeZone(_))
            if op == A::Subtract =>
        {
            Ok(E::IntervalDayToSecond)
        }
        (E::IntervalDayToSecond | E::IntervalYearToMonth, n)
            if n.is_numeric() && matches!(op, A::Multiply | A::Divide) =>
        {
            Ok(left.clone())
        }
        (n, E::IntervalDayToSecond | E::IntervalYearToMonth)
            if n.is_numeric() && op == A::Multiply =>
        {
            Ok(right.clone())
        }
        _ => Err(cannot_apply(op, left, right)),
    }
}

/// A unit of `date_trunc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TruncUnit {
    /// `'year'`
    Year,
    /// `'quarter'`
    Quarter,
    /// `'month'`
    Month,
    /// `'week'`
    Week,
    /// `'day'`
    Day,
    /// `'hour'`
    Hour,
    /// `'minute'`
    Minute,
    /// `'second'`
    Second,
}

/// The type of `date_trunc(unit, x)`: the type of `x` (`date`, `timestamp(p)`, with or
/// without zone). On a `date`, units below a day fail at run time ("'hour' is not a
/// valid DATE field"), so they are refused here.
pub(crate) fn date_trunc_type(unit: TruncUnit, arg: &EngineType) -> Result<EngineType> {
    match arg {
        EngineType::Date
            if matches!(
                unit,
                TruncUnit::Hour | TruncUnit::Minute | TruncUnit::Second
            ) =>
        {
            let unit = format!("{unit:?}").to_lowercase();
            Err(Error::new(
                ErrorKind::InvalidValue,
                format!("date_trunc('{unit}', date): '{unit}' is not a valid DATE field"),
            )
            .with_hint("truncate a timestamp, or use day or a larger unit"))
        }
        EngineType::Date
        | EngineType::Timestamp(_)
        | EngineType::TimestampWithTimeZone(_)
        | EngineType::Time(_)
        | EngineType::TimeWithTimeZone(_) => Ok(arg.clone()),
        EngineType::Unknown => Ok(EngineType::Unknown),
        _ => Err(Error::new(
            ErrorKind::InvalidValue,
            format!("Unexpected parameters (varchar(x), {arg}) for function date_trunc"),
        )),
    }
}

/// Trino's aggregate functions, by name
/// (<https://trino.io/docs/current/functions/aggregate.html>): a call of one of them
/// without `OVER` aggregates the query's rows.
pub(crate) const TRINO_AGGREGATES: &[&str] = &[
    "any_value",
    "approx_distinct",
    "approx_most_frequent",
    "approx_percentile",
    "approx_set",
    "arbitrary",
    "array_agg",
    "avg",
    "bitwise_and_agg",
    "bitwise_or_agg",
    "bitwise_xor_agg",
    "bool_and",
    "bool_or",
    "checksum",
    "corr",
    "count",
    "count_if",
    "covar_pop",
    "covar_samp",
    "every",
    "geometric_mean",
    "histogram",
    "kurtosis",
    "listagg",
    "map_agg",
    "map_union",
    "max",
    "max_by",
    "merge",
    "min",
    "min_by",
    "multimap_agg",
    "numeric_histogram",
    "qdigest_agg",
    "reduce_agg",
    "regr_intercept",
    "regr_slope",
    "set_agg",
    "set_union",
    "skewness",
    "stddev",
    "stddev_pop",
    "stddev_samp",
    "sum",
    "tdigest_agg",
    "var_pop",
    "var_samp",
    "variance",
];

/// An aggregate function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AggregateFn {
    /// `count(*)`, `count(x)`, `count(DISTINCT x)`
    Count,
    /// `sum(x)`
    Sum,
    /// `avg(x)`
    Avg,
    /// `min(x)`
    Min,
    /// `max(x)`
    Max,
    /// `approx_percentile(x, p)`
    ApproxPercentile,
}

impl AggregateFn {
    fn name(self) -> &'static str {
        match self {
            AggregateFn::Count => "count",
            AggregateFn::Sum => "sum",
            AggregateFn::Avg => "avg",
            AggregateFn::Min => "min",
            AggregateFn::Max => "max",
            AggregateFn::ApproxPercentile => "approx_percentile",
        }
    }
}

/// The result type of `func(arg)` (`arg` is `None` for `count(*)`).
///
/// * `count`: `bigint`.
/// * `sum`: integers give `bigint`, `real` `real`, `double` `double`, `decimal(p,s)`
///   gives `decimal(38,s)`, intervals themselves.
/// * `avg`: integers give `double`, `real` `real`, `double` `double`, `decimal(p,s)`
///   itself, intervals themselves.
/// * `min`, `max`: the argument's type, which must be orderable (not `json` or `map`).
/// * `approx_percentile`: integers give `bigint`, `real` `real`, `double` and decimals
///   `double`; other types have no such function.
///
/// Otherwise Trino fails with "Unexpected parameters (varchar) for function sum".
pub(crate) fn aggregate_type(func: AggregateFn, arg: Option<&EngineType>) -> Result<EngineType> {
    use EngineType as E;
    let unexpected = |t: &EngineType| {
        Err(Error::new(
            ErrorKind::InvalidValue,
            format!("Unexpected parameters ({t}) for function {}", func.name()),
        ))
    };
    let Some(arg) = arg else {
        return match func {
            AggregateFn::Count => Ok(E::Bigint),
            _ => Err(Error::new(
                ErrorKind::InvalidValue,
                format!("{}(*) is not a function; only count(*) is", func.name()),
            )),
        };
    };
    match func {
        AggregateFn::Count => Ok(E::Bigint),
        AggregateFn::Sum => match arg {
            a if a.is_integral() => Ok(E::Bigint),
            E::Real | E::Double | E::IntervalDayToSecond | E::IntervalYearToMonth => {
                Ok(arg.clone())
            }
            E::Decimal { scale, .. } => Ok(E::decimal(MAX_DECIMAL_PRECISION, *scale)),
            E::Unknown => Ok(E::Bigint),
            _ => unexpected(arg),
        },
        AggregateFn::Avg => match arg {
            a if a.is_integral() => Ok(E::Double),
            E::Real
            | E::Double
            | E::Decimal { .. }
            | E::IntervalDayToSecond
            | E::IntervalYearToMonth => Ok(arg.clone()),
            E::Unknown => Ok(E::Double),
            _ => unexpected(arg),
        },
        AggregateFn::Min | AggregateFn::Max => {
            if is_orderable(arg) {
                Ok(arg.clone())
            } else {
                unexpected(arg)
            }
        }
        AggregateFn::ApproxPercentile => match arg {
            a if a.is_integral() => Ok(E::Bigint),
            E::Real => Ok(E::Real),
            E::Double | E::Decimal { .. } => Ok(E::Double),
            _ => unexpected(arg),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> EngineType {
        EngineType::parse(s).unwrap()
    }

    #[test]
    fn clocks() {
        assert_eq!(
            Clock::CurrentTimestamp(None).result_type(),
            t("timestamp(3) with time zone")
        );
        assert_eq!(
            Clock::CurrentTimestamp(Some(6)).result_type(),
            t("timestamp(6) with time zone")
        );
        assert_eq!(Clock::LocalTimestamp(None).result_type(), t("timestamp(3)"));
        assert_eq!(
            Clock::LocalTimestamp(Some(6)).result_type(),
            t("timestamp(6)")
        );
        assert_eq!(Clock::CurrentDate.result_type(), t("date"));
    }

    #[test]
    fn arithmetic_result_types() {
        use Arithmetic::*;
        let a = |op, l: &str, r: &str| arithmetic_type(op, &t(l), &t(r)).map(|t| t.to_string());
        assert_eq!(a(Add, "integer", "integer").unwrap(), "integer");
        assert_eq!(a(Multiply, "bigint", "integer").unwrap(), "bigint");
        assert_eq!(a(Divide, "bigint", "integer").unwrap(), "bigint");
        assert_eq!(a(Add, "bigint", "real").unwrap(), "real");
        assert_eq!(a(Add, "decimal(10,2)", "double").unwrap(), "double");
        // DecimalOperators.
        assert_eq!(
            a(Add, "decimal(10,2)", "decimal(5,3)").unwrap(),
            "decimal(12,3)"
        );
        assert_eq!(
            a(Subtract, "decimal(38,2)", "decimal(38,2)").unwrap(),
            "decimal(38,2)"
        );
        assert_eq!(
            a(Multiply, "decimal(10,2)", "decimal(5,3)").unwrap(),
            "decimal(15,5)"
        );
        assert_eq!(
            a(Multiply, "decimal(10,2)", "integer").unwrap(),
            "decimal(20,2)"
        );
        assert_eq!(
            a(Divide, "decimal(10,2)", "decimal(5,3)").unwrap(),
            "decimal(14,3)"
        );
        assert_eq!(
            a(Modulus, "decimal(10,2)", "decimal(5,3)").unwrap(),
            "decimal(5,3)"
        );
        assert_eq!(a(Add, "bigint", "decimal(2,1)").unwrap(), "decimal(21,1)");
        assert!(a(Multiply, "decimal(38,20)", "decimal(38,20)").is_err());
        // Date and time.
        assert_eq!(
            a(
                Subtract,
                "timestamp(3) with time zone",
                "interval day to second"
            )
            .unwrap(),
            "timestamp(3) with time zone"
        );
        assert_eq!(
            a(Add, "timestamp(6)", "interval year to month").unwrap(),
            "timestamp(6)"
        );
        assert_eq!(
            a(Subtract, "date", "interval day to second").unwrap(),
            "date"
        );
        assert_eq!(a(Add, "interval day to second", "date").unwrap(), "date");
        assert_eq!(
            a(Subtract, "timestamp(6)", "timestamp(6)").unwrap(),
            "interval day to second"
        );
        assert_eq!(
            a(Multiply, "interval day to second", "integer").unwrap(),
            "interval day to second"
        );
        assert_eq!(a(Add, "unknown", "bigint").unwrap(), "bigint");
        let e = a(Add, "varchar", "integer").unwrap_err();
        assert_eq!(e.message(), "Cannot apply operator: varchar + integer");
        assert!(a(Subtract, "interval day to second", "date").is_err());
        assert!(a(Add, "varchar", "interval day to second").is_err());
    }

    #[test]
    fn date_trunc_keeps_the_type() {
        assert_eq!(
            date_trunc_type(TruncUnit::Day, &t("timestamp(6)")).unwrap(),
            t("timestamp(6)")
        );
        assert_eq!(
            date_trunc_type(TruncUnit::Month, &t("date")).unwrap(),
            t("date")
        );
        assert!(date_trunc_type(TruncUnit::Hour, &t("date")).is_err());
        assert!(date_trunc_type(TruncUnit::Day, &t("varchar")).is_err());
    }

    /// The typed API's aggregate value types (`Numeric::Sum`, `Avg`, `Percentile`) are
    /// the types this model gives the aggregates, for every numeric Rust type: a Rust
    /// type that says `int` where Athena returns a bigint would not fit the value.
    #[test]
    fn typed_aggregates_have_the_engine_types() {
        use crate::engine::types::TableFormat;
        use crate::expr::Numeric;
        use crate::record::SqlType;
        use AggregateFn::*;
        fn engine<T: SqlType>() -> EngineType {
            EngineType::of_column(&T::iceberg_type(), TableFormat::Iceberg).unwrap()
        }
        // The type without its parameters: `decimal(38,2)` and `decimal(38,9)` alike.
        fn kind(t: &EngineType) -> String {
            let text = t.to_string();
            text.split('(').next().unwrap_or_default().to_string()
        }
        fn check<V>()
        where
            V: Numeric + SqlType,
            V::Sum: SqlType,
            V::Avg: SqlType,
            V::Percentile: SqlType,
        {
            let arg = engine::<V>();
            for (func, typed) in [
                (Sum, engine::<V::Sum>()),
                (Avg, engine::<V::Avg>()),
                (ApproxPercentile, engine::<V::Percentile>()),
            ] {
                let athena = aggregate_type(func, Some(&arg)).unwrap();
                assert_eq!(kind(&typed), kind(&athena), "{func:?} of {arg}");
            }
        }
        check::<i32>();
        check::<i64>();
        check::<f32>();
        check::<f64>();
        check::<crate::value::Decimal>();
    }

    #[test]
    fn aggregate_result_types() {
        use AggregateFn::*;
        let g = |f, a: &str| aggregate_type(f, Some(&t(a))).map(|t| t.to_string());
        assert_eq!(aggregate_type(Count, None).unwrap(), EngineType::Bigint);
        assert!(aggregate_type(Sum, None).is_err());
        assert_eq!(g(Count, "varchar").unwrap(), "bigint");
        assert_eq!(g(Sum, "integer").unwrap(), "bigint");
        assert_eq!(g(Sum, "real").unwrap(), "real");
        assert_eq!(g(Sum, "decimal(10,2)").unwrap(), "decimal(38,2)");
        assert_eq!(g(Avg, "bigint").unwrap(), "double");
        assert_eq!(g(Avg, "decimal(10,2)").unwrap(), "decimal(10,2)");
        assert_eq!(g(Avg, "real").unwrap(), "real");
        assert_eq!(g(Max, "varchar").unwrap(), "varchar");
        assert_eq!(g(Min, "timestamp(6)").unwrap(), "timestamp(6)");
        assert_eq!(g(ApproxPercentile, "integer").unwrap(), "bigint");
        assert_eq!(g(ApproxPercentile, "decimal(10,2)").unwrap(), "double");
        assert_eq!(
            g(Sum, "varchar").unwrap_err().message(),
            "Unexpected parameters (varchar) for function sum"
        );
        assert!(g(Max, "json").is_err());
        assert!(g(Min, "map(varchar, bigint)").is_err());
        assert!(g(ApproxPercentile, "timestamp(6)").is_err());
        assert!(g(ApproxPercentile, "varchar").is_err());
    }
}

/// The result type of scalar function `func` on arguments of `args`, by Trino's
/// signatures (<https://trino.io/docs/current/functions/string.html>,
/// <https://trino.io/docs/current/functions/regexp.html>):
///
/// * `lower`, `upper`, `trim`: `varchar(x) → varchar(x)`.
/// * `length`: `varchar → bigint`.
/// * `substr(varchar(x), bigint, bigint)`: `varchar(x)`.
/// * `concat(varchar, …)`: `varchar`, of the summed lengths when every one is bounded.
/// * `replace(varchar, varchar, varchar)`: `varchar`.
/// * `regexp_like(varchar, varchar)`: `boolean`.
/// * `row_number()`, `rank()`, `dense_rank()`: `bigint`; `lag(x, bigint)`, `lead(x,
///   bigint)`: `x`'s type (<https://trino.io/docs/current/functions/window.html>).
///
/// Otherwise Trino fails with "Unexpected parameters (bigint) for function lower".
pub(crate) fn function_type(
    func: crate::expr::Function,
    args: &[EngineType],
) -> Result<EngineType> {
    use crate::expr::Function as F;
    use EngineType as E;
    let text = |t: &EngineType| matches!(t, E::Varchar(_) | E::Unknown);
    let bigint = |t: &EngineType| {
        matches!(
            t,
            E::Tinyint | E::Smallint | E::Integer | E::Bigint | E::Unknown
        )
    };
    let ok = match func {
        F::Lower | F::Upper | F::Trim | F::Length => args.len() == 1 && text(&args[0]),
        F::Substr => args.len() == 3 && text(&args[0]) && bigint(&args[1]) && bigint(&args[2]),
        F::Concat => args.len() >= 2 && args.iter().all(text),
        F::Replace => args.len() == 3 && args.iter().all(text),
        F::RegexpLike => args.len() == 2 && args.iter().all(text),
        F::IsNan => args.len() == 1 && matches!(args[0], E::Real | E::Double | E::Unknown),
        F::RowNumber | F::Rank | F::DenseRank => args.is_empty(),
        F::Lag | F::Lead => args.len() == 2 && bigint(&args[1]),
    };
    if !ok {
        let shown: Vec<String> = args.iter().map(ToString::to_string).collect();
        return Err(Error::new(
            ErrorKind::InvalidValue,
            format!(
                "Unexpected parameters ({}) for function {}",
                shown.join(", "),
                func.name()
            ),
        ));
    }
    let same = || match &args[0] {
        E::Unknown => E::VARCHAR,
        t => t.clone(),
    };
    Ok(match func {
        F::Lower | F::Upper | F::Trim | F::Substr => same(),
        F::Length => E::Bigint,
        F::Concat => {
            let mut total: Option<u32> = Some(0);
            for a in args {
                total = match (total, a) {
                    (Some(n), E::Varchar(Some(m))) => n.checked_add(*m),
                    _ => None,
                };
            }
            E::Varchar(total.filter(|n| *n <= super::types::MAX_VARCHAR_LENGTH))
        }
        F::Replace => E::VARCHAR,
        F::RegexpLike | F::IsNan => E::Boolean,
        F::RowNumber | F::Rank | F::DenseRank => E::Bigint,
        F::Lag | F::Lead => args[0].clone(),
    })
}

#[cfg(test)]
mod function_tests {
    use super::*;
    use crate::expr::Function;

    #[test]
    fn string_functions_type_as_trino_signatures_say() {
        let v = |n| EngineType::Varchar(Some(n));
        assert_eq!(function_type(Function::Lower, &[v(3)]).unwrap(), v(3));
        assert_eq!(
            function_type(Function::Length, &[EngineType::VARCHAR]).unwrap(),
            EngineType::Bigint
        );
        assert_eq!(
            function_type(Function::Concat, &[v(3), v(4)]).unwrap(),
            v(7)
        );
        assert_eq!(
            function_type(Function::Concat, &[v(3), EngineType::VARCHAR]).unwrap(),
            EngineType::VARCHAR
        );
        assert_eq!(
            function_type(
                Function::Substr,
                &[v(9), EngineType::Bigint, EngineType::Bigint]
            )
            .unwrap(),
            v(9)
        );
        assert_eq!(
            function_type(Function::RegexpLike, &[v(1), v(2)]).unwrap(),
            EngineType::Boolean
        );
        let e = function_type(Function::Lower, &[EngineType::Bigint]).unwrap_err();
        assert_eq!(
            e.message(),
            "Unexpected parameters (bigint) for function lower"
        );
        let e = function_type(
            Function::Substr,
            &[v(1), EngineType::VARCHAR, EngineType::Bigint],
        )
        .unwrap_err();
        assert_eq!(
            e.message(),
            "Unexpected parameters (varchar(1), varchar, bigint) for function substr"
        );
    }
}
