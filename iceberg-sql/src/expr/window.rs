//! Window functions: `func OVER (PARTITION BY … ORDER BY …)`
//! (<https://trino.io/docs/current/functions/window.html>).

use std::marker::PhantomData;

use super::ast::{Expr, Frame, FrameBound, FrameUnits, Function};
use super::typed::{IntoOperand, SqlExpr};

/// A window: its `PARTITION BY` and `ORDER BY` keys. NULLs sort last in both
/// directions on every target (Trino's default; Spark gets `NULLS LAST` written).
///
/// ```
/// use iceberg_sql::prelude::*;
/// use iceberg_sql::dsl::row_number;
/// use iceberg_sql::expr::Window;
/// # struct Ev;
/// # const USER: Col<Ev, String> = Col::new("user_id");
/// # const TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
/// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
/// let latest_first = Window::new().partition_by(USER).order_by_desc(TS);
/// assert_eq!(row_number().over(latest_first.clone()).to_sql(Dialect::Athena)?,
///            "row_number() OVER (PARTITION BY user_id ORDER BY event_ts DESC)");
/// assert_eq!(LATENCY_MS.lag(1).over(Window::new().order_by(TS)).to_sql(Dialect::Spark)?,
///            "lag(latency_ms, 1) OVER (ORDER BY event_ts ASC NULLS LAST)");
/// assert_eq!(LATENCY_MS.sum().over(latest_first).to_sql(Dialect::Athena)?,
///            "sum(latency_ms) OVER (PARTITION BY user_id ORDER BY event_ts DESC)");
/// # Ok::<(), iceberg_sql::Error>(())
/// ```
#[must_use]
pub struct Window<S> {
    partition_by: Vec<Expr>,
    order_by: Vec<(Expr, bool)>,
    frame: Option<Frame>,
    _scope: PhantomData<fn() -> S>,
}

impl<S> Clone for Window<S> {
    fn clone(&self) -> Self {
        Window {
            partition_by: self.partition_by.clone(),
            order_by: self.order_by.clone(),
            frame: self.frame,
            _scope: PhantomData,
        }
    }
}

impl<S> std::fmt::Debug for Window<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Window")
            .field("partition_by", &self.partition_by)
            .field("order_by", &self.order_by)
            .field("frame", &self.frame)
            .finish()
    }
}

impl<S> Default for Window<S> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S> Window<S> {
    /// The whole result as one window, in no order: `OVER ()`.
    pub fn new() -> Self {
        Window {
            partition_by: Vec::new(),
            order_by: Vec::new(),
            frame: None,
            _scope: PhantomData,
        }
    }

    /// Adds a `PARTITION BY` key.
    pub fn partition_by<V, E: IntoOperand<S, V>>(mut self, key: E) -> Self {
        self.partition_by.push(key.into_operand());
        self
    }

    /// Adds an ascending `ORDER BY` key.
    pub fn order_by<V, E: IntoOperand<S, V>>(mut self, key: E) -> Self {
        self.order_by.push((key.into_operand(), false));
        self
    }

    /// Adds a descending `ORDER BY` key.
    pub fn order_by_desc<V, E: IntoOperand<S, V>>(mut self, key: E) -> Self {
        self.order_by.push((key.into_operand(), true));
        self
    }

    /// The frame `ROWS BETWEEN start AND end`: rows counted from the current one, in
    /// the window's order (a running total: `UnboundedPreceding` to `CurrentRow`). For
    /// an aggregate over the window; checked when the statement is built (Trino's
    /// rules: no start at UNBOUNDED FOLLOWING, no end before the start).
    ///
    /// ```
    /// use iceberg_sql::prelude::*;
    /// use iceberg_sql::expr::{FrameBound, Window};
    /// # struct Ev;
    /// # const TS: Col<Ev, chrono::NaiveDateTime> = Col::new("event_ts");
    /// # const LATENCY_MS: Col<Ev, i64> = Col::new("latency_ms");
    /// let last_3 = Window::new().order_by(TS)
    ///     .rows_between(FrameBound::Preceding(2), FrameBound::CurrentRow);
    /// assert_eq!(LATENCY_MS.avg().over(last_3).to_sql(Dialect::Athena)?,
    ///     "avg(latency_ms) OVER (ORDER BY event_ts ASC ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)");
    /// let within_100 = Window::new().order_by(LATENCY_MS)
    ///     .range_between(FrameBound::Preceding(100), FrameBound::Following(100));
    /// assert_eq!(LATENCY_MS.count().over(within_100).to_sql(Dialect::Spark)?,
    ///     "count(latency_ms) OVER (ORDER BY latency_ms ASC NULLS LAST \
    ///      RANGE BETWEEN 100 PRECEDING AND 100 FOLLOWING)");
    /// let backwards = Window::new().order_by(TS)
    ///     .rows_between(FrameBound::CurrentRow, FrameBound::Preceding(1));
    /// assert_eq!(LATENCY_MS.sum().over(backwards).to_sql(Dialect::Athena).unwrap_err().message(),
    ///     "Window frame starting from CURRENT ROW cannot end with PRECEDING");
    /// # Ok::<(), iceberg_sql::Error>(())
    /// ```
    pub fn rows_between(mut self, start: FrameBound, end: FrameBound) -> Self {
        self.frame = Some(Frame {
            units: FrameUnits::Rows,
            start,
            end,
        });
        self
    }

    /// The frame `RANGE BETWEEN start AND end`: the rows whose sort key is within the
    /// offsets of the current row's (peers included). With an offset the window must
    /// have exactly one sort key, and on Athena a numeric one (Trino: "requires that sort
    /// item type be numeric, datetime or interval"; a date or time key takes an interval
    /// offset, which this frame does not write).
    pub fn range_between(mut self, start: FrameBound, end: FrameBound) -> Self {
        self.frame = Some(Frame {
            units: FrameUnits::Range,
            start,
            end,
        });
        self
    }

    fn apply(self, func: Expr) -> Expr {
        Expr::Window {
            func: Box::new(func),
            partition_by: self.partition_by,
            order_by: self.order_by,
            frame: self.frame,
        }
    }
}

/// A window function (`row_number()`, `rank()`, `dense_rank()`, `lag`, `lead`): usable
/// only once given its window with [`WindowFn::over`].
#[must_use]
pub struct WindowFn<S, V> {
    expr: Expr,
    _marker: PhantomData<fn() -> (S, V)>,
}

impl<S, V> WindowFn<S, V> {
    pub(crate) fn new(expr: Expr) -> Self {
        WindowFn {
            expr,
            _marker: PhantomData,
        }
    }

    pub(crate) fn of(func: Function) -> Self {
        Self::new(Expr::Function {
            func,
            args: Vec::new(),
        })
    }

    /// `self OVER (window)`.
    pub fn over(self, window: Window<S>) -> SqlExpr<S, V> {
        SqlExpr::from_expr(window.apply(self.expr))
    }
}

impl<S, V> SqlExpr<S, V> {
    /// `self OVER (window)`, for an aggregate (`sum(x) OVER (PARTITION BY k)`); on any
    /// other expression the statement is refused when built.
    pub fn over(self, window: Window<S>) -> SqlExpr<S, V> {
        SqlExpr::from_expr(window.apply(self.into_expr()))
    }
}
