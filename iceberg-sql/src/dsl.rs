//! The SQL functions of the expression DSL: time intervals, `current_timestamp`,
//! `count(*)`, `CASE`, `?` parameters and the MERGE scopes (`source(..)`, `target(..)`),
//! in the spirit of diesel's `dsl` module. Import them with `use iceberg_sql::dsl::*;`
//! beside the prelude's types and traits.
//!
//! ```
//! use iceberg_sql::prelude::*;
//! use iceberg_sql::dsl::{current_timestamp, days};
//! # struct McpEvent;
//! # impl McpEvent {
//! #     const USER_ID: Col<McpEvent, String> = Col::new("user_id");
//! #     const EVENT_TS: Col<McpEvent, chrono::NaiveDateTime> = Col::new("event_ts");
//! #     const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms");
//! # }
//! let f = McpEvent::USER_ID.eq("user-123")
//!     .and(McpEvent::EVENT_TS.lt(current_timestamp() - days(7)))
//!     .and((McpEvent::LATENCY_MS * 2).between(100, 500));
//! assert_eq!(
//!     f.to_sql(Dialect::Athena)?,
//!     "user_id = 'user-123' AND event_ts < current_timestamp - INTERVAL '7' DAY \
//!      AND latency_ms * 2 BETWEEN 100 AND 500"
//! );
//! # Ok::<(), iceberg_sql::Error>(())
//! ```

use chrono::{NaiveDate, NaiveDateTime};

use crate::expr::{
    Aggregate, Case, Col, ColumnValue, Expr, Free, Interval, IntoOperand, Lit, Literal, Matched,
    Param, Scope, Source, SqlExpr, TimeUnit,
};
use crate::expr::{Function, WindowFn};

/// A `?` placeholder whose `ExecutionParameters` entry is `value` as SQL literal text
/// (`'O''Reilly'`, `TIMESTAMP '...'`). Athena documents parameters only in the WHERE
/// clause of SELECT, INSERT INTO ... SELECT, CTAS and UNLOAD; other statements refuse
/// them with [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported).
pub fn param<B, L: Literal<B>>(value: L) -> Param<B> {
    let (value, ty) = value.into_literal();
    Param::new(value, ty)
}

/// `INTERVAL 'n' YEAR`
pub fn years(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Year)
}

/// `INTERVAL 'n' MONTH`
pub fn months(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Month)
}

/// `INTERVAL 'n' DAY`
pub fn days(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Day)
}

/// `INTERVAL 'n' HOUR`
pub fn hours(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Hour)
}

/// `INTERVAL 'n' MINUTE`
pub fn minutes(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Minute)
}

/// `INTERVAL 'n' SECOND`
pub fn seconds(n: u32) -> Interval {
    Interval::new(n, TimeUnit::Second)
}

/// Wraps a timestamp literal for interval arithmetic (see [`Lit`]).
pub fn lit<L: Literal<NaiveDateTime>>(value: L) -> Lit<L> {
    Lit::new(value)
}

/// `current_timestamp`: now, compared with zone-less timestamp columns in the
/// session zone (UTC on Athena).
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::{current_timestamp, days};
/// # struct Ev;
/// # const EVENT_TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
/// let recent = EVENT_TS.ge(current_timestamp() - days(7));
/// assert_eq!(recent.to_sql(Dialect::Athena)?, "event_ts >= current_timestamp - INTERVAL '7' DAY");
/// assert_eq!(recent.to_sql(Dialect::Spark)?, "event_ts >= current_timestamp() - INTERVAL '7' DAY");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn current_timestamp() -> Free<NaiveDateTime> {
    Free::from_expr(Expr::CurrentTimestamp)
}

