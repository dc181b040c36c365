//! [`ExpressionMethods`]: the comparison, predicate and aggregate methods of every typed
//! expression, written once for columns and expressions alike (the pattern of diesel's
//! `ExpressionMethods`).

use super::ast::{Aggregate, BinaryOp, Expr, Function, TimeUnit};
use super::typed::{ColumnValue, Cond, IntoOperand, Numeric, SqlExpr, Temporal};
use super::Col;
use crate::record::SqlType;
use crate::types::IcebergType;
use crate::value::Value;

/// The methods of a typed expression: a column ([`Col`]) or an expression built from
/// columns ([`SqlExpr`]). In the prelude.
///
/// Operands are typed: `Self::Value` is the Rust type of the expression's value, and a
/// right-hand side must be an expression or literal of the same type in the same
/// [`Scope`](Self::Scope).
///
/// ```
/// use iceberg_sql::prelude::*;
/// # struct Ev;
/// # const STATUS: Col<Ev, String> = Col::new("status");
/// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// let slow = LATENCY_MS.gt(1000).and(STATUS.ne("error"));
/// assert_eq!(slow.to_sql(Dialect::Athena)?, "latency_ms > 1000 AND status <> 'error'");
/// assert_eq!((LATENCY_MS * 2).between(100, 500).to_sql(Dialect::Athena)?,
///            "latency_ms * 2 BETWEEN 100 AND 500");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
///
/// `like` needs a string, `and` a boolean, `sum` a number:
///
/// ```compile_fail
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::*;
/// # struct Ev;
/// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// let _ = LATENCY_MS.like("1%"); // not a string column
/// ```
// `eq`, `not`, `is_null` ... are SQL operators here, not the std traits' methods.
#[allow(clippy::should_implement_trait, clippy::wrong_self_convention)]
pub trait ExpressionMethods: Sized {
    /// Where the expression may be used: a table record type, or a MERGE scope
    /// ([`Source`](super::Source), [`Matched`](super::Matched)).
    type Scope;
    /// The Rust type of the expression's value (nullability erased).
    type Value;

    /// This as a typed expression.
    fn sql_expr(self) -> SqlExpr<Self::Scope, Self::Value>;

