//! The typed layer: [`SqlExpr<S, V>`], operands, and the operations the compiler checks.
//!
//! `S` is the *scope* an expression may be used in: a table record type `T` for that
//! table's statements, or [`Source<T>`] / [`Matched<T>`] inside a MERGE. `V` is the Rust
//! type of the value (nullability erased: a `Col<T, Option<String>>` yields
//! `SqlExpr<T, String>`; SQL's three-valued logic handles NULL).

use std::marker::PhantomData;
use std::ops::{Add, Div, Mul, Neg, Not, Rem, Sub};

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use super::ast::{BinaryOp, Expr, TimeUnit};
use super::methods::ExpressionMethods;
use super::Col;
use crate::record::SqlType;
use crate::types::IcebergType;
use crate::value::{Decimal, Value};

/// Maps a column's Rust type to the type its expressions have: `Option<X>` and `X`
/// both map to `X`.
pub trait ColumnValue {
    /// The non-nullable value type.
    type Base: SqlType;
}

/// What [`Select::column`](crate::query::Select::column) projects: a column of any
/// [`ColumnValue`] type, and the `map` columns metadata rows decode into `BTreeMap`s
/// (e.g. `SnapshotRow::SUMMARY`), which are read as JSON text. Maps take part in no
/// typed expression (no filter, no ordering, no assignment).
pub trait Projectable {}

impl<V: ColumnValue> Projectable for V {}
impl<K, V> Projectable for std::collections::BTreeMap<K, V> {}
impl<K, V> Projectable for Option<std::collections::BTreeMap<K, V>> {}

/// Numeric value types: arithmetic (`+ - * / %`), `sum`, `avg`, `approx_percentile`.
///
/// The aggregates' value types are Athena's result types (Trino's aggregation functions
/// in `io.trino.operator.aggregation`; the engine model's `aggregate_type`, which a test
/// holds these to).
pub trait Numeric {
    /// The value type of `sum`: a bigint of integers (an `int` column's sum does not
    /// fit an `int`), a real of reals, a double of doubles, a `decimal(38,s)` of a
    /// `decimal(p,s)`.
    type Sum;
    /// The value type of `avg`: a double of integers and doubles, a real of reals, and
    /// of a `decimal(p,s)` a `decimal(p,s)` rounded half up to `s` digits
    /// (`DecimalAverageAggregation`: the average of 1 and 2 in a `decimal(10,0)` is 2).
    type Avg;
    /// The value type of `approx_percentile`: a bigint of integers, a real of reals, a
    /// double of doubles and of decimals.
    type Percentile;
}

/// Date and time value types: `date_trunc`, `± INTERVAL`.
pub trait Temporal {}

/// Floating-point value types (`real`, `double`): `is_nan`.
pub trait Floating {}
impl Floating for f32 {}
impl Floating for f64 {}

macro_rules! column_values {
    ($($t:ty),* $(,)?) => {$(
        impl ColumnValue for $t { type Base = $t; }
        impl ColumnValue for Option<$t> { type Base = $t; }
    )*};
}

column_values!(
    bool,
    i32,
    i64,
    f32,
    f64,
    String,
    NaiveDate,
    NaiveDateTime,
    DateTime<Utc>,
    Decimal
);

impl Numeric for i32 {
    type Sum = i64;
    type Avg = f64;
    type Percentile = i64;
}
impl Numeric for i64 {
    type Sum = i64;
    type Avg = f64;
    type Percentile = i64;
}
impl Numeric for f32 {
    type Sum = f32;
    type Avg = f32;
    type Percentile = f32;
}
impl Numeric for f64 {
    type Sum = f64;
    type Avg = f64;
    type Percentile = f64;
}
impl Numeric for Decimal {
    type Sum = Decimal;
    type Avg = Decimal;
    type Percentile = f64;
}
impl Temporal for NaiveDate {}
impl Temporal for NaiveDateTime {}
impl Temporal for DateTime<Utc> {}

