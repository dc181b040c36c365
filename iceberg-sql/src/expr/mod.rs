//! Typed column handles and the expression DSL over them.
//!
//! A [`Col<T, V>`] is one column of table `T` holding Rust values of type `V`. The
//! methods of [`ExpressionMethods`] (on columns and [`SqlExpr`]s alike) build typed
//! expressions whose operands the compiler checks: a `Col<McpEvent, i64>` compares with `i64` values and other `i64`
//! expressions of `McpEvent`, nothing else. Every typed expression lowers to the small
//! untyped [`Expr`] tree, which renders through a [`SqlWriter`](crate::render::SqlWriter)
//! (quoting and literal escaping come from the statement's grammar).
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
//!
//! Operand types are checked by the compiler, so the common type mismatches Athena
//! refuses at run time do not compile: text into a timestamp column (Athena: "UPDATE
//! table column types don't match SET expressions: Table: [timestamp(6)], Expressions:
//! [varchar(19)]"), an aggregate of text where a number is expected, a timestamp
//! compared with a date column's text.
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # struct Ev;
//! # impl Ev { const TS: Col<Ev, chrono::NaiveDateTime> = Col::new("ts"); }
//! # impl IcebergTable for Ev {
//! #     fn table_def() -> &'static TableDef { unimplemented!() }
//! #     fn to_values(&self) -> Vec<Value> { unimplemented!() }
//! # }
//! let _ = Ev::update().set(Ev::TS, "2024-03-06 14:25:04"); // text is not a timestamp
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # struct Ev;
//! # impl Ev { const STATUS: Col<Ev, String> = Col::new("status"); }
//! let _ = Ev::STATUS.sum(); // sum takes numbers
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # struct Ev;
//! # impl Ev { const STATUS: Col<Ev, String> = Col::new("status"); }
//! let _ = Ev::STATUS.approx_percentile(0.5); // approx_percentile takes numbers
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # struct Ev;
//! # impl Ev {
//! #     const TS: Col<Ev, chrono::NaiveDateTime> = Col::new("ts");
//! #     const DAY: Col<Ev, String> = Col::new("day");
//! # }
//! let _ = Ev::TS.eq(Ev::DAY); // timestamp(6) = varchar: no common type
//! ```
//!
//! A `DateTime<Utc>` column compares with and takes its own values, and the clock
//! through [`Free::at_utc`]:
//!
//! ```
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::{current_timestamp, days};
//! # use chrono::{DateTime, TimeZone, Utc};
//! # struct Ev;
//! # impl Ev { const SEEN: Col<Ev, DateTime<Utc>> = Col::new("seen"); }
//! let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
//! let f = Ev::SEEN.lt((current_timestamp() - days(7)).at_utc()).or(Ev::SEEN.eq(at));
//! # let _ = f;
//! ```
//!
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # struct McpEvent;
//! # impl McpEvent { const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms"); }
//! let _ = McpEvent::LATENCY_MS.eq("x"); // a string is not a bigint
//! ```
//!
//! Arithmetic needs numeric operands, interval arithmetic a date or timestamp:
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # struct McpEvent;
//! # impl McpEvent { const STATUS: Col<McpEvent, String> = Col::new("status"); }
//! let _ = McpEvent::STATUS + 1; // no `+` on strings
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::dsl::days;
//! # struct McpEvent;
//! # impl McpEvent { const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms"); }
//! let _ = McpEvent::LATENCY_MS - days(7); // an interval needs a date/time operand
//! ```
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # struct McpEvent;
//! # impl McpEvent { const LATENCY_MS: Col<McpEvent, i64> = Col::new("latency_ms"); }
//! let _ = McpEvent::LATENCY_MS.eq(1).and(McpEvent::LATENCY_MS); // AND needs booleans
//! ```
//!
//! and so is the table a column belongs to:
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::expr::Cond;
//! # struct McpEvent; struct Other;
//! # impl McpEvent { const STATUS: Col<McpEvent, String> = Col::new("status"); }
//! # impl Other { const NAME: Col<Other, String> = Col::new("name"); }
//! let f: Cond<McpEvent> = McpEvent::STATUS.eq("ok").and(Other::NAME.eq("x"));
//! ```
//!
//! Inside a MERGE, [`source`](crate::dsl::source) and [`target`](crate::dsl::target) qualify columns. Conditions of `WHEN NOT
//! MATCHED` and `INSERT` values live in the [`Source`] scope, so a target column cannot
//! appear there:
//!
//! ```compile_fail
//! # use iceberg_sql::prelude::*;
//! # use iceberg_sql::dsl::*;
//! # use iceberg_sql::dsl::target;
//! # use iceberg_sql::expr::{Cond, Source};
//! # struct McpEvent;
//! # impl McpEvent { const STATUS: Col<McpEvent, String> = Col::new("status"); }
//! let c: Cond<Source<McpEvent>> = target(McpEvent::STATUS).eq("x");
//! ```

mod ast;
mod column;
mod deep;
mod methods;
mod typed;
mod window;

pub use ast::{
    Aggregate, BinaryOp, Expr, Frame, FrameBound, FrameUnits, Function, RawExpr, Scope, TimeUnit,
    MAX_EXPR_DEPTH, MAX_PARAM_CHARS,
};
pub use column::Col;
pub use methods::ExpressionMethods;
pub use typed::{
    Case, ColumnValue, Cond, Floating, Free, Interval, IntoOperand, Lit, Literal, Matched, Numeric,
    Param, Projectable, Source, SqlExpr, Temporal,
};
pub use window::{Window, WindowFn};