    /// `self = rhs`
    fn eq<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::Eq, rhs)
    }
    /// `self <> rhs`
    fn ne<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::NotEq, rhs)
    }
    /// `self < rhs`
    fn lt<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::Lt, rhs)
    }
    /// `self <= rhs`
    fn le<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::LtEq, rhs)
    }
    /// `self > rhs`
    fn gt<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::Gt, rhs)
    }
    /// `self >= rhs`
    fn ge<R: IntoOperand<Self::Scope, Self::Value>>(self, rhs: R) -> Cond<Self::Scope> {
        binary(self, BinaryOp::GtEq, rhs)
    }
    /// `self IS DISTINCT FROM rhs` (NULL-safe `<>`).
    fn is_distinct_from<R: IntoOperand<Self::Scope, Self::Value>>(
        self,
        rhs: R,
    ) -> Cond<Self::Scope> {
        binary(self, BinaryOp::IsDistinctFrom, rhs)
    }
    /// `self IS NOT DISTINCT FROM rhs` (NULL-safe `=`).
    fn is_not_distinct_from<R: IntoOperand<Self::Scope, Self::Value>>(
        self,
        rhs: R,
    ) -> Cond<Self::Scope> {
        binary(self, BinaryOp::IsNotDistinctFrom, rhs)
    }

    /// `self BETWEEN low AND high` (both inclusive).
    fn between<A, B>(self, low: A, high: B) -> Cond<Self::Scope>
    where
        A: IntoOperand<Self::Scope, Self::Value>,
        B: IntoOperand<Self::Scope, Self::Value>,
    {
        between(self, low, high, false)
    }
    /// `self NOT BETWEEN low AND high`.
    fn not_between<A, B>(self, low: A, high: B) -> Cond<Self::Scope>
    where
        A: IntoOperand<Self::Scope, Self::Value>,
        B: IntoOperand<Self::Scope, Self::Value>,
    {
        between(self, low, high, true)
    }

    /// `self IN (a, b, ...)`; an empty list is `false`.
    fn is_in<I>(self, items: I) -> Cond<Self::Scope>
    where
        I: IntoIterator,
        I::Item: IntoOperand<Self::Scope, Self::Value>,
    {
        in_list(self, items, false)
    }
    /// `self NOT IN (a, b, ...)`; an empty list is `true`.
    fn not_in<I>(self, items: I) -> Cond<Self::Scope>
    where
        I: IntoIterator,
        I::Item: IntoOperand<Self::Scope, Self::Value>,
    {
        in_list(self, items, true)
    }

    /// `self IS NULL`
    fn is_null(self) -> Cond<Self::Scope> {
        SqlExpr::from_expr(Expr::IsNull {
            expr: Box::new(self.sql_expr().into_expr()),
            negated: false,
        })
    }
    /// `self IS NOT NULL`
    fn is_not_null(self) -> Cond<Self::Scope> {
        SqlExpr::from_expr(Expr::IsNull {
            expr: Box::new(self.sql_expr().into_expr()),
            negated: true,
        })
    }

    /// `CAST(self AS U)`, with `U`'s type spelled for the grammar (`timestamp(6)`,
    /// `varchar`, `timestamp_ntz`, ...). The value is Athena's on every target: a double
    /// or decimal cast to an integer rounds half away from zero (`2.5` → `3`), which
    /// Spark's text writes as `CAST(round(x) AS …)`.
    fn cast<U: ColumnValue>(self) -> SqlExpr<Self::Scope, U::Base> {
        SqlExpr::from_expr(Expr::Cast {
            expr: Box::new(self.sql_expr().into_expr()),
            ty: U::Base::iceberg_type(),
        })
    }

    /// `coalesce(self, other)`: `other` when `self` is NULL.
    fn coalesce<R: IntoOperand<Self::Scope, Self::Value>>(
        self,
        other: R,
    ) -> SqlExpr<Self::Scope, Self::Value> {
        let mut first = self.sql_expr().into_expr();
        let mut args = match &mut first {
            Expr::Coalesce(args) => std::mem::take(args),
            _ => vec![first],
        };
        args.push(other.into_operand());
        SqlExpr::from_expr(Expr::Coalesce(args))
    }

    /// `count(self)`: non-NULL values.
    fn count(self) -> SqlExpr<Self::Scope, i64> {
        aggregate(Aggregate::Count, self)
    }
    /// `count(DISTINCT self)`.
    fn count_distinct(self) -> SqlExpr<Self::Scope, i64> {
        aggregate(Aggregate::CountDistinct, self)
    }
    /// `min(self)`.
    fn min(self) -> SqlExpr<Self::Scope, Self::Value> {
        aggregate(Aggregate::Min, self)
    }
    /// `max(self)`.
    fn max(self) -> SqlExpr<Self::Scope, Self::Value> {
        aggregate(Aggregate::Max, self)
    }
    /// `approx_percentile(self, p)` with `0 <= p <= 1` (checked when rendered), over
    /// numbers (Trino has no approx_percentile of text or time values).
    fn approx_percentile(self, p: f64) -> SqlExpr<Self::Scope, <Self::Value as Numeric>::Percentile>
    where
        Self::Value: Numeric,
    {
        aggregate(Aggregate::ApproxPercentile(p), self)
    }
    /// `sum(self)` (numbers), of Athena's type for it ([`Numeric::Sum`]): a bigint of
    /// integers, a `decimal(38,s)` of a `decimal(p,s)`.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql::expr::SqlExpr;
    /// # struct Ev;
    /// # impl Ev { const RETRIES: Col<Ev, Option<i32>> = Col::new("retries"); }
    /// let total: SqlExpr<Ev, i64> = Ev::RETRIES.sum(); // an int column's sum is a bigint
    /// let p95: SqlExpr<Ev, i64> = Ev::RETRIES.approx_percentile(0.95);
    /// # let _ = (total, p95);
    /// ```
    fn sum(self) -> SqlExpr<Self::Scope, <Self::Value as Numeric>::Sum>
    where
        Self::Value: Numeric,
    {
        aggregate(Aggregate::Sum, self)
    }
    /// `avg(self)` (numbers), of Athena's type for it ([`Numeric::Avg`]): a double of
    /// integers and doubles, a real of reals, and of a `decimal(p,s)` a `decimal(p,s)`
    /// rounded half up to `s` digits. For a decimal's exact mean as a double, average
    /// `col.cast::<f64>()`.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql::expr::SqlExpr;
    /// # use iceberg_sql::Decimal;
    /// # struct Ev;
    /// # impl Ev {
    /// #     const PRICE: Col<Ev, Option<Decimal>> = Col::new("price");
    /// #     const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
    /// # }
    /// let rounded: SqlExpr<Ev, Decimal> = Ev::PRICE.avg();
    /// let mean: SqlExpr<Ev, f64> = Ev::PRICE.cast::<f64>().avg();
    /// let ms: SqlExpr<Ev, f64> = Ev::LATENCY_MS.avg();
    /// assert_eq!(mean.to_sql(Dialect::Athena)?, "avg(CAST(price AS double))");
    /// # let _ = (rounded, ms);
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    fn avg(self) -> SqlExpr<Self::Scope, <Self::Value as Numeric>::Avg>
    where
        Self::Value: Numeric,
    {
        aggregate(Aggregate::Avg, self)
    }

    /// `self LIKE pattern` (strings), with Athena's meaning on every target: `%` matches
    /// any run of characters, `_` one character, every other character only itself,
    /// `\` included. Spark's LIKE reads `\` as an escape; for Spark each `\` of a
    /// pattern is doubled (in a literal's text, or by `replace(…)` around any other
    /// pattern), which Spark reads as one `\`. To match a literal `%` or `_`, use
    /// [`like_escape`](Self::like_escape).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const PATH: Col<Ev, String> = Col::new("path");
    /// # const PREFIX: Col<Ev, String> = Col::new("prefix");
    /// // Paths that start with `C:\`.
    /// let c_drive = PATH.like(r"C:\%");
    /// assert_eq!(c_drive.to_sql(Dialect::Athena)?, r"path LIKE 'C:\%'");
    /// assert_eq!(c_drive.to_sql(Dialect::Spark)?, r"path LIKE 'C:\\\\%'");
    /// assert_eq!(PATH.like(PREFIX).to_sql(Dialect::Spark)?,
    ///            r"path LIKE replace(prefix, '\\', '\\\\')");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    fn like<R: IntoOperand<Self::Scope, String>>(self, pattern: R) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = String>,
    {
        like(self, pattern, false, None)
    }
    /// `self NOT LIKE pattern` (strings; the pattern means what it means in
    /// [`like`](Self::like)).
    fn not_like<R: IntoOperand<Self::Scope, String>>(self, pattern: R) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = String>,
    {
        like(self, pattern, true, None)
    }
    /// `self LIKE pattern ESCAPE 'escape'` (strings), written alike for every target: in
    /// the pattern, `escape` before `%`, `_` or itself stands for that character. Before
    /// anything else, or at the end, it fails the query on every engine; a literal
    /// pattern like that is refused when the statement is built, and so is an escape
    /// character outside Unicode's Basic Multilingual Plane (the engines take one UTF-16
    /// unit).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const NOTE: Col<Ev, String> = Col::new("note");
    /// // Notes that start with `100%`.
    /// let full = NOTE.like_escape("100!%%", '!');
    /// assert_eq!(full.to_sql(Dialect::Athena)?, "note LIKE '100!%%' ESCAPE '!'");
    /// assert_eq!(full.to_sql(Dialect::Spark)?, "note LIKE '100!%%' ESCAPE '!'");
    /// assert!(NOTE.like_escape("50!", '!').to_sql(Dialect::Athena).is_err());
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    fn like_escape<R: IntoOperand<Self::Scope, String>>(
        self,
        pattern: R,
        escape: char,
    ) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = String>,
    {
        like(self, pattern, false, Some(escape))
    }
    /// `self NOT LIKE pattern ESCAPE 'escape'` (see [`like_escape`](Self::like_escape)).
    fn not_like_escape<R: IntoOperand<Self::Scope, String>>(
        self,
        pattern: R,
        escape: char,
    ) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = String>,
    {
        like(self, pattern, true, Some(escape))
    }

    /// `self AND rhs` (booleans).
    fn and<R: IntoOperand<Self::Scope, bool>>(self, rhs: R) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = bool>,
    {
        binary(self, BinaryOp::And, rhs)
    }
    /// `self OR rhs` (booleans).
    fn or<R: IntoOperand<Self::Scope, bool>>(self, rhs: R) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = bool>,
    {
        binary(self, BinaryOp::Or, rhs)
    }
    /// `NOT (self)` (booleans).
    fn not(self) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = bool>,
    {
        SqlExpr::from_expr(Expr::Not(Box::new(self.sql_expr().into_expr())))
    }

    /// `lower(self)`: the text in lowercase (`lower(string) → varchar`,
    /// <https://trino.io/docs/current/functions/string.html#lower>).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const TOOL: Col<Ev, String> = Col::new("tool");
    /// # const NOTE: Col<Ev, Option<String>> = Col::new("note");
    /// assert_eq!(TOOL.lower().eq("ask").to_sql(Dialect::Athena)?, "lower(tool) = 'ask'");
    /// assert_eq!(TOOL.trim().upper().concat("-").concat(NOTE).to_sql(Dialect::Athena)?,
    ///            "concat(upper(trim(tool)), '-', note)");
    /// assert_eq!(TOOL.substr(1, 3).length().gt(2).to_sql(Dialect::Athena)?,
    ///            "length(substr(tool, 1, 3)) > 2");
    /// assert_eq!(TOOL.replace("_", "-").regexp_like("^[a-z-]+$").to_sql(Dialect::Athena)?,
    ///            "regexp_like(replace(tool, '_', '-'), '^[a-z-]+$')");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    ///
    /// Only text has these functions:
    ///
    /// ```compile_fail
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
    /// let _ = LATENCY_MS.lower();
    /// ```
    fn lower(self) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
    {
        function(Function::Lower, vec![self.sql_expr().into_expr()])
    }
    /// `upper(self)` (`upper(string) → varchar`,
    /// <https://trino.io/docs/current/functions/string.html#upper>).
    fn upper(self) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
    {
        function(Function::Upper, vec![self.sql_expr().into_expr()])
    }
    /// `trim(self)`: without leading and trailing whitespace (`trim(string) → varchar`,
    /// <https://trino.io/docs/current/functions/string.html#trim>).
    fn trim(self) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
    {
        function(Function::Trim, vec![self.sql_expr().into_expr()])
    }
    /// `length(self)`: the length in characters (`length(string) → bigint`,
    /// <https://trino.io/docs/current/functions/string.html#length>).
    fn length(self) -> SqlExpr<Self::Scope, i64>
    where
        Self: ExpressionMethods<Value = String>,
    {
        function(Function::Length, vec![self.sql_expr().into_expr()])
    }
    /// `substr(self, start, length)`: `length` characters from position `start`
    /// (1-based; negative counts from the end) (`substr(string, start, length) →
    /// varchar`, <https://trino.io/docs/current/functions/string.html#substr>).
    fn substr(self, start: i64, length: i64) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
    {
        let n = |v: i64| Expr::literal(Value::Long(v), IcebergType::Long);
        function(
            Function::Substr,
            vec![self.sql_expr().into_expr(), n(start), n(length)],
        )
    }
    /// `concat(self, other)`; chained calls make one `concat(a, b, c)`. NULL if any
    /// argument is (`concat(string1, ..., stringN) → varchar`,
    /// <https://trino.io/docs/current/functions/string.html#concat>).
    fn concat<R: IntoOperand<Self::Scope, String>>(self, other: R) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
    {
        let mut first = self.sql_expr().into_expr();
        let mut args = match &mut first {
            Expr::Function {
                func: Function::Concat,
                args,
            } => std::mem::take(args),
            _ => vec![first],
        };
        args.push(other.into_operand());
        function(Function::Concat, args)
    }
    /// `replace(self, search, replacement)`: every `search` replaced
    /// (`replace(string, search, replace) → varchar`,
    /// <https://trino.io/docs/current/functions/string.html#replace>).
    fn replace<A, B>(self, search: A, replacement: B) -> SqlExpr<Self::Scope, String>
    where
        Self: ExpressionMethods<Value = String>,
        A: IntoOperand<Self::Scope, String>,
        B: IntoOperand<Self::Scope, String>,
    {
        function(
            Function::Replace,
            vec![
                self.sql_expr().into_expr(),
                search.into_operand(),
                replacement.into_operand(),
            ],
        )
    }
    /// `regexp_like(self, pattern)`: whether the Java regular expression `pattern`
    /// matches part of the text (`regexp_like(string, pattern) → boolean`,
    /// <https://trino.io/docs/current/functions/regexp.html#regexp_like>).
    fn regexp_like<R: IntoOperand<Self::Scope, String>>(self, pattern: R) -> Cond<Self::Scope>
    where
        Self: ExpressionMethods<Value = String>,
    {
        function(
            Function::RegexpLike,
            vec![self.sql_expr().into_expr(), pattern.into_operand()],
        )
    }

    /// `is_nan(self)`: whether the `real` or `double` value is NaN, NULL for NULL
    /// (`is_nan(x) → boolean`, <https://trino.io/docs/current/functions/math.html#is_nan>).
    /// A comparison with NaN matches no row in Trino (NaN equals no value), so this is
    /// how to find NaN. Spark's `isnan` is false for NULL; Spark gets
    /// `CASE WHEN x IS NULL THEN NULL ELSE isnan(x) END`, which keeps Trino's NULL.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const SCORE: Col<Ev, Option<f64>> = Col::new("score");
    /// assert_eq!(SCORE.is_nan().to_sql(Dialect::Athena)?, "is_nan(score)");
    /// assert_eq!(SCORE.is_nan().not().to_sql(Dialect::Spark)?,
    ///            "NOT CASE WHEN score IS NULL THEN NULL ELSE isnan(score) END");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    ///
    /// Only floating-point values have it:
    ///
    /// ```compile_fail
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
    /// let _ = LATENCY_MS.is_nan();
    /// ```
    fn is_nan(self) -> Cond<Self::Scope>
    where
        Self::Value: super::Floating,
    {
        function(Function::IsNan, vec![self.sql_expr().into_expr()])
    }

    /// `lag(self, offset)`: the value `offset` rows before in the window, NULL before
    /// its first row (`lag(x, offset) → [same as x]`,
    /// <https://trino.io/docs/current/functions/window.html#lag>). Give it its window
    /// with [`WindowFn::over`](super::WindowFn::over).
    fn lag(self, offset: i64) -> super::WindowFn<Self::Scope, Self::Value> {
        window_fn(Function::Lag, self.sql_expr().into_expr(), offset)
    }
    /// `lead(self, offset)`: the value `offset` rows after in the window
    /// (`lead(x, offset) → [same as x]`,
    /// <https://trino.io/docs/current/functions/window.html#lead>).
    fn lead(self, offset: i64) -> super::WindowFn<Self::Scope, Self::Value> {
        window_fn(Function::Lead, self.sql_expr().into_expr(), offset)
    }

    /// `date_trunc('unit', self)` (dates and timestamps).
    fn date_trunc(self, unit: TimeUnit) -> SqlExpr<Self::Scope, Self::Value>
    where
        Self::Value: Temporal,
    {
        SqlExpr::from_expr(Expr::DateTrunc {
            unit,
            expr: Box::new(self.sql_expr().into_expr()),
        })
    }
}