/// MERGE scope of expressions that may read only the source row (`WHEN NOT MATCHED`
/// conditions and `INSERT` values). Built by [`source`](crate::dsl::source).
pub struct Source<T>(PhantomData<fn() -> T>);

/// MERGE scope of expressions that may read the target and the source row (`ON`,
/// `WHEN MATCHED` conditions and `UPDATE SET` values). Built by [`target`](crate::dsl::target); source
/// expressions widen into it.
pub struct Matched<T>(PhantomData<fn() -> T>);

/// A typed expression: usable where scope `S` is in force, with values of type `V`.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::expr::SqlExpr;
/// # struct Ev;
/// # const STATUS: Col<Ev, String> = Col::new("status");
/// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// let slow: SqlExpr<Ev, bool> = LATENCY_MS.gt(1000).and(STATUS.ne("error"));
/// assert_eq!(slow.to_sql(Dialect::Athena)?, "latency_ms > 1000 AND status <> 'error'");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub struct SqlExpr<S, V> {
    expr: Expr,
    _marker: PhantomData<fn() -> (S, V)>,
}

/// A boolean expression over scope `S` (a filter, a join or MERGE condition).
pub type Cond<S> = SqlExpr<S, bool>;

impl<S, V> Clone for SqlExpr<S, V> {
    fn clone(&self) -> Self {
        SqlExpr::from_expr(self.expr.clone())
    }
}

impl<S, V> std::fmt::Debug for SqlExpr<S, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.expr.fmt(f)
    }
}

/// An expression that reads no column (a function of literals, `current_timestamp`,
/// an aggregate without argument): usable in any scope.
pub struct Free<V> {
    expr: Expr,
    _marker: PhantomData<fn() -> V>,
}

impl<V> Clone for Free<V> {
    fn clone(&self) -> Self {
        Free::from_expr(self.expr.clone())
    }
}

impl<V> std::fmt::Debug for Free<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.expr.fmt(f)
    }
}

impl<V> Free<V> {
    pub(crate) fn from_expr(expr: Expr) -> Self {
        Free {
            expr,
            _marker: PhantomData,
        }
    }

    /// The untyped tree.
    pub fn into_expr(self) -> Expr {
        self.expr
    }

    /// `CAST(self AS U)`.
    pub fn cast<U: ColumnValue>(self) -> Free<U::Base> {
        Free::from_expr(Expr::Cast {
            expr: Box::new(self.expr),
            ty: U::Base::iceberg_type(),
        })
    }
}

impl Free<NaiveDateTime> {
    /// The same zone-less clock value (`current_timestamp() - days(7)`) where a
    /// `DateTime<Utc>` is expected. Such a column holds the UTC wall clock and Athena
    /// reads zone-less values in UTC (its session zone), so both sides mean the same
    /// instant; written as it is (stored into the column, the target's type rules
    /// write the conversion).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # use iceberg_sql::dsl::{current_timestamp, days};
    /// # use chrono::{DateTime, Utc};
    /// # struct Ev;
    /// # impl Ev { const SEEN: Col<Ev, DateTime<Utc>> = Col::new("seen"); }
    /// let f = Ev::SEEN.lt((current_timestamp() - days(7)).at_utc());
    /// assert_eq!(f.to_sql(Dialect::Athena)?, "seen < current_timestamp - INTERVAL '7' DAY");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn at_utc(self) -> Free<DateTime<Utc>> {
        Free::from_expr(self.expr)
    }
}

/// Something that can stand where scope `S` expects a value of type `V`: a column of
/// that table, a typed expression, a literal (`"x"`, `320`, a `NaiveDateTime`), a
/// [`Free`] expression or a [`param`](crate::dsl::param).
///
/// A nullable column (`Col<T, Option<X>>`) takes the bare `X`: `.set(T::PAYLOAD, "x")`,
/// not `Some("x")`; NULL is `.set_null(T::PAYLOAD)` in an UPDATE and
/// `T::PAYLOAD.is_null()` in a filter.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value of type `{V}` here",
    label = "expected a `{V}`: a literal, or a column or expression of that type in this statement",
    note = "a nullable column (`Option<{V}>`) takes the bare value: `.set(col, x)`, not `.set(col, Some(x))`",
    note = "NULL is `.set_null(col)` in an UPDATE, `col.is_null()` in a filter"
)]
pub trait IntoOperand<S, V> {
    /// Lowers to the untyped tree.
    fn into_operand(self) -> Expr;
}