/// An expression the DSL lacks, as SQL text of the type `T` declares: written as it
/// is, in parentheses where it is an operand of an operator that binds tighter. It is
/// an operand of any expression of the DSL (`col.gt(raw::<i64>("…"))`), a projection,
/// a filter (`raw::<bool>`), a grouping or sort key.
///
/// What is checked, when the statement is built:
/// * our parser reads the text as exactly one expression (in Trino's grammar, and
///   again in the target's where that is another): no second statement, no clause
///   after it;
/// * it holds no comment, no `;`, no `?` placeholder and no subquery;
/// * every name it reads as a column is a column of the statement's relations
///   (unqualified; unquoted names folded to lower case), and on Athena resolves there;
/// * a call of one of Trino's aggregate functions (or one with `FILTER`) makes the
///   query aggregate, and the columns it reads outside aggregates must be grouped;
///   one with `OVER (…)` counts as a window function (refused in WHERE, GROUP BY and
///   HAVING).
///
/// What is not checked: the text's own type (the type model takes `T` on trust: a
/// function's argument and result types, its existence, are the engine's to check),
/// and whether an aggregate in the text nests another.
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::dsl::raw;
/// # #[derive(IcebergTable)]
/// # #[iceberg(database = "db", name = "t", location = "s3://my-bucket/t/")]
/// # struct T { tool: String, latency_ms: i64 }
/// let q = T::select()
///     .column(T::TOOL)
///     .expr_as(raw::<f64>("stddev_samp(latency_ms)"), "sd")
///     .expr_as(raw::<i64>("bitwise_and(max(latency_ms), 255)"), "low_bits")
///     .group_by(T::TOOL)
///     .filter(raw::<bool>("strpos(tool, 'ask') > 0"))
///     .filter(T::LATENCY_MS.gt(raw::<i64>("abs(-5)")));
/// assert_eq!(q.build()?.sql(),
///     "SELECT tool, stddev_samp(latency_ms) AS sd, bitwise_and(max(latency_ms), 255) AS low_bits \
///      FROM db.t WHERE (strpos(tool, 'ask') > 0) AND latency_ms > abs(-5) GROUP BY tool");
/// // A column the table lacks, a second statement, a comment: refused.
/// let bad = |text: &str| T::select().expr_as(raw::<i64>(text), "x").build().unwrap_err();
/// assert!(bad("length(tol)").message().contains("no column `tol`"));
/// assert!(bad("1; DROP TABLE db.t").message().contains("`;`"));
/// assert!(bad("1 -- comment").message().contains("comment"));
/// assert!(bad("1) OR (1 = 1").message().contains("is not one expression"));
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn raw<T: ColumnValue>(sql: &str) -> Free<T::Base> {
    Free::from_expr(Expr::Raw(Box::new(crate::expr::RawExpr::read(
        sql,
        <T::Base as crate::record::SqlType>::iceberg_type(),
    ))))
}

/// `current_date`.
pub fn current_date() -> Free<NaiveDate> {
    Free::from_expr(Expr::CurrentDate)
}

/// `count(*)`; add a filter with [`SqlExpr::filter`].
pub fn count_all<S>() -> SqlExpr<S, i64> {
    SqlExpr::from_expr(Expr::Aggregate {
        func: Aggregate::CountAll,
        arg: None,
        filter: None,
    })
}

/// Starts `CASE WHEN cond THEN value`.
///
/// ```
/// # use iceberg_sql::prelude::*;
/// # use iceberg_sql::dsl::case_when;
/// # struct Ev;
/// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// let bucket = case_when(LATENCY_MS.lt(100), "fast").when(LATENCY_MS.lt(1000), "ok").otherwise("slow");
/// assert_eq!(bucket.to_sql(Dialect::Athena)?,
///     "CASE WHEN latency_ms < 100 THEN 'fast' WHEN latency_ms < 1000 THEN 'ok' ELSE 'slow' END");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
pub fn case_when<S, V, C: IntoOperand<S, bool>, R: IntoOperand<S, V>>(
    cond: C,
    then: R,
) -> Case<S, V> {
    Case::new(cond.into_operand(), then.into_operand())
}

/// Refers to a column of the MERGE **source** row: `source.status`.
pub fn source<T, V: ColumnValue>(col: Col<T, V>) -> SqlExpr<Source<T>, V::Base> {
    SqlExpr::from_expr(Expr::Column {
        scope: Scope::Source,
        name: col.name(),
    })
}

/// Refers to a column of the MERGE **target** row: `target.latency_ms`. Only usable in
/// `WHEN MATCHED` conditions and `UPDATE SET` values (the [`Matched`] scope).
pub fn target<T, V: ColumnValue>(col: Col<T, V>) -> SqlExpr<Matched<T>, V::Base> {
    SqlExpr::from_expr(Expr::Column {
        scope: Scope::Target,
        name: col.name(),
    })
}

/// `row_number()`: the row's number in its window, from 1
/// (<https://trino.io/docs/current/functions/window.html#row_number>); give it its
/// window with [`WindowFn::over`] ([`crate::expr::Window`]).
pub fn row_number<S>() -> WindowFn<S, i64> {
    WindowFn::of(Function::RowNumber)
}

/// `rank()`: the row's rank in its window, with gaps after ties
/// (<https://trino.io/docs/current/functions/window.html#rank>).
pub fn rank<S>() -> WindowFn<S, i64> {
    WindowFn::of(Function::Rank)
}

/// `dense_rank()`: the row's rank in its window, without gaps
/// (<https://trino.io/docs/current/functions/window.html#dense_rank>).
pub fn dense_rank<S>() -> WindowFn<S, i64> {
    WindowFn::of(Function::DenseRank)
}