impl<S, V> ExpressionMethods for SqlExpr<S, V> {
    type Scope = S;
    type Value = V;

    fn sql_expr(self) -> SqlExpr<S, V> {
        self
    }
}

impl<T, V: ColumnValue> ExpressionMethods for Col<T, V> {
    type Scope = T;
    type Value = V::Base;

    fn sql_expr(self) -> SqlExpr<T, V::Base> {
        SqlExpr::from_expr(Expr::column(self.name()))
    }
}

fn binary<E: ExpressionMethods, R, U>(left: E, op: BinaryOp, right: R) -> SqlExpr<E::Scope, U>
where
    R: IntoOperand<E::Scope, E::Value>,
{
    SqlExpr::from_expr(Expr::binary(
        op,
        left.sql_expr().into_expr(),
        right.into_operand(),
    ))
}

fn between<E: ExpressionMethods, A, B>(e: E, low: A, high: B, negated: bool) -> Cond<E::Scope>
where
    A: IntoOperand<E::Scope, E::Value>,
    B: IntoOperand<E::Scope, E::Value>,
{
    SqlExpr::from_expr(Expr::Between {
        expr: Box::new(e.sql_expr().into_expr()),
        low: Box::new(low.into_operand()),
        high: Box::new(high.into_operand()),
        negated,
    })
}