/// A Rust value that is a literal of SQL type `B`.
pub trait Literal<B> {
    /// The value and its exact Iceberg type.
    fn into_literal(self) -> (Value, IcebergType);
}

macro_rules! literals {
    ($($t:ty => $b:ty),* $(,)?) => {$(
        impl Literal<$b> for $t {
            fn into_literal(self) -> (Value, IcebergType) {
                (Value::from(self), <$b as SqlType>::iceberg_type())
            }
        }
    )*};
}

literals! {
    bool => bool, i32 => i32, i64 => i64, f32 => f32, f64 => f64,
    String => String, &str => String, NaiveDate => NaiveDate,
    NaiveDateTime => NaiveDateTime, DateTime<Utc> => DateTime<Utc>,
}

impl Literal<String> for &String {
    fn into_literal(self) -> (Value, IcebergType) {
        (Value::String(self.clone()), IcebergType::String)
    }
}

impl Literal<Decimal> for Decimal {
    /// A decimal literal has its own precision and scale (`DECIMAL '12.50'`).
    fn into_literal(self) -> (Value, IcebergType) {
        let p = self.precision().clamp(1, 38) as u8;
        (
            Value::Decimal(self),
            IcebergType::decimal(p, self.scale().min(p)),
        )
    }
}

macro_rules! literal_operands {
    ($($t:ty => $b:ty),* $(,)?) => {$(
        impl<S> IntoOperand<S, $b> for $t {
            fn into_operand(self) -> Expr {
                let (value, ty) = Literal::<$b>::into_literal(self);
                Expr::Literal { value, ty }
            }
        }
    )*};
}

literal_operands! {
    bool => bool, i32 => i32, i64 => i64, f32 => f32, f64 => f64,
    String => String, &str => String, &String => String, NaiveDate => NaiveDate,
    NaiveDateTime => NaiveDateTime, DateTime<Utc> => DateTime<Utc>, Decimal => Decimal,
}

impl<S, V> IntoOperand<S, V> for SqlExpr<S, V> {
    fn into_operand(self) -> Expr {
        self.expr
    }
}

/// Source-only expressions widen into the matched scope.
impl<T, V> IntoOperand<Matched<T>, V> for SqlExpr<Source<T>, V> {
    fn into_operand(self) -> Expr {
        self.expr
    }
}

impl<S, V> IntoOperand<S, V> for Free<V> {
    fn into_operand(self) -> Expr {
        self.expr
    }
}

impl<T, V: ColumnValue> IntoOperand<T, V::Base> for Col<T, V> {
    fn into_operand(self) -> Expr {
        Expr::column(self.name())
    }
}

/// A `?` placeholder bound to a value; see [`param`](crate::dsl::param).
pub struct Param<B> {
    value: Value,
    ty: IcebergType,
    _marker: PhantomData<fn() -> B>,
}

impl<B> Param<B> {
    pub(crate) fn new(value: Value, ty: IcebergType) -> Self {
        Param {
            value,
            ty,
            _marker: PhantomData,
        }
    }
}

impl<S, B> IntoOperand<S, B> for Param<B> {
    fn into_operand(self) -> Expr {
        Expr::Param {
            value: self.value,
            ty: self.ty,
        }
    }
}

impl<S, V> SqlExpr<S, V> {
    /// Wraps an untyped tree; the caller vouches for its type.
    pub(crate) fn from_expr(expr: Expr) -> Self {
        SqlExpr {
            expr,
            _marker: PhantomData,
        }
    }

    /// The untyped tree.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// The untyped tree, consuming the expression.
    pub fn into_expr(self) -> Expr {
        self.expr
    }

    /// The expression alone as SQL text in `dialect` (DML grammar), for docs and
    /// debugging. Placeholders are rendered as `?`. Without its table the expression is
    /// untyped, so the forms a statement's Spark text takes to keep Athena's meaning
    /// (`div(a, b)` for an integer `a / b`, …) appear only in built statements.
    pub fn to_sql(&self, dialect: crate::Dialect) -> crate::Result<String> {
        let mut w = crate::render::SqlWriter::new(crate::StatementKind::Select, dialect);
        self.expr.render(&mut w)?;
        Ok(w.as_str().to_string())
    }

    /// Adds `FILTER (WHERE cond)` to an aggregate (`count(*) FILTER (WHERE ...)`).
    /// On a non-aggregate expression this does nothing but return `self`.
    pub fn filter<C: IntoOperand<S, bool>>(self, cond: C) -> SqlExpr<S, V> {
        let mut expr = self.expr;
        if let Expr::Aggregate { filter, .. } = &mut expr {
            *filter = Some(Box::new(cond.into_operand()));
        }
        SqlExpr::from_expr(expr)
    }
}

impl<S> Not for SqlExpr<S, bool> {
    type Output = Cond<S>;
    fn not(self) -> Cond<S> {
        ExpressionMethods::not(self)
    }
}

macro_rules! arith_rhs {
    ($lhs:ty, $s:ident, $x:ty, $out:ty, $lower:expr) => {
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, $x);
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, SqlExpr<$s, $x>);
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, Col<$s, $x>);
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, Col<$s, Option<$x>>);
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, Free<$x>);
        arith_rhs!(@ops $lhs, $s, $x, $out, $lower, Param<$x>);
    };
    (@ops $lhs:ty, $s:ident, $x:ty, $out:ty, $lower:expr, $rhs:ty) => {
        arith_rhs!(@op Add add Plus, $lhs, $s, $x, $out, $lower, $rhs);
        arith_rhs!(@op Sub sub Minus, $lhs, $s, $x, $out, $lower, $rhs);
        arith_rhs!(@op Mul mul Multiply, $lhs, $s, $x, $out, $lower, $rhs);
        arith_rhs!(@op Div div Divide, $lhs, $s, $x, $out, $lower, $rhs);
        arith_rhs!(@op Rem rem Modulo, $lhs, $s, $x, $out, $lower, $rhs);
    };
    (@op $tr:ident $m:ident $op:ident, $lhs:ty, $s:ident, $x:ty, $out:ty, $lower:expr, $rhs:ty) => {
        impl<$s> $tr<$rhs> for $lhs {
            type Output = $out;
            fn $m(self, rhs: $rhs) -> $out {
                let lower: fn(Self) -> Expr = $lower;
                SqlExpr::from_expr(Expr::binary(BinaryOp::$op, lower(self), IntoOperand::<$s, $x>::into_operand(rhs)))
            }
        }
    };
}

macro_rules! arith {
    ($($x:ty),*) => {$(
        arith_rhs!(SqlExpr<S, $x>, S, $x, SqlExpr<S, $x>, |e: SqlExpr<S, $x>| e.expr);
        arith_rhs!(Col<S, $x>, S, $x, SqlExpr<S, $x>, |c: Col<S, $x>| Expr::column(c.name()));
        arith_rhs!(Col<S, Option<$x>>, S, $x, SqlExpr<S, $x>, |c: Col<S, Option<$x>>| Expr::column(c.name()));
    )*};
}

arith!(i32, i64, f32, f64, Decimal);