fn in_list<E: ExpressionMethods, I>(e: E, items: I, negated: bool) -> Cond<E::Scope>
where
    I: IntoIterator,
    I::Item: IntoOperand<E::Scope, E::Value>,
{
    SqlExpr::from_expr(Expr::InList {
        expr: Box::new(e.sql_expr().into_expr()),
        list: items.into_iter().map(IntoOperand::into_operand).collect(),
        negated,
    })
}

fn like<E: ExpressionMethods, R: IntoOperand<E::Scope, String>>(
    e: E,
    pattern: R,
    negated: bool,
    escape: Option<char>,
) -> Cond<E::Scope> {
    SqlExpr::from_expr(Expr::Like {
        expr: Box::new(e.sql_expr().into_expr()),
        pattern: Box::new(pattern.into_operand()),
        negated,
        escape,
    })
}

fn window_fn<S, V>(func: Function, x: Expr, offset: i64) -> super::WindowFn<S, V> {
    super::WindowFn::new(Expr::Function {
        func,
        args: vec![x, Expr::literal(Value::Long(offset), IcebergType::Long)],
    })
}

fn function<S, U>(func: Function, args: Vec<Expr>) -> SqlExpr<S, U> {
    SqlExpr::from_expr(Expr::Function { func, args })
}

fn aggregate<E: ExpressionMethods, U>(func: Aggregate, e: E) -> SqlExpr<E::Scope, U> {
    SqlExpr::from_expr(Expr::Aggregate {
        func,
        arg: Some(Box::new(e.sql_expr().into_expr())),
        filter: None,
    })
}