macro_rules! widening_arith {
    ($($x:ty),*) => {$(
        widening_arith!(@op $x, Add add Plus);
        widening_arith!(@op $x, Sub sub Minus);
        widening_arith!(@op $x, Mul mul Multiply);
        widening_arith!(@op $x, Div div Divide);
        widening_arith!(@op $x, Rem rem Modulo);
    )*};
    (@op $x:ty, $tr:ident $m:ident $op:ident) => {
        /// `target(..) op source(..)` inside a MERGE.
        impl<T> $tr<SqlExpr<Source<T>, $x>> for SqlExpr<Matched<T>, $x> {
            type Output = SqlExpr<Matched<T>, $x>;
            fn $m(self, rhs: SqlExpr<Source<T>, $x>) -> Self::Output {
                SqlExpr::from_expr(Expr::binary(BinaryOp::$op, self.expr, rhs.expr))
            }
        }
    };
}

widening_arith!(i32, i64, f32, f64, Decimal);

impl<S> SqlExpr<S, bool> {
    /// `c1 OR c2 OR …` over any number of conditions; `None` when there are none
    /// (whether no condition means "no row" or "skip the statement" is the caller's
    /// decision, never a silent `false`).
    ///
    /// The conditions are combined as a balanced tree: `n` of them nest about log2(n)
    /// levels, where a chain of `.or(…)` calls nests one level per call and is refused
    /// past [`MAX_EXPR_DEPTH`](crate::expr::MAX_EXPR_DEPTH). OR is associative, so the
    /// grouping does not change the result.
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const USER_ID: Col<Ev, String> = Col::new("user_id");
    /// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
    /// let slow_for = |u: &str| USER_ID.eq(u).and(LATENCY_MS.gt(1000));
    /// let any = Cond::any_of(["a", "b", "c"].map(slow_for)).expect("three conditions");
    /// assert_eq!(
    ///     any.to_sql(Dialect::Athena)?,
    ///     "user_id = 'a' AND latency_ms > 1000 OR user_id = 'b' AND latency_ms > 1000 \
    ///      OR user_id = 'c' AND latency_ms > 1000"
    /// );
    /// // Ten thousand conditions nest 15 levels.
    /// let many = Cond::any_of((0..10_000).map(|i| LATENCY_MS.eq(i))).expect("some");
    /// assert_eq!(many.expr().depth(), 16);
    /// assert!(Cond::<Ev>::any_of([]).is_none());
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn any_of(conditions: impl IntoIterator<Item = Cond<S>>) -> Option<Cond<S>> {
        balanced(BinaryOp::Or, conditions)
    }

    /// `c1 AND c2 AND …` over any number of conditions; `None` when there are none
    /// (never a silent `true`: a DELETE or UPDATE filtered by it would change every
    /// row). Combined as a balanced tree, like [`any_of`](Self::any_of).
    ///
    /// ```
    /// # use iceberg_sql::prelude::*;
    /// # struct Ev;
    /// # const STATUS: Col<Ev, String> = Col::new("status");
    /// let all = Cond::all_of(["error", "timeout"].map(|s| STATUS.ne(s))).expect("two");
    /// assert_eq!(all.to_sql(Dialect::Athena)?, "status <> 'error' AND status <> 'timeout'");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn all_of(conditions: impl IntoIterator<Item = Cond<S>>) -> Option<Cond<S>> {
        balanced(BinaryOp::And, conditions)
    }
}

/// `op` over `conditions`, paired level by level (depth about log2(n), no recursion).
fn balanced<S>(op: BinaryOp, conditions: impl IntoIterator<Item = Cond<S>>) -> Option<Cond<S>> {
    let mut level: Vec<Expr> = conditions.into_iter().map(SqlExpr::into_expr).collect();
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        let mut items = level.into_iter();
        while let Some(left) = items.next() {
            next.push(match items.next() {
                Some(right) => Expr::binary(op, left, right),
                None => left,
            });
        }
        level = next;
    }
    level.pop().map(SqlExpr::from_expr)
}

impl<S, V: Numeric> Neg for SqlExpr<S, V> {
    type Output = SqlExpr<S, V>;
    fn neg(self) -> SqlExpr<S, V> {
        SqlExpr::from_expr(Expr::Negate(Box::new(self.expr)))
    }
}

/// An interval for date/time arithmetic: `INTERVAL '7' DAY`. Build with [`days`](crate::dsl::days),
/// [`hours`](crate::dsl::hours), ... or [`Interval::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interval {
    amount: u32,
    unit: TimeUnit,
}

impl Interval {
    /// `INTERVAL 'amount' unit` (unit: year, month, day, hour, minute or second;
    /// quarter and week are refused when rendered).
    pub fn new(amount: u32, unit: TimeUnit) -> Self {
        Interval { amount, unit }
    }

    fn expr(self) -> Expr {
        Expr::Interval {
            amount: self.amount,
            unit: self.unit,
        }
    }
}

fn interval_op(left: Expr, op: BinaryOp, i: Interval) -> Expr {
    Expr::binary(op, left, i.expr())
}

macro_rules! interval_arith {
    ($($tr:ident $m:ident $op:ident),*) => {$(
        impl<S, V: Temporal> $tr<Interval> for SqlExpr<S, V> {
            type Output = SqlExpr<S, V>;
            fn $m(self, i: Interval) -> SqlExpr<S, V> {
                SqlExpr::from_expr(interval_op(self.expr, BinaryOp::$op, i))
            }
        }
        impl<V: Temporal> $tr<Interval> for Free<V> {
            type Output = Free<V>;
            fn $m(self, i: Interval) -> Free<V> {
                Free::from_expr(interval_op(self.expr, BinaryOp::$op, i))
            }
        }
        impl<T, V> $tr<Interval> for Col<T, V>
        where
            V: ColumnValue,
            V::Base: Temporal,
        {
            type Output = SqlExpr<T, V::Base>;
            fn $m(self, i: Interval) -> SqlExpr<T, V::Base> {
                SqlExpr::from_expr(interval_op(Expr::column(self.name()), BinaryOp::$op, i))
            }
        }
        impl<L: Literal<NaiveDateTime>> $tr<Interval> for Lit<L> {
            type Output = Free<NaiveDateTime>;
            fn $m(self, i: Interval) -> Free<NaiveDateTime> {
                let (value, ty) = self.0.into_literal();
                Free::from_expr(interval_op(Expr::Literal { value, ty }, BinaryOp::$op, i))
            }
        }
    )*};
}

/// A literal timestamp in an arithmetic position: `lit(ts) + days(1)` is
/// `TIMESTAMP '...' + INTERVAL '1' DAY`.
pub struct Lit<L>(L);

impl<L> Lit<L> {
    pub(crate) fn new(value: L) -> Self {
        Lit(value)
    }
}

interval_arith!(Add add Plus, Sub sub Minus);

/// A `CASE WHEN ... THEN ... [ELSE ...] END` under construction; see [`case_when`](crate::dsl::case_when).
pub struct Case<S, V> {
    branches: Vec<(Expr, Expr)>,
    _marker: PhantomData<fn() -> (S, V)>,
}

impl<S, V> Case<S, V> {
    pub(crate) fn new(cond: Expr, then: Expr) -> Self {
        Case {
            branches: vec![(cond, then)],
            _marker: PhantomData,
        }
    }
}

impl<S, V> Case<S, V> {
    /// Adds `WHEN cond THEN value`.
    pub fn when<C: IntoOperand<S, bool>, R: IntoOperand<S, V>>(mut self, cond: C, then: R) -> Self {
        self.branches
            .push((cond.into_operand(), then.into_operand()));
        self
    }

    /// Ends with `ELSE value END`.
    pub fn otherwise<R: IntoOperand<S, V>>(self, value: R) -> SqlExpr<S, V> {
        SqlExpr::from_expr(Expr::Case {
            branches: self.branches,
            otherwise: Some(Box::new(value.into_operand())),
        })
    }

    /// Ends without `ELSE` (NULL when no branch matches).
    pub fn end(self) -> SqlExpr<S, V> {
        SqlExpr::from_expr(Expr::Case {
            branches: self.branches,
            otherwise: None,
        })
    }
}
